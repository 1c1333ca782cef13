"""Trades allowed at any time besides rubies: the furnishings' conversions and the
Peaceful cave's weapons for food; whether any trade is open; the last trades before
scoring."""

from __future__ import annotations

from collections.abc import Mapping

from engine.caverna.components import components
from engine.caverna.receiving import receive
from engine.caverna.rubies import ruby_goods, ruby_tiles
from engine.caverna.state import CavernaState, ExchangeStep
from engine.caverna.tile_effects import has
from engine.core.prompts import Event


def swaps(state: CavernaState, seat: int) -> list[tuple[str, int]]:
    """The furnishings' conversions ``seat`` can afford now: (tile, choice index)."""
    player = state.players[seat]
    if not has(player, "convert"):
        return []  # asked on every work turn: most boards have no such tile
    tiles = components().furnishings
    out = []
    for tile_id in player.board.furnishings:
        tile = tiles.get(tile_id)
        effect = tile.effect("convert") if tile else None
        if effect is None or not _has(player.goods, player.animals, effect.goods("give")):
            continue
        choices = effect.params.get("get_one_of") or [effect.goods("get")]
        out += [(tile_id, i) for i in range(len(choices))]
    return out


def _has(goods: Mapping[str, int], animals: Mapping[str, int], bill: Mapping[str, int]) -> bool:
    return all((animals if g in animals else goods).get(g, 0) >= n for g, n in bill.items())


def swap(state: CavernaState, seat: int, tile_id: str, index: int, events: list[Event]) -> None:
    """Carry out a furnishing's conversion (already checked by ``swaps``)."""
    player = state.players[seat]
    effect = components().furnishings[tile_id].effect("convert")
    assert effect is not None
    give = effect.goods("give")
    choices = effect.params.get("get_one_of") or [effect.goods("get")]
    get = dict(choices[index])
    for good, n in give.items():
        if good in player.animals:
            player.animals[good] -= n
        else:
            player.goods[good] -= n
    events.append(Event("swapped", seat, {"tile": tile_id, "give": give, "get": get}))
    receive(state, seat, get, events)


def disarmable(state: CavernaState, seat: int) -> list[int]:
    """Dwarfs whose weapon the Peaceful cave would turn into food."""
    if not has(state.players[seat], "weapon_to_food"):
        return []
    return [i for i, d in enumerate(state.players[seat].dwarfs) if d.weapon]


def disarm(state: CavernaState, seat: int, dwarf: int, events: list[Event]) -> None:
    """The dwarf gives up its weapon for as much food as it was strong."""
    player = state.players[seat]
    strength = player.dwarfs[dwarf].weapon
    player.dwarfs[dwarf].weapon = 0
    player.goods["food"] += strength
    events.append(Event("disarmed", seat, {"dwarf": dwarf, "food": strength}))


def can_exchange(state: CavernaState, seat: int) -> bool:
    """Is any any-time trade open to ``seat``?"""
    return bool(
        ruby_goods(state, seat) or ruby_tiles(state, seat) or swaps(state, seat)
        or disarmable(state, seat)
    )


def offer_final_trades(state: CavernaState) -> None:
    """After the last harvest: each seat that could still trade may do so."""
    for seat in range(state.n):
        if can_exchange(state, seat):
            state.push(ExchangeStep(seat=seat, final=True))
