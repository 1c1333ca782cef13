"""Building Caverna positions for the flow's scenario tests: scripted decks and markers,
goods handed out, dwarfs placed, keys played through the draft protocol object.

A scenario changes its state by hand between moves, which the engine's own moves never
do: the helpers that ask the engine about a state (``prompt``, ``keys``, ``play``,
``refused``) first make it forget the options it listed for the state before the change
(``engine.caverna.listing.forget``)."""

from __future__ import annotations

from typing import Any

from engine.caverna.caverna_game import CAVERNA
from engine.caverna.forced import carry_on
from engine.caverna.listing import forget
from engine.caverna.rounds import open_round
from engine.caverna.setup import setup
from engine.caverna.state import CavernaState
from engine.core.prompts import Event, Prompt
from engine.core.rng import ScriptedRandom
from tests.engine.events import codes as codes
from tests.engine.events import first as first
from tests.engine.events import refusal

GAME = CAVERNA


def scripted(
    players: int = 3,
    cards: dict[int, str] | None = None,
    markers: dict[int, str] | None = None,
    start: bool = True,
) -> CavernaState:
    """A new game whose shuffles keep the printed order; ``cards`` and ``markers``
    replace the face-down round cards and harvest markers. With ``start`` the first
    round is opened and the game runs to the first decision."""
    state = setup(players, seed=1, rng=ScriptedRandom())
    if cards is not None:
        state.cards = dict(cards)
    if markers is not None:
        state.markers = dict(markers)  # type: ignore[arg-type]
    if start:
        run(state, open_round)
    return state


def run(state: CavernaState, step: Any = None) -> list[Event]:
    """Carry out ``step(state, events)`` (if given), then everything automatic (the
    steps with one real option too, as after every move)."""
    events: list[Event] = []
    if step is not None:
        step(state, events)
    carry_on(state, events)
    return events


def give(state: CavernaState, seat: int, **goods: int) -> None:
    """Add goods or animals to a seat's supply."""
    player = state.players[seat]
    for good, amount in goods.items():
        if good in player.animals:
            player.animals[good] += amount
        else:
            player.goods[good] += amount


def play(state: CavernaState, seat: int, *keys: str) -> list[Event]:
    """Apply several keys for one seat through the protocol; returns their events."""
    forget(state)
    out: list[Event] = []
    for key in keys:
        out.extend(GAME.apply(state, seat, key))
    return out


def prompt(state: CavernaState, seat: int) -> Prompt:
    """The seat's open prompt (fails if none)."""
    forget(state)
    for p in GAME.pending(state):
        if p.seat == seat:
            return p
    raise AssertionError(f"seat {seat} has no prompt: {[p.seat for p in GAME.pending(state)]}")


def keys(state: CavernaState, seat: int) -> list[str]:
    return prompt(state, seat).keys()


def refused(state: CavernaState, seat: int, key: str, code: str) -> None:
    """``key`` is refused with ``code`` and changes nothing."""
    forget(state)
    assert refusal(GAME, state, seat, key) == code
