"""Building Stone Age positions for scenario tests: scripted dice, chosen cards."""

from __future__ import annotations

from engine.core.prompts import Event
from engine.core.rng import ScriptedRandom
from engine.stone_age.flow import advance
from engine.stone_age.game import GAME, setup
from engine.stone_age.state import StoneAgeState
from tests.engine.events import codes as codes
from tests.engine.events import first as first
from tests.engine.events import refusal


def scripted(
    players: int = 4,
    dice: list[int] | None = None,
    row: list[str | None] | None = None,
    deck: list[str] | None = None,
    piles: list[list[str]] | None = None,
) -> StoneAgeState:
    """A fresh game whose dice come from ``dice`` (in order) and whose cards are laid out
    as given: ``row[0]`` is slot 1 (cost 1); the deck's next card is its last element;
    each pile's face-up building is its last element."""
    state = setup(players, seed=1)
    state.rng = ScriptedRandom(values=list(dice or []))
    if row is not None:
        state.row = list(row)
    if deck is not None:
        state.deck = list(deck)
    if piles is not None:
        state.piles = [list(p) for p in piles]
    advance(state, [])
    return state


def start_actions(state: StoneAgeState, placements: dict[int, dict[str, int]]) -> list[Event]:
    """Jump to the action phase with workers already standing where ``placements`` says,
    then let the game run until the first decision. Returns the events of that run."""
    for seat, placed in placements.items():
        state.players[seat].placed = dict(placed)
    state.phase = "actions"
    state.turn = state.first
    state.stacks = {}
    events: list[Event] = []
    advance(state, events)
    return events


def play(state: StoneAgeState, seat: int, *keys: str) -> list[Event]:
    """Apply several keys for one seat; returns all their events."""
    out: list[Event] = []
    for key in keys:
        out.extend(GAME.apply(state, seat, key))
    return out


def refused(state: StoneAgeState, seat: int, key: str) -> str:
    """Apply ``key``, expect a refusal, check nothing changed; the reason code."""
    return refusal(GAME, state, seat, key)
