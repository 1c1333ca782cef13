"""Laying a tile: a twin tile, a single tile or a ruby mine. ``lay:<tile>:<where>``
(``"2,3+1,3"`` for a twin), or first ``at:<x,y>`` (the square of the tile's first half,
when the tile can be laid from there in several ways) then ``lay:``; ``back`` leaves
that square, or a single tile bought with rubies."""

from __future__ import annotations

from typing import Any

from engine.caverna.copying import copy_model
from engine.caverna.decisions.options import back_to, board_label, opt
from engine.caverna.landscape import Placement, lay, placements, ruby_mine_on_deep_tunnel
from engine.caverna.listing import was_listed
from engine.caverna.receiving import receive, settle_animals
from engine.caverna.state import CavernaState, RubyMineStep, SingleTileStep, TwinTileStep
from engine.core.errors import IllegalMove
from engine.core.prompts import BACK, Event, Option
from engine.core.steps import StepRules

TileStep = TwinTileStep | SingleTileStep | RubyMineStep


def _tiles_of(step: TileStep) -> list[tuple[str, str | None]]:
    """The tiles the step may lay, each with the tile it must go onto (if any)."""
    if isinstance(step, TwinTileStep):
        return [(k, None) for k in step.args.kinds]
    if isinstance(step, SingleTileStep):
        return [(step.args.tile, None)]
    return [("ruby_mine", step.args.onto)]


def _bought(step: TileStep) -> bool:
    """Was the tile bought with rubies (so the step may be left with ``back``)?"""
    return isinstance(step, SingleTileStep) and step.args.ruby is not None


def _rubies(step: TileStep) -> int:
    """Rubies the tile costs (a single tile bought with rubies)."""
    if isinstance(step, SingleTileStep) and step.args.ruby is not None:
        return step.args.ruby
    return 0


def _lay_choices(state: CavernaState, step: TileStep) -> list[tuple[str, Placement]]:
    board = state.players[step.seat].board
    return [(t, p) for t, base in _tiles_of(step) for p in placements(board, t, base)]


def _first(placement: Placement) -> str:
    """The square of a placement's first half: where a tile is said to be laid (its
    key's first part)."""
    return placement.key.partition("+")[0]


def _by_spot(choices: list[tuple[str, Placement]]) -> dict[str, list[tuple[str, Placement]]]:
    """The legal placements grouped by the square of their first half, in board order."""
    out: dict[str, list[tuple[str, Placement]]] = {}
    for tile, placement in choices:
        out.setdefault(_first(placement), []).append((tile, placement))
    return out


def _options(state: CavernaState, step: TileStep) -> list[Option]:
    first = step.args.first
    if first is not None:
        # The step back returns to the squares (when they leave a choice).
        squares = copy_model(step)
        squares.args.first = None
        return [*_lay_options(state, step), *back_to(_options(state, squares))]
    # A tile bought with rubies may be given up: the trades are still a choice.
    return [*_lay_options(state, step), *([BACK] if _bought(step) else [])]


def _lay_options(state: CavernaState, step: TileStep) -> list[Option]:
    """The squares (or, once a square is chosen, the ways from it) to lay the tile."""
    first = step.args.first
    opts: list[Option] = []
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
    return opts


def _apply(state: CavernaState, step: TileStep, key: str, events: list[Event]) -> None:
    seat = step.seat
    head, _, arg = key.partition(":")
    if key == BACK.key:
        if not was_listed(state, step, key) and BACK not in _options(state, step):
            raise IllegalMove("unknown_option", key=key)
        if step.args.first is not None:
            step.args.first = None
        else:
            state.pop(seat)
        return
    if head == "at":
        found = _by_spot(_lay_choices(state, step)).get(arg, [])
        if step.args.first is not None or len(found) < 2:
            raise IllegalMove("tile_not_here", key=key)
        step.args.first = arg
        return
    if head != "lay":
        raise IllegalMove("unknown_option", key=key)
    player = state.players[seat]
    board = player.board
    tile, _, where = arg.partition(":")
    for t, base in _tiles_of(step):
        if t != tile:
            continue
        for placement in placements(board, tile, base):
            if placement.key == where:
                state.pop(seat)
                rubies = _rubies(step)
                player.goods["ruby"] -= rubies
                deep = ruby_mine_on_deep_tunnel(board, placement)
                gained = lay(board, placement)
                events.append(Event("tile_laid", seat, {"tile": tile, "at": where,
                                                        "rubies": rubies, "deep": deep}))
                receive(state, seat, gained, events)
                settle_animals(state, seat, events)
                return
    raise IllegalMove("tile_not_here", key=key)


BOARD_STEPS: dict[str, StepRules[CavernaState, Any]] = {
    what: StepRules(_options, _apply, board_label) for what in ("twin", "single", "ruby_mine")
}
