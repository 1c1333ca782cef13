"""Turn flow: drawing the next tile (land or bonus), and ending the game.

A drawn tile that fits nowhere is set aside and the next one drawn. A bonus turn,
when earned, comes straight after the turn that earned it and belongs to the same
player; the next player's turn follows. The game ends after the turn (with its bonus
turn, if any) in which the last land tile was laid.

The game's ``BoardCache`` is passed in for the questions about the map.
"""

from __future__ import annotations

from engine.core.prompts import Event
from engine.hunters_gatherers.board_cache import BoardCache
from engine.hunters_gatherers.scoring import final_result, final_scoring
from engine.hunters_gatherers.state import HuntersGatherersState


def _hold(state: HuntersGatherersState, tile_id: str | None, bonus: bool) -> None:
    state.current = tile_id
    state.current_bonus = bonus
    state.spot = None
    state.rotation = None


def _draw(
    state: HuntersGatherersState, cache: BoardCache, events: list[Event], *, bonus: bool
) -> bool:
    """Draw from the bonus pile or the land pile until a tile fits and hold it for the
    current player; each tile that fits nowhere is discarded. False when the pile runs
    out first."""
    pile = state.bonus if bonus else state.draw
    while pile:
        tile_id = pile.pop()
        if cache.fits_somewhere(state, tile_id):
            _hold(state, tile_id, bonus)
            state.step = "spot"
            args = {"tile": tile_id}
            events.append(Event("bonus_turn", state.turn, args) if bonus
                          else Event("tile_drawn", state.turn, args))
            return True
        state.discards.append(tile_id)
        events.append(Event("tile_discarded", state.turn, {"tile": tile_id, "bonus": bonus}))
    return False


def next_tile(
    state: HuntersGatherersState, cache: BoardCache, events: list[Event], *, advance: bool
) -> None:
    """Give the next tile to whoever plays next, or end the game.

    ``advance`` is False only for the very first turn of the game.
    """
    _hold(state, None, False)
    if state.bonus_due:
        state.bonus_due = False
        # A bonus turn when a bonus tile fits; otherwise the right lapses.
        if _draw(state, cache, events, bonus=True):
            return
    if not state.draw:
        end_game(state, cache, events, "last_tile_placed")
        return
    if advance:
        state.turn = (state.turn + 1) % state.n
    if not _draw(state, cache, events, bonus=False):
        end_game(state, cache, events, "no_tile_fits")


def end_game(
    state: HuntersGatherersState, cache: BoardCache, events: list[Event], reason: str
) -> None:
    """Final scoring; the game is over."""
    _hold(state, None, False)
    state.step = "over"
    state.end_reason = reason
    final_scoring(state, cache.features(state), events)
    result = final_result(state)
    events.append(
        Event(
            "game_over",
            None,
            {"reason": reason, "scores": [s.total for s in result.scores],
             "winners": result.winners},
        )
    )
