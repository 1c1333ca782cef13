"""Who plays after whom, when it is certain: for telling a player they are next.

Placement goes round the table from the player after the one placing, skipping players
with no people left. The hunting grounds have room for everyone, so a player who still
has two people or more and has not hunted this round will surely be asked where to
place next, whatever the player before does (with one person left, the hunt may become
the one placement left, which goes without asking). In the action phase players act in
turn order; the next one is surely asked only if they must choose which of their
places comes next (``engine.stone_age.order``: places whose order cannot matter
resolve by themselves). A civilization card still to be resolved may give every player
a die to pick, and feeding asks everyone at once: no guess then.
"""

from __future__ import annotations

from engine.stone_age.flow import acting_seat
from engine.stone_age.order import will_choose
from engine.stone_age.placement import placement_error
from engine.stone_age.state import StoneAgeState


def next_turn(state: StoneAgeState, seat: int) -> int | None:
    """The seat that surely decides after ``seat``'s current turn, or None."""
    if state.stacks:
        return None
    if state.phase == "placement" and state.turn == seat:
        for i in range(1, state.n):
            other = (seat + i) % state.n
            unplaced = state.players[other].unplaced
            if unplaced > 0:
                sure = unplaced > 1 and placement_error(state, other, "hunt", 1) is None
                return other if sure else None
        return None
    if state.phase == "actions" and acting_seat(state) == seat:
        if any(loc.startswith("card") for loc in state.players[seat].placed):
            return None
        # Players act in order from the first player; those before ``seat`` are done.
        position = (seat - state.first) % state.n
        for i in range(position + 1, state.n):
            other = (state.first + i) % state.n
            if state.players[other].placed:
                return other if will_choose(state, other) else None
        return None
    return None
