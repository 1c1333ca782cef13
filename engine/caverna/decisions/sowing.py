"""Sowing: how many grain and vegetable fields (``sow:<grain>:<vegetable>``)."""

from __future__ import annotations

from typing import Any

from engine.caverna.decisions.options import board_label, opt
from engine.caverna.feeding import can_pay
from engine.caverna.sowing import sow
from engine.caverna.spaces import empty_fields
from engine.caverna.state import CavernaState, SowStep
from engine.core.errors import IllegalMove
from engine.core.keys import parse_number
from engine.core.prompts import Event, Option
from engine.core.steps import StepRules


def _sowings(state: CavernaState, step: SowStep) -> list[tuple[int, int]]:
    """(grain, vegetable) fields the player can sow: at least one, at most two of each."""
    player = state.players[step.seat]
    fields = len(empty_fields(player))
    out = []
    for g in range(3):
        for v in range(3):
            if 0 < g + v <= fields and can_pay(player, {"grain": g, "vegetable": v}):
                out.append((g, v))
    return out


def _options(state: CavernaState, step: SowStep) -> list[Option]:
    return [opt(f"sow:{g}:{v}", "sow", grain=g, vegetable=v) for g, v in _sowings(state, step)]


def _apply(state: CavernaState, step: SowStep, key: str, events: list[Event]) -> None:
    head, _, arg = key.partition(":")
    if head != "sow":
        raise IllegalMove("unknown_option", key=key)
    g_text, _, v_text = arg.partition(":")
    g, v = parse_number(g_text), parse_number(v_text)
    if g is None or v is None or (g, v) not in _sowings(state, step):
        raise IllegalMove("cannot_sow", key=key)
    state.pop(step.seat)
    sow(state, step.seat, g, v, events)


BOARD_STEPS: dict[str, StepRules[CavernaState, Any]] = {
    "sow": StepRules(_options, _apply, board_label),
}
