"""Drawing a state's hidden part again, the way every game's ``redraw`` does it.

A game's ``redraw`` gathers each pool of hidden items whose members could lie in any of
the pool's hidden places (a deck and another seat's blind cards, say), and has
:meth:`Redraw.redeal` put each pool back in the same shapes in an order drawn from the
seed; the state's random source becomes ``Redraw.dice``. A pool is sorted before it is
shuffled, so the order it had — the very thing the seat may not know — cannot show
through: two states that differ only there are redealt alike.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TypeVar

from engine.core.rng import SeededRandom

# Hidden items are named by ids or words (cards, tiles, marker colours): strings, which
# sort the same everywhere.
T = TypeVar("T", bound=str)

# The seeds handed to ``redraw`` and drawn for its generators: 62 bits, as many as any
# caller's ``getrandbits`` needs to give distinct seeds in practice.
SEED_BITS = 62


@dataclass(frozen=True, slots=True)
class Redraw:
    """The two generators one seed makes: ``pools`` shuffles the hidden pools, ``dice``
    becomes the state's random source (the dice and draws to come). Separate, so the
    dice do not repeat the shuffles' values."""

    pools: SeededRandom
    dice: SeededRandom

    @classmethod
    def from_seed(cls, seed: int) -> Redraw:
        """Both generators, each seeded from a value ``seed`` gives."""
        root = SeededRandom(seed=seed)
        top = (1 << SEED_BITS) - 1
        return cls(SeededRandom(seed=root.randint(0, top)), SeededRandom(seed=root.randint(0, top)))

    def redeal(self, shapes: Sequence[Sequence[T]]) -> list[list[T]]:
        """The items of ``shapes`` (lists that together make one pool), sorted, shuffled
        and cut again into lists of the same lengths, in the same order."""
        pool = sorted(item for shape in shapes for item in shape)
        self.pools.shuffle(pool)
        dealt: list[list[T]] = []
        start = 0
        for shape in shapes:
            dealt.append(pool[start:start + len(shape)])
            start += len(shape)
        return dealt
