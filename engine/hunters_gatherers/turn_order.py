"""Who plays after whom, when it is certain: for telling a player they are next.

Turns go round the table, except that completing a forest with gold earns a bonus turn
and that the game ends when no tile is left that fits. Both are only known once the
tile in hand lies: on the figure step. Then the next player surely gets the next tile
of the pile if it fits somewhere away from the tile just laid — a spot's fit depends
only on its four neighbours, so laying the tile cannot spoil such a spot.
"""

from __future__ import annotations

from engine.hunters_gatherers.board_cache import BoardCache
from engine.hunters_gatherers.geometry import legal_placements, neighbours
from engine.hunters_gatherers.state import HuntersGatherersState
from engine.hunters_gatherers.tiles import tile


def next_turn(state: HuntersGatherersState, cache: BoardCache, seat: int) -> int | None:
    """The seat that surely plays after ``seat``'s turn, or None."""
    if state.step != "figure" or state.turn != seat or state.bonus_due or not state.draw:
        return None
    if state.spot is None:
        return None
    laid = (state.spot[0], state.spot[1])
    near = {laid, *(pos for _, pos in neighbours(laid))}
    placements = legal_placements(cache.board(state), tile(state.draw[-1]))
    if any(pos not in near for pos, _ in placements):
        return (seat + 1) % state.n
    return None
