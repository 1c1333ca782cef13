"""The harvest: skipping the field phase or the breeding (``skip:field``, ``skip:breed``),
and feeding: ``cover:<conversion>``, ``conv:<kind>``, ``work:<good>`` (the Working
cave), ``exchange``, ``beg``."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from engine.caverna.anytime_trades import can_exchange
from engine.caverna.components import components
from engine.caverna.decisions.exchanges import open_exchange
from engine.caverna.decisions.options import (
    FEW_WAYS,
    conversion_opt,
    convert_opt,
    kind_label,
    opt,
)
from engine.caverna.feeding import (
    beg,
    convert,
    convertible_kinds,
    covers,
    decode,
    encode,
    holdings,
    one_step,
    slaughter_bonus,
    working_cave_cost,
    working_cave_options,
)
from engine.caverna.listing import was_listed
from engine.caverna.state import CavernaState, FeedStep, HarvestStep, SkipStep
from engine.core.errors import IllegalMove
from engine.core.prompts import Event, Label, Option, one_per_label
from engine.core.steps import StepRules


def _skip_options(state: CavernaState, step: SkipStep) -> list[Option]:
    return [opt("skip:field", "skip", stage="field"), opt("skip:breed", "skip", stage="breed")]


def _apply_skip(state: CavernaState, step: SkipStep, key: str, events: list[Event]) -> None:
    stage = {"skip:field": "field", "skip:breed": "breed"}.get(key)
    if stage is None:
        raise IllegalMove("unknown_option", key=key)
    state.pop(step.seat)
    harvest = state.top(step.seat)
    assert isinstance(harvest, HarvestStep)
    harvest.stages.remove(stage)
    events.append(Event("skipped", step.seat, {"stage": stage}))


def _per_dwarf(state: CavernaState, step: FeedStep) -> int:
    """Food one dwarf eats in this feeding (from the harvest under the feeding step)."""
    stack = state.stacks[step.seat]
    harvest = stack[-2] if len(stack) > 1 else None
    if isinstance(harvest, HarvestStep):
        return harvest.feed_per_dwarf
    return components().tables.harvest.food_per_dwarf


def _working_cave(state: CavernaState, step: FeedStep) -> list[str]:
    if step.substituted or step.need <= 0:
        return []
    return working_cave_options(state.players[step.seat])


def _feed_options(state: CavernaState, step: FeedStep) -> list[Option]:
    player = state.players[step.seat]
    food = player.goods["food"]
    short = step.need - food
    opts = list(_feeding_ways(tuple(holdings(player).items()), short, slaughter_bonus(player)))
    opts += [opt(f"work:{g}", "working_cave", good=g, cost=working_cave_cost(player, g))
             for g in _working_cave(state, step)]
    if can_exchange(state, step.seat):
        opts.append(opt("exchange", "exchange"))
    opts.append(opt("beg", "beg", food=food, markers=short))
    return opts


@lru_cache(maxsize=4096)
def _feeding_ways(have: tuple[tuple[str, int], ...], short: int, bonus: int
                  ) -> tuple[Option, ...]:
    """The cheapest covers of ``short`` food out of ``have`` (``bonus``: extra food per
    farm animal), then one step of each kind: a pure function of them, so made once for
    each and shared (options and labels are frozen, and nothing changes a label's
    arguments)."""
    goods = dict(have)
    ways = [conversion_opt(f"cover:{encode(c)}", c, bonus)
            for c in covers(goods, short, bonus, limit=FEW_WAYS)]
    # A step of one kind that is a whole way too ("1 grain → 1 food") is that option.
    return tuple(one_per_label(
        [*ways, *(convert_opt(goods, k, short, bonus) for k in convertible_kinds(goods))]))


def _apply_feed(state: CavernaState, step: FeedStep, key: str, events: list[Event]) -> None:
    player = state.players[step.seat]
    head, _, arg = key.partition(":")
    if not was_listed(state, step, key) and key not in {
            o.key for o in _feed_options(state, step)}:
        # Listed keys only: a step of one kind that is also a whole way is offered once.
        raise IllegalMove("unknown_option", key=key)
    if key == "beg":
        state.pop(step.seat)
        beg(state, step.seat, step.need, events)
    elif key == "exchange":
        open_exchange(state, step.seat)
    elif head == "cover":
        conv = decode(arg)
        assert conv is not None  # a listed key
        food = convert(player, conv)
        events.append(Event("converted", step.seat, {"goods": conv, "food": food}))
    elif head == "conv":
        short = step.need - player.goods["food"]
        count = one_step(holdings(player), arg, short)
        food = convert(player, {arg: count})
        events.append(Event("converted", step.seat, {"kind": arg, "count": count, "food": food}))
    elif head == "work":
        player.goods[arg] -= working_cave_cost(player, arg)
        step.need = max(0, step.need - _per_dwarf(state, step))
        step.substituted = True
        events.append(Event("fed_with", step.seat, {"good": arg}))
    else:
        raise IllegalMove("unknown_option", key=key)


def _feed_label(state: CavernaState, step: FeedStep) -> Label:
    return Label("cav.prompt.feed",
                 {"need": step.need, "food": state.players[step.seat].goods["food"]})


STEPS: dict[str, StepRules[CavernaState, Any]] = {
    "skip": StepRules(_skip_options, _apply_skip, kind_label),
    "feed": StepRules(_feed_options, _apply_feed, _feed_label),
}
