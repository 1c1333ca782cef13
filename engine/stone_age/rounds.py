"""Round structure: the end of a round, a new round, and the two ends of the game.

New round: the remaining cards slide right to close the gaps and new cards fill the
empty slots from the right; tools are turned back; the first-player marker passes
left. The game ends at once if the deck cannot fill every slot, and after the round
(feeding included) in which a building pile ran out.
"""

from __future__ import annotations

from engine.core.prompts import Event
from engine.stone_age.state import StoneAgeState
from engine.stone_age.tools import reset_tools


def slide_and_refill(row: list[str | None], deck: list[str]) -> bool:
    """Close gaps toward slot 1 and refill from the deck; False if the deck is too short.

    The row is left untouched when the deck cannot fill it: the game ends instead.
    """
    kept = [c for c in row if c is not None]
    missing = len(row) - len(kept)
    if missing > len(deck):
        return False
    drawn = [deck.pop() for _ in range(missing)]
    row[:] = kept + drawn
    return True


def end_game(state: StoneAgeState, reason: str, events: list[Event]) -> None:
    """Stop the game; scoring is read by ``result``."""
    state.phase = "over"
    state.end_reason = reason
    state.stacks = {}
    events.append(Event("game_over", None, {"reason": reason}))


def end_round(state: StoneAgeState, events: list[Event]) -> None:
    """After feeding: end the game or begin the next round."""
    if state.last_round:
        end_game(state, "building_pile_empty", events)
        return
    if not slide_and_refill(state.row, state.deck):
        end_game(state, "cards_exhausted", events)
        return
    for player in state.players:
        player.placed = {}
        reset_tools(player)
    state.first = (state.first + 1) % state.n
    state.turn = state.first
    state.round += 1
    state.phase = "placement"
    events.append(Event("round_started", state.first, {"round": state.round}))
