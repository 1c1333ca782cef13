"""Variants: the settings a game declares, chosen when a table is set up.

A game declares each variant once (its name and values, the default first); the bot
offers them from that declaration, and ``read_variants`` checks what a table chose. An
unknown variant or value is refused (``UnknownVariant``, which the game turns into its
own ``IllegalMove``), so a typo never silently plays the default game.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True, slots=True)
class Variant:
    """One setting: its ``values`` (the default first), those that are not rules of
    the published game (``unofficial``), for texts that must say so, and ``before``:
    what a table recorded before the variant was declared plays (the game as it was
    then; None: the default). A table records every variant when it opens, so a
    variant it lacks is one declared later (``recorded``)."""

    name: str
    values: tuple[str, ...]
    unofficial: frozenset[str] = field(default_factory=frozenset)
    before: str | None = None

    def __post_init__(self) -> None:
        if not self.values or not self.unofficial <= set(self.values) or \
                (self.before is not None and self.before not in self.values):
            raise ValueError(f"variant {self.name}: bad values {self.values}")

    @property
    def default(self) -> str:
        """The value played when a table does not choose one."""
        return self.values[0]


def defaults(variants: Sequence[Variant]) -> dict[str, str]:
    """Every variant at its default."""
    return {v.name: v.default for v in variants}


class UnknownVariant(ValueError):
    """A choice naming no declared variant, or no value of it. Each game turns it into
    its own refusal (the bot words refusals per game)."""

    def __init__(self, name: str, value: str) -> None:
        super().__init__(f"unknown variant {name}={value}")
        self.name = name
        self.value = value


def recorded(variants: Sequence[Variant], stored: Mapping[str, str]) -> dict[str, str]:
    """The variants a table ``stored`` when it opened, each variant declared since then
    at what the game played before it (``Variant.before``): what the game's ``new``
    is given for that table, now and at every replay."""
    return {**{v.name: v.before or v.default for v in variants if v.name not in stored},
            **stored}


def read_variants(variants: Sequence[Variant], chosen: Mapping[str, Any] | None) -> dict[str, str]:
    """``chosen`` checked against ``variants`` and completed with defaults (every
    variant named); ``UnknownVariant`` for an unknown variant or value."""
    out = defaults(variants)
    values = {v.name: v.values for v in variants}
    for name, value in (chosen or {}).items():
        if name not in values or str(value) not in values[name]:
            raise UnknownVariant(str(name), str(value))
        out[name] = str(value)
    return out
