"""Receiving goods: animals join the home board (the engine arranges them; what cannot
stay is turned into food, and when the room allows different sets the player says which
to keep), and furnishings that react to a gain (the Seam, the Dog school) add theirs."""

from __future__ import annotations

from collections.abc import Mapping

from engine.caverna.animals import house, keep_options
from engine.caverna.components import ANIMALS, FARM_ANIMALS, Effect, components
from engine.caverna.feeding import convert
from engine.caverna.state import CavernaState, OverflowStep
from engine.caverna.tile_effects import gain_bonus
from engine.core.prompts import Event


def receive(
    state: CavernaState, seat: int, goods: Mapping[str, int], events: list[Event],
    triggers: bool = True,
) -> None:
    """``seat`` gets ``goods`` (animals go onto the home board)."""
    player = state.players[seat]
    got = {g: n for g, n in goods.items() if n > 0}
    if not got:
        return
    for good, amount in got.items():
        if good in ANIMALS:
            player.animals[good] += amount
        else:
            player.goods[good] += amount
    events.append(Event("gained", seat, {"goods": got}))
    if triggers:
        receive(state, seat, gain_bonus(player, got), events, triggers=False)
    if any(g in FARM_ANIMALS for g in got):
        settle_animals(state, seat, events)


def furnishing_effects(state: CavernaState, seat: int, key: str) -> list[Effect]:
    """Effects with ``key`` of ``seat``'s furnishings."""
    tiles = components().furnishings
    out: list[Effect] = []
    for tile_id in state.players[seat].board.furnishings:
        tile = tiles.get(tile_id)
        if tile is None:
            continue
        out += [e for e in tile.effects if e.key == key]
    return out


def settle_animals(state: CavernaState, seat: int, events: list[Event]) -> None:
    """After animals arrived: if they do not all fit, turn the surplus into food, or ask
    which to keep when the room allows different sets."""
    player = state.players[seat]
    options = keep_options(player.board, player.animals, len(player.dwarfs))
    farm = {k: player.animals[k] for k in FARM_ANIMALS}
    if len(options) == 1:
        if options[0] != farm:
            keep_animals(state, seat, options[0], events)
        return
    top = state.top(seat)
    if not isinstance(top, OverflowStep):
        state.push(OverflowStep(seat=seat))


def keep_animals(
    state: CavernaState, seat: int, keep: Mapping[str, int], events: list[Event]
) -> None:
    """Keep ``keep`` and turn the other farm animals into food."""
    player = state.players[seat]
    surplus = {k: player.animals[k] - keep.get(k, 0) for k in FARM_ANIMALS}
    surplus = {k: n for k, n in surplus.items() if n > 0}
    if surplus:
        food = convert(player, surplus)
        events.append(Event("animals_eaten", seat, {"animals": surplus, "food": food}))


def holdings_after_house(state: CavernaState, seat: int) -> dict[str, dict[str, int]]:
    """Where the engine keeps ``seat``'s animals (for views and furnishings)."""
    player = state.players[seat]
    return house(player.board, player.animals, len(player.dwarfs)).held
