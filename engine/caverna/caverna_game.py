"""Caverna: The Cave Farmers behind the engine protocol, 1 to 7 players.

Each method hands over to a small module: the flow (:mod:`engine.caverna.flow`,
:mod:`engine.caverna.decisions`), copying a state (:mod:`engine.caverna.copying`), what
may be seen (:mod:`engine.caverna.view`, its shape in :mod:`engine.caverna.view_model`),
the table header (:mod:`engine.caverna.summary`), who is surely next
(:mod:`engine.caverna.turn_order`), final scoring (:mod:`engine.caverna.results`), the
autopilot's judgement (:mod:`engine.caverna.heuristic`) and the invariants
(:mod:`engine.caverna.invariants`). Its variants are declared once in
:mod:`engine.caverna.variants` (``CavernaGame.variants``), checked by ``new`` and kept in
the state.

Registering the game is one line in ``engine/caverna/game.py``:
``from engine.caverna.caverna_game import CAVERNA as GAME``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.caverna.copying import copy_state
from engine.caverna.decisions import MACHINE
from engine.caverna.forced import carry_on
from engine.caverna.heuristic import position_value
from engine.caverna.housed import tell_housing
from engine.caverna.invariants import problems
from engine.caverna.redraw import redeal
from engine.caverna.results import final_result
from engine.caverna.rounds import open_round
from engine.caverna.setup import MAX_PLAYERS, MIN_PLAYERS, setup
from engine.caverna.state import CavernaState
from engine.caverna.summary import summary
from engine.caverna.turn_order import next_turn
from engine.caverna.variants import OPTIONS, VARIANTS, read_options
from engine.caverna.view import secrets, view
from engine.caverna.view_model import CavernaView
from engine.core.base_game import BaseGame
from engine.core.prompts import Event
from engine.core.protocol import Result, Summary


def new_game(players: int, seed: int, options: Mapping[str, Any] | None = None) -> CavernaState:
    """Set up a game with ``options`` (checked, defaults filled in) and run it to the
    first decision."""
    chosen = read_options(options)
    state = setup(players, seed)
    state.options = chosen
    events: list[Event] = []
    open_round(state, events)
    carry_on(state, events)
    return state


class CavernaGame(BaseGame[CavernaState]):
    """The Caverna rules for 1 to 7 players."""

    name = "caverna"
    min_players = MIN_PLAYERS
    max_players = MAX_PLAYERS
    state_type = CavernaState
    machine = MACHINE
    variants = VARIANTS
    # The declared options and their values, the default first (from ``variants``).
    options = OPTIONS

    def new(
        self, players: int, seed: int, options: Mapping[str, Any] | None = None
    ) -> CavernaState:
        """Set up a game; seat 0 holds the first-player token."""
        return new_game(players, seed, options)

    def carry_on(self, state: CavernaState, events: list[Event]) -> None:
        """Everything automatic and every step with one real option, up to the next
        real decision, then who is newly housed."""
        carry_on(state, events)
        tell_housing(state, events)

    def copy(self, state: CavernaState) -> CavernaState:
        """An independent copy, rebuilt directly (:mod:`engine.caverna.copying`): cheaper
        than the JSON round trip."""
        return copy_state(state)

    def view(self, state: CavernaState, seat: int | None) -> CavernaView:
        """What ``seat`` may see (everything but the face-down cards and markers)."""
        return view(state, seat)

    def summary(self, state: CavernaState) -> Summary:
        """Round, phase, who decides, the running scores and each seat's supply."""
        return summary(state)

    def next_turn(self, state: CavernaState, seat: int) -> int | None:
        """Who surely decides after ``seat``'s current turn, or None."""
        return next_turn(state, seat)

    def secrets(self, state: CavernaState, seat: int | None) -> list[Any]:
        """The face-down round cards' and harvest markers' order, and the random source."""
        return secrets(state, seat)

    def redraw(self, state: CavernaState, seat: int, seed: int) -> CavernaState:
        """A state no seat can tell from ``state``, the face-down round cards and harvest
        markers drawn again from ``seed`` (see ``engine.caverna.redraw``)."""
        return redeal(self.copy(state), seed)

    def final_result(self, state: CavernaState) -> Result:
        """The scores of the finished game."""
        return final_result(state)

    def heuristic(self, state: CavernaState, seat: int) -> float:
        """A rough value of ``seat``'s position, for the greedy autopilot."""
        return position_value(state, seat)

    def invariants(self, state: CavernaState) -> list[str]:
        """Broken invariants of ``state`` (empty when all is well)."""
        return problems(state)


CAVERNA = CavernaGame()
