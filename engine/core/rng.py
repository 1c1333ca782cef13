"""Randomness whose position is part of the game state.

A game replays exactly from its seed and its actions: the generator is a counter-based
hash (splitmix64), so its whole state is two integers that serialise with the game.
Tests swap in ``ScriptedRandom`` to reproduce a rulebook example die by die.
"""

from __future__ import annotations

from typing import Annotated, Literal, TypeVar

from pydantic import Field

from engine.core.model import EngineModel
from engine.core.splitmix import draw

T = TypeVar("T")


class SeededRandom(EngineModel):
    """A reproducible generator: value number ``pos`` depends only on ``seed`` and ``pos``."""

    kind: Literal["seeded"] = "seeded"
    seed: int
    pos: int = 0

    def randint(self, lo: int, hi: int) -> int:
        """A uniform integer in ``[lo, hi]``; advances the position by one."""
        value = draw(self.seed, self.pos, lo, hi)
        self.pos += 1
        return value

    def shuffle(self, items: list[T]) -> None:
        """Shuffle ``items`` in place (Fisher–Yates)."""
        for i in range(len(items) - 1, 0, -1):
            j = self.randint(0, i)
            items[i], items[j] = items[j], items[i]


class ScriptedRandom(EngineModel):
    """A source that returns prepared values, for scenario tests.

    ``values`` are returned in order by ``randint`` (each must lie in the asked range,
    so a test that scripts a 7 for a die fails loudly). Shuffles keep the order given,
    so a test sets up decks exactly as it lays them out.
    """

    kind: Literal["scripted"] = "scripted"
    values: list[int] = Field(default_factory=list)
    pos: int = 0

    def randint(self, lo: int, hi: int) -> int:
        """The next scripted value; raises if the script ran out or the value is out of range."""
        if self.pos >= len(self.values):
            raise RuntimeError("scripted random source ran out of values")
        value = self.values[self.pos]
        if not lo <= value <= hi:
            raise RuntimeError(f"scripted value {value} outside [{lo}, {hi}]")
        self.pos += 1
        return value

    def shuffle(self, items: list[T]) -> None:
        """Leave the order as given."""

    def extend(self, values: list[int]) -> None:
        """Queue more values (dice) for the next rolls."""
        self.values.extend(values)


RandomSource = Annotated[SeededRandom | ScriptedRandom, Field(discriminator="kind")]
