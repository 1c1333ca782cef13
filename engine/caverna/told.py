"""What a state last told about each seat's housing, kept beside the state.

After every move the engine tells, for every seat, where its animals live
(:mod:`engine.caverna.housed`); the arrangement depends on the seat's board, its
animals and the size of its family only, and those seldom change. A state keeps, per
seat, what they were when the arrangement was last told on it (a :class:`Told`, an
:class:`~engine.core.aside.Aside`: a reloaded state starts without it and works the
arrangement out again), so a seat where none of them changed is passed over.
``Game.copy`` hands it on (:func:`carried`).
"""

from __future__ import annotations

from engine.caverna.board_facts import Signature
from engine.core.aside import Aside

# What the arrangement was worked out from: the board's signature, the animals, the
# number of dwarfs.
Inputs = tuple[Signature, dict[str, int], int]


class Told(Aside):
    """Per seat: the inputs of the arrangement last told on the state holding this."""

    __slots__ = ("by_seat",)

    def __init__(self) -> None:
        self.by_seat: dict[int, Inputs] = {}


def carried(told: Told) -> Told:
    """What was told on a state, for a copy of it (equal to it: the same holds there).
    The inputs are shared: they are replaced, never changed."""
    out = Told()
    out.by_seat.update(told.by_seat)
    return out
