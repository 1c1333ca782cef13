"""Caverna behind the engine protocol — a draft, not registered.

The registry picks up ``engine/<game>/game.py``'s ``GAME``; this module is neither, so
the bot does not host Caverna until the engine is complete. ``CAVERNA_DRAFT`` lets the
tests play whole games through the protocol meanwhile. Its ``result`` scores with a
provisional tally (the score pad's plain categories); the full scoring with the yellow
tiles' bonuses belongs to the final ``game.py``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.caverna.animals import fits
from engine.caverna.board import problems as board_problems
from engine.caverna.components import components
from engine.caverna.decisions import apply_key, pending
from engine.caverna.family import max_dwarfs
from engine.caverna.flow import advance
from engine.caverna.rounds import open_round
from engine.caverna.scoring import PlayerTally, score, winners
from engine.caverna.setup import MAX_PLAYERS, MIN_PLAYERS, setup
from engine.caverna.state import CavernaState
from engine.core.prompts import Event, Prompt
from engine.core.protocol import Result, SeatScore, Summary


def new_game(players: int, seed: int) -> CavernaState:
    """Set up and run to the first decision."""
    state = setup(players, seed)
    events: list[Event] = []
    open_round(state, events)
    advance(state, events)
    return state


def tally(state: CavernaState, seat: int) -> PlayerTally:
    """What ``seat`` brings to the score pad now."""
    p = state.players[seat]
    return PlayerTally(
        board=p.board, goods=p.goods, animals=p.animals, dwarfs=len(p.dwarfs),
        armed=sum(1 for d in p.dwarfs if d.weapon), begging=p.begging,
    )


def scores(state: CavernaState, seat: int) -> dict[str, int]:
    """The score sheet's lines for ``seat`` as things stand."""
    return score(tally(state, seat))


def problems(state: CavernaState) -> list[str]:
    """Broken invariants."""
    out = []
    for seat, p in enumerate(state.players):
        for g, n in p.goods.items():
            if n < 0:
                out.append(f"seat {seat}: {g} is {n}")
        for a, n in p.animals.items():
            if n < 0:
                out.append(f"seat {seat}: {a} is {n}")
        if not 2 <= len(p.dwarfs) <= max_dwarfs(p):
            out.append(f"seat {seat}: {len(p.dwarfs)} dwarfs")
        if len(p.board.stables) > 3:
            out.append(f"seat {seat}: {len(p.board.stables)} stables")
        if any(not 0 <= d.weapon <= 14 for d in p.dwarfs):
            out.append(f"seat {seat}: weapons {[d.weapon for d in p.dwarfs]}")
        if not state.stacks and not fits(p.board, p.animals, len(p.dwarfs)):
            out.append(f"seat {seat}: animals {p.animals} not housed")
        out += [f"seat {seat}: {problem}" for problem in board_problems(p.board)]
    tiles = components().furnishings
    unique = [t for p in state.players for t in p.board.furnishings
              if t in tiles and tiles[t].count is not None]
    if len(unique) != len(set(unique)):
        out.append(f"a furnishing tile that exists once is laid twice: {sorted(unique)}")
    taken = [s.id for s in state.spaces if s.seat is not None]
    if len(taken) != len(set(taken)):
        out.append("a space holds two dwarfs")
    return out


class CavernaDraft:
    """Caverna for 1 to 7 players (draft: not registered)."""

    name = "caverna"
    min_players = MIN_PLAYERS
    max_players = MAX_PLAYERS
    state_type = CavernaState

    def new(
        self, players: int, seed: int, options: Mapping[str, Any] | None = None
    ) -> CavernaState:
        return new_game(players, seed)

    def pending(self, state: CavernaState) -> list[Prompt]:
        return pending(state)

    def apply(self, state: CavernaState, seat: int, key: str) -> list[Event]:
        events: list[Event] = []
        apply_key(state, seat, key, events)
        state.actions += 1
        advance(state, events)
        return events

    def view(self, state: CavernaState, seat: int | None) -> dict[str, Any]:
        data = state.model_dump(mode="json", exclude={"cards", "markers", "rng"})
        data["cards_left"] = len(state.cards)
        data["markers_left"] = len(state.markers)
        return data

    def summary(self, state: CavernaState) -> Summary:
        return Summary(
            round=state.round, phase=state.phase,
            deciding=tuple(sorted({p.seat for p in pending(state)})),
            scores=tuple(sum(scores(state, s).values()) for s in range(state.n)),
        )

    def next_turn(self, state: CavernaState, seat: int) -> int | None:
        """Not promised yet: an action can close the last space another seat could use,
        or end the work phase, so the next seat is only known once it comes."""
        return None

    def secrets(self, state: CavernaState, seat: int | None) -> list[Any]:
        hidden: list[Any] = [state.rng.model_dump()]
        if len(state.cards) > 1:
            hidden.append(list(state.cards.values()))
        if len(state.markers) > 1 and len(set(state.markers.values())) > 1:
            hidden.append(list(state.markers.values()))
        return hidden

    def result(self, state: CavernaState) -> Result | None:
        if state.phase != "over":
            return None
        sheet = []
        for seat in range(state.n):
            parts = scores(state, seat)
            sheet.append(SeatScore(seat=seat, total=sum(parts.values()), breakdown=parts))
        return Result(scores=sheet, winners=winners([s.total for s in sheet]),
                      reason=state.end_reason or "last_round")

    def heuristic(self, state: CavernaState, seat: int) -> float:
        return float(sum(scores(state, seat).values()))

    def invariants(self, state: CavernaState) -> list[str]:
        return problems(state)

    def dump(self, state: CavernaState) -> str:
        return state.model_dump_json()

    def load(self, data: str | bytes) -> CavernaState:
        return CavernaState.model_validate_json(data)


CAVERNA_DRAFT = CavernaDraft()
