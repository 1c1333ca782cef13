"""What rubies buy at any time: a good (cattle also cost 1 food), or a single tile."""

from __future__ import annotations

from engine.caverna.components import components
from engine.caverna.landscape import can_place
from engine.caverna.state import CavernaState


def ruby_goods(state: CavernaState, seat: int) -> list[str]:
    """Goods one ruby buys for ``seat`` now (cattle also cost 1 food)."""
    player = state.players[seat]
    if player.goods["ruby"] < 1:
        return []
    tables = components().tables
    goods = list(tables.ruby_buys)
    if player.goods["food"] >= tables.ruby_cattle.get("food", 0):
        goods.append("cattle")
    return goods


def ruby_tiles(state: CavernaState, seat: int) -> list[str]:
    """Single tiles ``seat`` could buy with rubies and lay now."""
    player = state.players[seat]
    return [
        t for t, cost in components().tables.ruby_tiles.items()
        if player.goods["ruby"] >= cost and can_place(player.board, t)
    ]
