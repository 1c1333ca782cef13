"""Charm Nim, a tiny game that exists to prove the engine protocol generic.

Two to four players share one pile of stones and take turns taking one, two or three
of them; whoever takes the last stone earns ``LAST_STONE_POINTS``. At the start each
player is dealt a charm face down from a shuffled deck: a charm names a number, and
taking exactly that many stones earns a point. Nobody sees another player's charm, nor
the charms left in the deck — the hidden part the conformance checks look after.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from pydantic import BaseModel, Field

from engine.core.errors import IllegalMove
from engine.core.keys import parse_number
from engine.core.prompts import Event, Label, Option, Prompt
from engine.core.protocol import Result, SeatScore, Summary
from engine.core.redraw import Redraw
from engine.core.variants import Variant
from engine.core.views import View

NAME = "charm_nim"
MIN_PLAYERS = 2
MAX_PLAYERS = 4
MAX_TAKE = 3
PILE_SIZES = (13, 21)  # the pile is dealt between these, both included
LAST_STONE_POINTS = 3
# Each charm and the number of stones that wakes it.
CHARMS: dict[str, int] = {"owl": 1, "hare": 1, "fox": 2, "lynx": 2, "bear": 3, "wolf": 3}
BREAKDOWN_KEYS = ("last", "charm")


class CharmNimView(View):
    """What one seat sees: the pile, whose turn it is, the points and who took the last
    stone; a seat also sees its own charm and the number that wakes it."""

    pile: int
    turn: int
    points: list[int]
    last_taker: int | None
    my_charm: str | None = None
    my_number: int | None = None


class CharmNimState(BaseModel):
    """The whole game: the pile, whose turn it is, the charms and the points so far."""

    pile: int = Field(ge=0)
    turn: int = Field(ge=0)
    charms: list[str]  # one per seat, hidden from the others
    deck: list[str]  # charms nobody holds, in their shuffled order
    charm_points: list[int]
    last_taker: int | None = None
    actions: int = 0  # moves made so far


class CharmNim:
    """The engine protocol for Charm Nim (``engine.core.protocol.Game``)."""

    name = NAME
    min_players = MIN_PLAYERS
    variants: tuple[Variant, ...] = ()
    rivalry: float = 0.0
    rival_mean: bool = False
    greedy_rivals: bool = False
    max_players = MAX_PLAYERS
    state_type = CharmNimState

    def new(self, players: int, seed: int, options: Mapping[str, Any] | None = None
            ) -> CharmNimState:
        """Deal the pile and one charm per seat; seat 0 begins."""
        if not MIN_PLAYERS <= players <= MAX_PLAYERS:
            raise IllegalMove("bad_player_count", players=players)
        rnd = random.Random(seed)
        deck = sorted(CHARMS)
        rnd.shuffle(deck)
        return CharmNimState(pile=rnd.randint(*PILE_SIZES), turn=0, charms=deck[:players],
                             deck=deck[players:], charm_points=[0] * players)

    def pending(self, state: CharmNimState) -> list[Prompt]:
        """The seat to move chooses how many stones to take; nothing once the pile is gone."""
        if state.pile == 0:
            return []
        options = tuple(Option(str(n), Label("cn.opt.take", {"n": n}))
                        for n in range(1, min(MAX_TAKE, state.pile) + 1))
        return [Prompt(state.turn, Label("cn.prompt.take", {"pile": state.pile}), options)]

    def apply(self, state: CharmNimState, seat: int, key: str) -> list[Event]:
        """Take ``key`` stones for ``seat``; refuse, changing nothing, what is not offered."""
        if state.pile == 0:
            raise IllegalMove("game_over")
        if seat != state.turn:
            raise IllegalMove("not_your_turn")
        n = parse_number(key)
        if n is None or not 1 <= n <= min(MAX_TAKE, state.pile):
            raise IllegalMove("unknown_option")
        state.pile -= n
        state.actions += 1
        events = [Event("cn.event.took", seat, {"n": n, "left": state.pile})]
        if CHARMS[state.charms[seat]] == n:
            state.charm_points[seat] += 1
            events.append(Event("cn.event.charm", seat))
        if state.pile == 0:
            state.last_taker = seat
            events.append(Event("cn.event.last", seat))
        else:
            state.turn = (seat + 1) % len(state.charms)
        return events

    def view(self, state: CharmNimState, seat: int | None) -> CharmNimView:
        """The pile and the points are open; a seat sees its own charm only."""
        charm = state.charms[seat] if seat is not None else None
        return CharmNimView(pile=state.pile, turn=state.turn, points=self._totals(state),
                            last_taker=state.last_taker, my_charm=charm,
                            my_number=CHARMS[charm] if charm is not None else None)

    def secrets(self, state: CharmNimState, seat: int | None) -> list[Any]:
        """The deck's order and every charm but the seat's own."""
        others = [c for s, c in enumerate(state.charms) if s != seat]
        return [state.deck, *([c] for c in others), *([c] for c in state.deck)]

    def summary(self, state: CharmNimState) -> Summary:
        """No rounds or phases: whose turn it is, the points so far and the pile."""
        deciding = (state.turn,) if state.pile else ()
        return Summary(round=None, phase=None, deciding=deciding,
                       scores=tuple(self._totals(state)), sections={"pile": state.pile})

    def next_turn(self, state: CharmNimState, seat: int) -> int | None:
        """The next seat, when the pile is sure to outlast this turn."""
        if state.pile <= MAX_TAKE or seat != state.turn:
            return None
        return (seat + 1) % len(state.charms)

    def result(self, state: CharmNimState) -> Result | None:
        """Once the pile is gone: the last stone's points plus each seat's charm points."""
        if state.pile:
            return None
        scores = [SeatScore(seat, total, self._breakdown(state, seat))
                  for seat, total in enumerate(self._totals(state))]
        best = max(s.total for s in scores)
        return Result(scores, [s.seat for s in scores if s.total == best], "last_stone")

    def heuristic(self, state: CharmNimState, seat: int) -> float:
        """The seat's points so far."""
        return float(self._totals(state)[seat])

    def invariants(self, state: CharmNimState) -> list[str]:
        """The charms are a permutation of all charms; the turn is a seat."""
        problems = []
        if sorted(state.charms + state.deck) != sorted(CHARMS):
            problems.append("charms lost or doubled")
        if not 0 <= state.turn < len(state.charms):
            problems.append(f"turn {state.turn} is no seat")
        if len(state.charm_points) != len(state.charms):
            problems.append("points for another number of seats")
        return problems

    def copy(self, state: CharmNimState) -> CharmNimState:
        """An independent copy."""
        return state.model_copy(deep=True)

    def redraw(self, state: CharmNimState, seat: int, seed: int) -> CharmNimState:
        """The deck and every other seat's charm dealt again from ``seed``: the seat
        knows only its own charm, so any other charm could be in any of those places.
        The game has no random source after setup: nothing else is hidden.

        A seat is taken to know the state's view only: a charm point earned in the open
        narrows down what its owner holds, but the state keeps no record of the takes
        to narrow the pool by, and a tiny test game needs no sharper guess."""
        fresh = self.copy(state)
        others = [s for s in range(len(state.charms)) if s != seat]
        deck, charms = Redraw.from_seed(seed).redeal(
            [state.deck, [state.charms[s] for s in others]])
        fresh.deck = deck
        for s, charm in zip(others, charms, strict=True):
            fresh.charms[s] = charm
        return fresh

    def dump(self, state: CharmNimState) -> str:
        """The state as JSON."""
        return state.model_dump_json()

    def load(self, data: str | bytes | Mapping[str, Any]) -> CharmNimState:
        """A state from JSON, as text or already parsed."""
        if isinstance(data, str | bytes):
            return CharmNimState.model_validate_json(data)
        return CharmNimState.model_validate(data)

    def _breakdown(self, state: CharmNimState, seat: int) -> dict[str, int]:
        last = LAST_STONE_POINTS if state.last_taker == seat else 0
        return {"last": last, "charm": state.charm_points[seat]}

    def _totals(self, state: CharmNimState) -> list[int]:
        return [sum(self._breakdown(state, s).values()) for s in range(len(state.charms))]


GAME = CharmNim()
