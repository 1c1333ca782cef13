"""Furnishing a cavern: ``tile:<id>`` (options grouped dwelling / green / yellow by their
label's ``group``), then ``at:<x,y>`` when the tile fits in several caverns, then with
the Builder ``ore:<bill>`` (which goods ore stands in for); ``back`` steps out of the
last choice made."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.caverna.board import key as pos_key
from engine.caverna.board import pos_of
from engine.caverna.components import components
from engine.caverna.copying import copy_model
from engine.caverna.decisions.options import back_to, board_label, opt
from engine.caverna.decisions.payment import pay_then
from engine.caverna.listing import was_listed
from engine.caverna.spaces import furnish_bills, furnish_choices, furnish_cost, tile_spots
from engine.caverna.state import CavernaState, FurnishStep, Player
from engine.caverna.tile_effects import replaced_by_ore
from engine.core.errors import IllegalMove
from engine.core.prompts import BACK, Event, Option
from engine.core.steps import StepRules

FURNISH_GROUPS: tuple[str, ...] = ("dwelling", "green", "yellow")


def furnish_group(tile_id: str) -> str:
    """The option group of a furnishing tile: dwellings, green or yellow tiles."""
    kind = components().furnishings[tile_id].kind
    return kind if kind in FURNISH_GROUPS else "green"


def _by_group(tiles: list[str]) -> list[str]:
    """``tiles`` with the dwellings first, then the green, then the yellow tiles (supply
    order within each), so the buttons keep the order of the groups they are shown in."""
    return sorted(tiles, key=lambda t: FURNISH_GROUPS.index(furnish_group(t)))


def _ore_bills(player: Player, step: FurnishStep) -> list[tuple[dict[str, int], dict[str, int]]]:
    """(the tile's cost, a payable bill) for each way the Builder allows."""
    tile_id, scope = str(step.args.tile), step.args.scope
    cost = furnish_cost(player, tile_id, scope)
    return [(cost, bill) for bill in furnish_bills(player, tile_id, scope)]


def _ore_key(cost: Mapping[str, int], bill: Mapping[str, int]) -> str:
    """``none``, ``wood``, ``stone`` or ``wood+stone``: what ore stands in for."""
    return "+".join(replaced_by_ore(cost, bill)) or "none"


def _options(state: CavernaState, step: FurnishStep) -> list[Option]:
    player = state.players[step.seat]
    chosen = step.args.tile
    if chosen is None:
        scope = step.args.scope
        return [opt(f"tile:{t}", "tile", tile=t, cost=furnish_cost(player, t, scope),
                    group=furnish_group(t))
                for t in _by_group(furnish_choices(state, step.seat, scope))]
    if step.args.at is None:
        opts = [opt(f"at:{pos_key(p)}", "at", tile=chosen, at=pos_key(p))
                for p in tile_spots(state, step.seat, chosen)]
    else:
        opts = [opt(f"ore:{_ore_key(bill, v)}", "pay_ore", tile=chosen, bill=v)
                for bill, v in _ore_bills(player, step)]
    return [*opts, *back_to(_options(state, _stepped_back(state, step)))]


def _stepped_back(state: CavernaState, step: FurnishStep) -> FurnishStep:
    """``step`` as it was before its last choice: the square asked only when the tile
    fits in several caverns, else the tile."""
    back = copy_model(step)
    tile = step.args.tile
    if step.args.at is not None and tile is not None and len(
        tile_spots(state, step.seat, tile)
    ) > 1:
        back.args.at = None
    else:
        back.args.tile = back.args.at = None
    return back


def _apply(state: CavernaState, step: FurnishStep, key: str, events: list[Event]) -> None:
    listed = was_listed(state, step, key)
    if key == BACK.key:
        if step.args.tile is None or (not listed and BACK not in _options(state, step)):
            raise IllegalMove("unknown_option", key=key)
        step.args = _stepped_back(state, step).args
        return
    head, _, arg = key.partition(":")
    seat = step.seat
    scope = step.args.scope
    chosen = step.args.tile
    if chosen is None:
        if head != "tile" or (not listed and arg not in furnish_choices(state, seat, scope)):
            raise IllegalMove("cannot_furnish", tile=arg)
        spots = tile_spots(state, seat, arg)
        if len(spots) > 1:
            step.args.tile = arg
            return
        chosen, pos = arg, spots[0]
    elif step.args.at is None:
        found = pos_of(arg) if head == "at" else None
        if found is None or found not in tile_spots(state, seat, chosen):
            raise IllegalMove("cannot_furnish_here", at=arg)
        pos = found
    else:
        pos = pos_of(step.args.at) or (0, 0)
        bill = next((v for b, v in _ore_bills(state.players[seat], step)
                     if head == "ore" and _ore_key(b, v) == arg), None)
        if bill is None:
            raise IllegalMove("unknown_option", key=f"{head}:{arg}")
        state.pop(seat)
        pay_then(state, seat, bill, f"furnish:{chosen}@{pos_key(pos)}", events)
        return
    bills = furnish_bills(state.players[seat], chosen, scope)
    if len(bills) > 1:
        # The Builder: which goods ore stands in for is the player's choice.
        step.args.tile, step.args.at = chosen, pos_key(pos)
        return
    state.pop(seat)
    pay_then(state, seat, bills[0], f"furnish:{chosen}@{pos_key(pos)}", events)


BOARD_STEPS: dict[str, StepRules[CavernaState, Any]] = {
    "furnish": StepRules(_options, _apply, board_label),
}
