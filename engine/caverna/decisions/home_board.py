"""The home board: laying tiles (``lay:<tile>:<where>``, or first ``at:<x,y>``),
furnishing (``tile:<id>`` then ``at:<x,y>``, and ``ore:<bill>`` with the Builder),
sowing (``sow:<grain>:<vegetable>``), fences (``small:<x,y>`` / ``large:<x,y+x,y>``,
``done``) and stables (``stable:<x,y>``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.caverna.board import key as pos_key
from engine.caverna.board import pos_of
from engine.caverna.components import components
from engine.caverna.decisions.options import DONE, opt
from engine.caverna.decisions.payment import pay_then
from engine.caverna.feeding import can_pay, pay
from engine.caverna.landscape import Placement, lay, placements, ruby_mine_on_deep_tunnel
from engine.caverna.pastures import (
    build_stable,
    fence,
    parse_pasture_key,
    pasture_key,
    stable_spots,
)
from engine.caverna.receiving import receive, settle_animals
from engine.caverna.sowing import sow
from engine.caverna.spaces import (
    arg_int,
    empty_fields,
    fence_choices,
    fence_cost,
    furnish_bills,
    furnish_choices,
    furnish_cost,
    stable_cost,
    tile_spots,
)
from engine.caverna.state import BoardStep, CavernaState, Player
from engine.caverna.tile_effects import replaced_by_ore
from engine.core.errors import IllegalMove
from engine.core.keys import parse_number
from engine.core.prompts import BACK, Event, Label, Option
from engine.core.steps import StepRules


def board_options(state: CavernaState, step: BoardStep) -> list[Option]:
    """The options of a home-board step."""
    player = state.players[step.seat]
    board = player.board
    args = step.args
    what = step.what
    opts: list[Option] = []
    if what in ("twin", "single", "ruby_mine"):
        first = args.get("first")
        for spot, found in _by_spot(_lay_choices(state, step)).items():
            if first is not None and spot != first:
                continue
            if first is None and len(found) > 1:
                # Several ways to lay the tile from this square: its square first, then
                # (a second step) which way the tile points.
                opts.append(opt(f"at:{spot}", "lay_at", at=spot, ways=len(found)))
            else:
                opts += [opt(f"lay:{tile}:{p.key}", "lay", tile=tile, at=p.key)
                         for tile, p in found]
        if first is not None or "ruby" in args:
            opts.append(BACK)
    elif what == "furnish":
        chosen = args.get("tile")
        if chosen is None:
            scope = str(args["scope"])
            opts = [opt(f"tile:{t}", "tile", tile=t, cost=furnish_cost(player, t, scope),
                         group=furnish_group(t))
                    for t in _by_group(furnish_choices(state, step.seat, scope))]
        elif "at" not in args:
            opts = [opt(f"at:{pos_key(p)}", "at", tile=chosen, at=pos_key(p))
                    for p in tile_spots(state, step.seat, str(chosen))]
            opts.append(BACK)
        else:
            opts = [opt(f"ore:{_ore_key(bill, v)}", "pay_ore", tile=chosen, bill=v)
                    for bill, v in _ore_bills(player, step)]
            opts.append(BACK)
    elif what == "sow":
        opts = [opt(f"sow:{g}:{v}", "sow", grain=g, vegetable=v) for g, v in _sowings(state, step)]
    elif what == "fences":
        opts = [opt(f"{size}:{pasture_key(spot)}", "fence", size=size, at=pasture_key(spot),
                     cost=fence_cost(player, step, size))
                for size, spot in fence_choices(player, step)]
        if args.get("built"):
            opts.append(DONE)
    elif what == "stable" and can_pay(player, stable_cost(player, step)):
        opts = [opt(f"stable:{pos_key(p)}", "stable", at=pos_key(p),
                     cost=stable_cost(player, step))
                for p in stable_spots(board)]
    return opts


def _lay_choices(state: CavernaState, step: BoardStep) -> list[tuple[str, Placement]]:
    board = state.players[step.seat].board
    return [(t, p) for t, base in _tiles_of(step) for p in placements(board, t, base)]


def _first(placement: Placement) -> str:
    """The square of a placement's first half: where a tile is said to be laid."""
    return pos_key(placement.cells[0][0])


