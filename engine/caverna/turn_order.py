"""Who decides after the seat deciding now, when that is certain: for "you're next".

Only the work phase is predictable. Seats place one dwarf each in turn from the seat
after the one that placed last, skipping seats with no dwarf at home and seats that sat
out; a seat whose dwarfs could use no free space sits out. So the next placer ``Y`` is
certain only if ``Y`` will surely still find a space once the current seat's action is
done. The current seat takes one space at most, and its action may change the shared
supply (a furnishing tile taken) but never the goods lying on a space it does not stand
on. Hence: ``Y`` is promised when at least two free accumulating spaces hold goods
``Y``'s next dwarf could take — one of them stays free whatever happens. Otherwise, in
the harvest (everyone at once), at the start of a round (solo clearing) or at the end,
nothing is promised.
"""

from __future__ import annotations

from engine.caverna.components import components
from engine.caverna.placement import next_in_order
from engine.caverna.spaces import space_doable
from engine.caverna.state import CavernaState

SURE_SPACES = 2  # free spaces with goods the next seat needs for a promise


def next_placer(state: CavernaState, seat: int) -> int | None:
    """The first seat after ``seat`` that has a dwarf at home and has not sat out."""
    for i in range(1, state.n):
        other = (seat + i) % state.n
        if other not in state.passed and state.players[other].home():
            return other
    return None


def surely_places(state: CavernaState, seat: int) -> bool:
    """Will ``seat`` find a space whatever the seat now acting does?"""
    dwarf = next_in_order(state.players[seat])
    if dwarf is None:
        return False
    comp = components()
    sure = 0
    for space in state.spaces:
        if space.taken or not any(space.goods.values()):
            continue
        if not comp.space(space.id).accumulating:
            continue
        if space_doable(state, seat, dwarf, space.id):
            sure += 1
            if sure >= SURE_SPACES:
                return True
    return False


def next_turn(state: CavernaState, seat: int) -> int | None:
    """The seat that surely decides after ``seat``'s current turn, or None."""
    if state.phase != "work" or set(state.stacks) - {seat}:
        return None
    current = state.acting if state.acting is not None else state.turn
    if current != seat:
        return None
    after = next_placer(state, seat)
    if after is None or not surely_places(state, after):
        return None
    return after
