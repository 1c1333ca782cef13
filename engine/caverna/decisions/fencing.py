"""Fencing pastures: ``small:<x,y>`` / ``large:<x,y+x,y>``, each size at most once;
``done`` once one is built."""

from __future__ import annotations

from typing import Any

from engine.caverna.decisions.options import DONE, board_label, opt
from engine.caverna.feeding import pay
from engine.caverna.pastures import fence, parse_pasture_key, pasture_key
from engine.caverna.receiving import settle_animals
from engine.caverna.spaces import fence_choices, fence_cost
from engine.caverna.state import CavernaState, FenceStep
from engine.core.errors import IllegalMove
from engine.core.prompts import Event, Option
from engine.core.steps import StepRules


def _options(state: CavernaState, step: FenceStep) -> list[Option]:
    player = state.players[step.seat]
    opts = [opt(f"{size}:{pasture_key(spot)}", "fence", size=size, at=pasture_key(spot),
                cost=fence_cost(player, step, size))
            for size, spot in fence_choices(player, step)]
    if step.args.built:
        opts.append(DONE)
    return opts


def _apply(state: CavernaState, step: FenceStep, key: str, events: list[Event]) -> None:
    seat = step.seat
    player = state.players[seat]
    if key == "back":
        raise IllegalMove("unknown_option", key=key)
    if key == "done" and step.args.built:
        state.pop(seat)
        return
    head, _, arg = key.partition(":")
    spot = parse_pasture_key(arg)
    if spot is None or (head, spot) not in fence_choices(player, step):
        raise IllegalMove("pasture_not_here", key=key)
    cost = fence_cost(player, step, head)
    pay(player, cost, {})
    kind = fence(player.board, spot)
    step.args.built = [*(step.args.built or []), head]
    step.args.discounted = 1
    events.append(Event("fenced", seat, {"pasture": kind, "at": arg, "cost": cost}))
    if not fence_choices(player, step):
        state.pop(seat)
    settle_animals(state, seat, events)


BOARD_STEPS: dict[str, StepRules[CavernaState, Any]] = {
    "fences": StepRules(_options, _apply, board_label),
}