def _by_spot(choices: list[tuple[str, Placement]]) -> dict[str, list[tuple[str, Placement]]]:
    """The legal placements grouped by the square of their first half, in board order."""
    out: dict[str, list[tuple[str, Placement]]] = {}
    for tile, placement in choices:
        out.setdefault(_first(placement), []).append((tile, placement))
    return out


FURNISH_GROUPS: tuple[str, ...] = ("dwelling", "green", "yellow")


def furnish_group(tile_id: str) -> str:
    """The option group of a furnishing tile: dwellings, green or yellow tiles."""
    kind = components().furnishings[tile_id].kind
    return kind if kind in FURNISH_GROUPS else "green"


def _by_group(tiles: list[str]) -> list[str]:
    """``tiles`` with the dwellings first, then the green, then the yellow tiles (supply
    order within each), so the buttons keep the order of the groups they are shown in."""
    return sorted(tiles, key=lambda t: FURNISH_GROUPS.index(furnish_group(t)))


def _tiles_of(step: BoardStep) -> list[tuple[str, str | None]]:
    args = step.args
    if step.what == "twin":
        kinds = args["kinds"]
        return [(str(k), None) for k in (kinds if isinstance(kinds, list) else [kinds])]
    if step.what == "single":
        return [(str(args["tile"]), None)]
    return [("ruby_mine", str(args["onto"]))]


def _sowings(state: CavernaState, step: BoardStep) -> list[tuple[int, int]]:
    player = state.players[step.seat]
    fields = len(empty_fields(player))
    out = []
    for g in range(3):
        for v in range(3):
            if 0 < g + v <= fields and can_pay(player, {"grain": g, "vegetable": v}):
                out.append((g, v))
    return out


def _apply_board(state: CavernaState, step: BoardStep, key: str, events: list[Event]) -> None:
    seat = step.seat
    player = state.players[seat]
    board = player.board
    head, _, arg = key.partition(":")
    what = step.what
    if key == "back":
        for name in ("first", "at", "tile") if what != "single" else ("first",):
            if name in step.args:
                del step.args[name]
                return
        if "ruby" in step.args:
            state.pop(seat)
            return
        raise IllegalMove("unknown_option", key=key)
    if what in ("twin", "single", "ruby_mine") and head == "at":
        found = _by_spot(_lay_choices(state, step)).get(arg, [])
        if "first" in step.args or len(found) < 2:
            raise IllegalMove("tile_not_here", key=key)
        step.args["first"] = arg
        return
    if what in ("twin", "single", "ruby_mine") and head == "lay":
        tile, _, where = arg.partition(":")
        for t, base in _tiles_of(step):
            if t != tile:
                continue
            for placement in placements(board, tile, base):
                if placement.key == where:
                    state.pop(seat)
                    rubies = arg_int(step, "ruby")
                    player.goods["ruby"] -= rubies
                    deep = ruby_mine_on_deep_tunnel(board, placement)
                    gained = lay(board, placement)
                    events.append(Event("tile_laid", seat, {"tile": tile, "at": where,
                                                            "rubies": rubies, "deep": deep}))
                    receive(state, seat, gained, events)
                    settle_animals(state, seat, events)
                    return
        raise IllegalMove("tile_not_here", key=key)
    if what == "furnish":
        _apply_furnish(state, step, head, arg, events)
        return
    if what == "sow" and head == "sow":
        g_text, _, v_text = arg.partition(":")
        g, v = parse_number(g_text), parse_number(v_text)
        if g is None or v is None or (g, v) not in _sowings(state, step):
            raise IllegalMove("cannot_sow", key=key)
        state.pop(seat)
        sow(state, seat, g, v, events)
        return
    if what == "fences":
        if key == "done" and step.args.get("built"):
            state.pop(seat)
            return
        spot = parse_pasture_key(arg)
        if spot is None or (head, spot) not in fence_choices(player, step):
            raise IllegalMove("pasture_not_here", key=key)
        cost = fence_cost(player, step, head)
        pay(player, cost, {})
        kind = fence(board, spot)
        built = step.args.get("built")
        step.args["built"] = [*(built if isinstance(built, list) else []), head]
        step.args["discounted"] = 1
        events.append(Event("fenced", seat, {"pasture": kind, "at": arg, "cost": cost}))
        if not fence_choices(player, step):
            state.pop(seat)
        settle_animals(state, seat, events)
        return
    if what == "stable" and head == "stable":
        pos = pos_of(arg)
        if pos is None or pos not in stable_spots(board) or not can_pay(
            player, stable_cost(player, step)
        ):
            raise IllegalMove("stable_not_here", key=key)
        state.pop(seat)
        cost = stable_cost(player, step)
        pay(player, cost, {})
        build_stable(board, pos)
        events.append(Event("stable_built", seat, {"at": arg, "cost": cost}))
        settle_animals(state, seat, events)
        return
    raise IllegalMove("unknown_option", key=key)


