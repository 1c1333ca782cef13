"""What a furnishing tile does once it is laid: goods at once, goods per animal or per
neighbouring dwelling, goods put on future rounds."""

from __future__ import annotations

from engine.caverna.board import ENTRY_DWELLING
from engine.caverna.board import key as pos_key
from engine.caverna.components import components
from engine.caverna.receiving import receive
from engine.caverna.state import CavernaState
from engine.core.prompts import Event


def furnished(
    state: CavernaState, seat: int, tile_id: str, pos: tuple[int, int], events: list[Event]
) -> None:
    """What a furnishing tile does once it is laid: goods at once, goods per animal or
    per neighbouring dwelling, goods put on future rounds."""
    tile = components().furnishings[tile_id]
    player = state.players[seat]
    gained: dict[str, int] = {}
    for effect in tile.effects:
        if effect.key == "on_build":
            for g, n in effect.goods().items():
                gained[g] = gained.get(g, 0) + n
        elif effect.key == "on_build_per":
            count = _count_for(state, seat, str(effect.params.get("per")), pos)
            for g, n in effect.goods().items():
                gained[g] = gained.get(g, 0) + n * count
        elif effect.key == "future_income":
            later = [r for r in state.rounds if r > state.round]
            for r in later[: int(effect.params.get("rounds", 0))]:
                bucket = player.income.setdefault(r, {})
                for g, n in effect.goods().items():
                    bucket[g] = bucket.get(g, 0) + n
    receive(state, seat, gained, events)


def _count_for(state: CavernaState, seat: int, per: str, pos: tuple[int, int]) -> int:
    player = state.players[seat]
    if per in player.animals:
        return player.animals[per]
    if per == "adjacent_dwelling":
        tiles = components().furnishings
        count = 0
        for other in player.board.neighbours(pos):
            furnishing = player.board.at(other).furnishing
            if furnishing == ENTRY_DWELLING or (
                furnishing in tiles and tiles[furnishing].is_dwelling
            ):
                count += 1
        return count
    return 0


def furnish(state: CavernaState, seat: int, tile_id: str, pos: tuple[int, int],
            events: list[Event]) -> None:
    """Lay furnishing ``tile_id`` at ``pos`` (covering the one there) and carry out what
    it does once laid."""
    player = state.players[seat]
    below = player.board.at(pos).furnishing
    if below is not None:
        player.covered.append(below)  # overbuilt: its ability and points are gone
        events.append(Event("covered", seat, {"tile": below}))
    player.board.edit(pos).furnishing = tile_id
    events.append(Event("furnished", seat, {"tile": tile_id, "at": pos_key(pos)}))
    furnished(state, seat, tile_id, pos, events)
