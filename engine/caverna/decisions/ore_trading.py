"""Ore trading: how many times to trade 2 ore for 2 gold and 1 food (``trade:<times>``)."""

from __future__ import annotations

from typing import Any

from engine.caverna.decisions.options import kind_label, opt
from engine.caverna.receiving import receive
from engine.caverna.state import CavernaState, TradeStep
from engine.core.errors import IllegalMove
from engine.core.keys import parse_number
from engine.core.prompts import Event, Option
from engine.core.steps import StepRules

TRADE_ORE = 2


TRADE_TIMES = 3


def _trade_times(state: CavernaState, step: TradeStep) -> list[int]:
    ore = state.players[step.seat].goods["ore"]
    return list(range(1, min(TRADE_TIMES, ore // TRADE_ORE) + 1))


def _trade_options(state: CavernaState, step: TradeStep) -> list[Option]:
    return [opt(f"trade:{k}", "trade", times=k) for k in _trade_times(state, step)]


def _apply_trade(state: CavernaState, step: TradeStep, key: str, events: list[Event]) -> None:
    head, _, arg = key.partition(":")
    times = parse_number(arg)
    if head != "trade" or times not in _trade_times(state, step):
        raise IllegalMove("cannot_trade", key=key)
    assert times is not None
    state.pop(step.seat)
    player = state.players[step.seat]
    player.goods["ore"] -= TRADE_ORE * times
    events.append(Event("traded", step.seat, {"times": times}))
    receive(state, step.seat, {"gold": 2 * times, "food": times}, events)


STEPS: dict[str, StepRules[CavernaState, Any]] = {
    "trade": StepRules(_trade_options, _apply_trade, kind_label),
}
