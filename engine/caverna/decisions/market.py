"""The weekly market: ``buy:<good>`` (at most one of each), ``done``."""

from __future__ import annotations

from typing import Any

from engine.caverna.components import components
from engine.caverna.decisions.options import DONE, kind_label, opt
from engine.caverna.feeding import can_pay, pay
from engine.caverna.receiving import receive
from engine.caverna.state import CavernaState, MarketStep
from engine.core.errors import IllegalMove
from engine.core.prompts import Event, Option
from engine.core.steps import StepRules


def _market_goods(state: CavernaState, step: MarketStep) -> list[str]:
    player = state.players[step.seat]
    return [
        g for g, price in components().market_prices.items()
        if g not in step.bought and can_pay(player, {"gold": price})
    ]


def _market_options(state: CavernaState, step: MarketStep) -> list[Option]:
    prices = components().market_prices
    opts = [opt(f"buy:{g}", "buy", good=g, gold=prices[g]) for g in _market_goods(state, step)]
    return [*opts, DONE]


def _apply_market(state: CavernaState, step: MarketStep, key: str, events: list[Event]) -> None:
    if key == "done":
        state.pop(step.seat)
        return
    head, _, good = key.partition(":")
    if head != "buy" or good not in _market_goods(state, step):
        raise IllegalMove("cannot_buy", key=key)
    step.bought.append(good)
    price = components().market_prices[good]
    pay(state.players[step.seat], {"gold": price}, {})
    events.append(Event("bought", step.seat, {"good": good, "gold": price}))
    receive(state, step.seat, {good: 1}, events)


STEPS: dict[str, StepRules[CavernaState, Any]] = {
    "market": StepRules(_market_options, _apply_market, kind_label),
}
