"""Building a stable: where (``stable:<x,y>``)."""

from __future__ import annotations

from typing import Any

from engine.caverna.board import key as pos_key
from engine.caverna.board import pos_of
from engine.caverna.decisions.options import board_label, opt
from engine.caverna.feeding import can_pay, pay
from engine.caverna.pastures import build_stable, stable_spots
from engine.caverna.receiving import settle_animals
from engine.caverna.spaces import stable_cost
from engine.caverna.state import CavernaState, StableStep
from engine.core.errors import IllegalMove
from engine.core.prompts import Event, Option
from engine.core.steps import StepRules


def _options(state: CavernaState, step: StableStep) -> list[Option]:
    player = state.players[step.seat]
    cost = stable_cost(player, step)
    if not can_pay(player, cost):
        return []
    return [opt(f"stable:{pos_key(p)}", "stable", at=pos_key(p), cost=cost)
            for p in stable_spots(player.board)]


def _apply(state: CavernaState, step: StableStep, key: str, events: list[Event]) -> None:
    seat = step.seat
    player = state.players[seat]
    head, _, arg = key.partition(":")
    if head != "stable":
        raise IllegalMove("unknown_option", key=key)
    pos = pos_of(arg)
    cost = stable_cost(player, step)
    if pos is None or pos not in stable_spots(player.board) or not can_pay(player, cost):
        raise IllegalMove("stable_not_here", key=key)
    state.pop(seat)
    pay(player, cost, {})
    build_stable(player.board, pos)
    events.append(Event("stable_built", seat, {"at": arg, "cost": cost}))
    settle_animals(state, seat, events)


BOARD_STEPS: dict[str, StepRules[CavernaState, Any]] = {
    "stable": StepRules(_options, _apply, board_label),
}
