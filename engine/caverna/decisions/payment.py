"""Paying a bill when food must be converted: ``pay:<conversion>`` (the cheapest ways
first), ``conv:<kind>`` (one good at a time), ``exchange`` (trades that keep the bill
payable); then carrying on with what the payment was for."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.caverna.board import pos_of
from engine.caverna.decisions.exchanges import safe_trades
from engine.caverna.decisions.options import FEW_WAYS, convert_opt, opt
from engine.caverna.feeding import (
    convert,
    convertible_kinds,
    decode,
    encode,
    food_of,
    one_step,
    pay,
    slaughter_bonus,
    spare,
    ways_to_pay,
)
from engine.caverna.flow import open_action
from engine.caverna.furnishing import furnish
from engine.caverna.receiving import receive
from engine.caverna.state import CavernaState, ExchangeStep, PayStep, Player
from engine.core.errors import IllegalMove
from engine.core.prompts import Event, Label, Option
from engine.core.steps import StepRules


def pay_then(state: CavernaState, seat: int, bill: dict[str, int], then: str,
             events: list[Event]) -> None:
    """Pay ``bill``, asking how when food must be converted and there is a choice, then
    carry on."""
    ways = ways_to_pay(state.players[seat], bill)
    assert ways, f"unpayable bill {bill}"
    step = PayStep(seat=seat, bill=bill, then=then)
    if len(ways) == 1 and (ways == [{}] or len(_pay_options(state, step)) == 2):
        _paid(state, seat, bill, ways[0], then, events)
    else:
        state.push(step)


def _paid(state: CavernaState, seat: int, bill: dict[str, int], conversion: dict[str, int],
          then: str, events: list[Event]) -> None:
    player = state.players[seat]
    rubies = pay(player, bill, conversion)
    args: dict[str, Any] = {"bill": {g: n for g, n in bill.items() if n}, "for": then}
    if conversion:
        args["converted"] = dict(conversion)
    if rubies:
        args["rubies"] = rubies
    events.append(Event("paid", seat, args))
    _carry_on(state, seat, then, events)


def _carry_on(state: CavernaState, seat: int, then: str, events: list[Event]) -> None:
    """What a payment was for."""
    head, _, rest = then.partition(":")
    if head == "imitate":
        target, _, dwarf = rest.partition(":")
        open_action(state, seat, int(dwarf), target, imitated=True)
    elif head == "furnish":
        tile_id, _, where = rest.partition("@")
        pos = pos_of(where)
        assert pos is not None
        furnish(state, seat, tile_id, pos, events)
    elif head == "buy":
        receive(state, seat, {rest: 1}, events)
    else:
        raise AssertionError(then)


def _pay_kinds(player: Player, bill: Mapping[str, int]) -> list[str]:
    """Kinds that may be converted one step at a time towards ``bill`` (the custom
    way), while the food is still short."""
    if player.goods["food"] >= bill.get("food", 0):
        return []
    return convertible_kinds(spare(player, bill))


def _pay_options(state: CavernaState, step: PayStep) -> list[Option]:
    """The cheapest ways first (fewest points lost), then converting one kind at a time,
    then the any-time trades."""
    player = state.players[step.seat]
    opts = [opt(f"pay:{encode(c)}", "pay", bill=dict(step.bill), converted=c,
                food=food_of(player, c))
            for c in ways_to_pay(player, step.bill)[:FEW_WAYS]]
    short = step.bill.get("food", 0) - player.goods["food"]
    have = spare(player, step.bill)
    bonus = slaughter_bonus(player)
    opts += [convert_opt(have, k, short, bonus) for k in _pay_kinds(player, step.bill)]
    if safe_trades(state, step.seat, step.bill):
        opts.append(opt("exchange", "exchange"))
    return opts


def _apply_pay(state: CavernaState, step: PayStep, key: str, events: list[Event]) -> None:
    player = state.players[step.seat]
    head, _, arg = key.partition(":")
    if head == "conv" and arg in _pay_kinds(player, step.bill):
        short = step.bill.get("food", 0) - player.goods["food"]
        count = one_step(spare(player, step.bill), arg, short)
        food = convert(player, {arg: count})
        events.append(Event("converted", step.seat, {"kind": arg, "count": count, "food": food}))
        return
    if key == "exchange" and safe_trades(state, step.seat, step.bill):
        state.push(ExchangeStep(seat=step.seat))
        return
    conversion = ({} if arg == "" else decode(arg)) if head == "pay" else None
    if conversion is None or conversion not in ways_to_pay(player, step.bill)[:FEW_WAYS]:
        raise IllegalMove("unknown_option", key=key)
    state.pop(step.seat)
    _paid(state, step.seat, step.bill, conversion, step.then, events)


def _pay_label(state: CavernaState, step: PayStep) -> Label:
    return Label("cav.prompt.pay",
                 {"bill": dict(step.bill), "food": state.players[step.seat].goods["food"]})


STEPS: dict[str, StepRules[CavernaState, Any]] = {
    "pay": StepRules(_pay_options, _apply_pay, _pay_label),
}
