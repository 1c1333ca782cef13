"""Trades at any time: a good or a single tile for rubies (``buy:<good>``,
``tile:<id>``), a furnishing's conversion (``swap:<tile>:<i>``), a weapon for food
(``disarm:<dwarf>``); ``back`` (``done`` for the final trades)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.caverna.anytime_trades import can_exchange, disarm, disarmable, swap, swaps
from engine.caverna.components import components
from engine.caverna.copying import copy_for_seat
from engine.caverna.decisions.options import DONE, kind_label, opt
from engine.caverna.feeding import can_pay
from engine.caverna.listing import was_listed
from engine.caverna.receiving import receive
from engine.caverna.rubies import ruby_goods, ruby_tiles
from engine.caverna.state import CavernaState, ExchangeStep, PayStep, SingleArgs, SingleTileStep
from engine.core.errors import IllegalMove
from engine.core.keys import parse_number
from engine.core.prompts import BACK, Event, Option
from engine.core.steps import StepRules

# Leaving the trades once one was made keeps it: a real choice (trade again or stop),
# not a step back, so a single trade left is never made without asking. Before any
# trade, leaving only steps back (and an autopilot, which takes no step back, trades
# rather than opening and leaving the trades for ever). Both read "back", with one key.
LEAVE = Option(BACK.key, BACK.label)


def _trades(state: CavernaState, seat: int) -> list[Option]:
    """Every any-time trade open to ``seat``."""
    opts = [opt(f"buy:{g}", "ruby_buy", good=g) for g in ruby_goods(state, seat)]
    costs = components().tables.ruby_tiles
    opts += [opt(f"tile:{t}", "ruby_tile", tile=t, rubies=costs[t])
             for t in ruby_tiles(state, seat)]
    opts += [opt(f"swap:{t}:{i}", "swap", tile=t, choice=i) for t, i in swaps(state, seat)]
    dwarfs = state.players[seat].dwarfs
    opts += [opt(f"disarm:{d}", "disarm", dwarf=d, food=dwarfs[d].weapon)
             for d in disarmable(state, seat)]
    return opts


def safe_trades(state: CavernaState, seat: int, bill: Mapping[str, int]) -> list[Option]:
    """The trades that leave ``bill`` payable (each tried on a copy of the seat's part,
    ``copy_for_seat``), during a payment. A single tile bought with rubies is left out:
    it is laid later and its rubies might be the ones the bill needs."""
    out = []
    for option in _trades(state, seat):
        if option.key.startswith("tile:"):
            continue
        trial = copy_for_seat(state, seat)
        _trade(trial, ExchangeStep(seat=seat), option.key, [])
        if can_pay(trial.players[seat], bill):
            out.append(option)
    return out


def _paying(state: CavernaState, step: ExchangeStep) -> PayStep | None:
    """The payment an exchange was opened from, if any (it lies right below)."""
    stack = state.stacks.get(step.seat, [])
    below = stack[-2] if len(stack) > 1 and stack[-1] is step else None
    return below if isinstance(below, PayStep) else None


def _exchange_options(state: CavernaState, step: ExchangeStep) -> list[Option]:
    paying = _paying(state, step)
    opts = (_trades(state, step.seat) if paying is None
            else safe_trades(state, step.seat, paying.bill))
    return [*opts, DONE if step.final else LEAVE if step.traded else BACK]


def _apply_exchange(state: CavernaState, step: ExchangeStep, key: str,
                    events: list[Event]) -> None:
    seat = step.seat
    if key == (DONE if step.final else BACK).key:
        state.pop(seat)
        return
    paying = _paying(state, step)
    if paying is not None and not was_listed(state, step, key) and key not in {
            o.key for o in safe_trades(state, seat, paying.bill)}:
        raise IllegalMove("unknown_option", key=key)
    _trade(state, step, key, events)
    step.traded = True


def _trade(state: CavernaState, step: ExchangeStep, key: str, events: list[Event]) -> None:
    """Carry out the any-time trade ``key``."""
    seat = step.seat
    head, _, arg = key.partition(":")
    player = state.players[seat]
    if head == "buy" and arg in ruby_goods(state, seat):
        player.goods["ruby"] -= 1
        if arg == "cattle":
            player.goods["food"] -= components().tables.ruby_cattle.get("food", 0)
        events.append(Event("ruby_spent", seat, {"good": arg}))
        receive(state, seat, {arg: 1}, events)
    elif head == "tile" and arg in ruby_tiles(state, seat):
        cost = components().tables.ruby_tiles[arg]
        state.push(SingleTileStep(seat=seat, args=SingleArgs(tile=arg, ruby=cost)))
    elif head == "swap":
        tile_id, _, text = arg.partition(":")
        index = parse_number(text)
        if index is None or (tile_id, index) not in swaps(state, seat):
            raise IllegalMove("cannot_swap", key=key)
        swap(state, seat, tile_id, index, events)
    elif head == "disarm":
        dwarf = parse_number(arg)
        if dwarf is None or dwarf not in disarmable(state, seat):
            raise IllegalMove("cannot_disarm", key=key)
        disarm(state, seat, dwarf, events)
    else:
        raise IllegalMove("unknown_option", key=key)


def open_exchange(state: CavernaState, seat: int) -> None:
    """Open the any-time trades for ``seat`` (refused when none is open)."""
    if not can_exchange(state, seat):
        raise IllegalMove("nothing_to_exchange")
    state.push(ExchangeStep(seat=seat))


STEPS: dict[str, StepRules[CavernaState, Any]] = {
    "exchange": StepRules(_exchange_options, _apply_exchange, kind_label),
}