def _apply_furnish(state: CavernaState, step: BoardStep, head: str, arg: str,
                   events: list[Event]) -> None:
    seat = step.seat
    scope = str(step.args["scope"])
    chosen = step.args.get("tile")
    if chosen is None:
        if head != "tile" or arg not in furnish_choices(state, seat, scope):
            raise IllegalMove("cannot_furnish", tile=arg)
        spots = tile_spots(state, seat, arg)
        if len(spots) > 1:
            step.args["tile"] = arg
            return
        chosen, pos = arg, spots[0]
    elif "at" not in step.args:
        found = pos_of(arg) if head == "at" else None
        if found is None or found not in tile_spots(state, seat, str(chosen)):
            raise IllegalMove("cannot_furnish_here", at=arg)
        pos = found
    else:
        pos = pos_of(str(step.args["at"])) or (0, 0)
        bill = next((v for b, v in _ore_bills(state.players[seat], step)
                     if head == "ore" and _ore_key(b, v) == arg), None)
        if bill is None:
            raise IllegalMove("unknown_option", key=f"{head}:{arg}")
        state.pop(seat)
        pay_then(state, seat, bill, f"furnish:{chosen}@{pos_key(pos)}", events)
        return
    tile_id = str(chosen)
    bills = furnish_bills(state.players[seat], tile_id, scope)
    if len(bills) > 1:
        # The Builder: which goods ore stands in for is the player's choice.
        step.args["tile"], step.args["at"] = tile_id, pos_key(pos)
        return
    state.pop(seat)
    pay_then(state, seat, bills[0], f"furnish:{tile_id}@{pos_key(pos)}", events)


def _ore_bills(player: Player, step: BoardStep) -> list[tuple[dict[str, int], dict[str, int]]]:
    """(the tile's cost, a payable bill) for each way the Builder allows."""
    tile_id, scope = str(step.args["tile"]), str(step.args["scope"])
    cost = furnish_cost(player, tile_id, scope)
    return [(cost, bill) for bill in furnish_bills(player, tile_id, scope)]


def _ore_key(cost: Mapping[str, int], bill: Mapping[str, int]) -> str:
    """``none``, ``wood``, ``stone`` or ``wood+stone``: what ore stands in for."""
    return "+".join(replaced_by_ore(cost, bill)) or "none"


def _board_label(state: CavernaState, step: BoardStep) -> Label:
    return Label("cav.prompt.board", {"what": step.what, **step.args})


STEPS: dict[str, StepRules[CavernaState, Any]] = {
    "board": StepRules(board_options, _apply_board, _board_label),
}
