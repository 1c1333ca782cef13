"""Prompts, options and events: the engine's whole vocabulary towards the bot.

Texts are not produced here. A ``Label`` is a message code plus arguments, so the bot
can render it in any language; keys of options are short and stable so that buttons,
typed commands and replays all name the same choice.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import field
from typing import Any, Final

from engine.core.values import value

Args = dict[str, Any]


@value
class Label:
    """A translatable text: a catalog code and the values it mentions."""

    code: str
    args: Args = field(default_factory=dict)


@value
class Option:
    """One finite choice inside a prompt.

    ``back`` marks an option that only steps out of a multi-step choice without
    committing anything, so a UI may draw it apart from the real choices.
    """

    key: str
    label: Label
    back: bool = False


def one_per_label(options: list[Option]) -> list[Option]:
    """``options`` keeping only the first of those whose labels are equal.

    A game calls this where equal labels mean equal outcomes (two tools of the same
    value, two identical parts of one action): a player is never asked to choose
    between two buttons that read the same and do the same."""
    kept: list[Option] = []
    for option in options:
        if all(option.label != other.label or option.back != other.back for other in kept):
            kept.append(option)
    return kept


def only_choice(options: Sequence[Option]) -> str | None:
    """The key of the one real option among ``options`` — a lone option, or the only
    one that is not a step back — or None when there is a choice to make.

    A step back is not a real option: what it leads to could be reached at the choice
    it goes back to. A game that applies such a decision itself (Caverna) asks no
    player to press a button that leaves nothing to decide."""
    if len(options) == 1:
        return options[0].key
    real = [o for o in options if not o.back]
    return real[0].key if len(real) == 1 else None


# The one "step back" option of every game: it leaves the innermost step of a multi-step
# choice without committing anything (one key and one label, so buttons agree).
BACK: Final = Option("back", Label("opt.back"), back=True)


@value
class Prompt:
    """A decision one seat must make now.

    Several prompts may be open at once (simultaneous decisions); each seat has at
    most one. ``step`` says whether this prompt is the first step of a decision or a
    continuation of a choice begun earlier (which ``back`` options can leave).
    """

    seat: int
    label: Label
    options: tuple[Option, ...]
    step: int = 1

    def keys(self) -> list[str]:
        """The option keys in display order."""
        return [o.key for o in self.options]


@value
class Event:
    """Something that happened, for the chat log ("Anna hunted: rolled 14, +7 food")."""

    code: str
    seat: int | None = None
    args: Args = field(default_factory=dict)
