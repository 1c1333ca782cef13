"""Family growth: a new dwarf, if a dwelling has room for it.

The entry-level dwelling houses 2 dwarfs; each dwelling tile adds its room (the Couple
dwelling 2, the others 1). A family has at most 5 dwarfs; the Additional dwelling is
the only way to a 6th, and its room serves only that 6th dwarf. One growth per action.
The newborn does not work this round and eats 1 food in this round's harvest.
"""

from __future__ import annotations

from engine.caverna.board import HomeBoard
from engine.caverna.components import components
from engine.caverna.state import CavernaState, Dwarf, Player
from engine.core.prompts import Event


def _sixth_only(tile_id: str) -> bool:
    tile = components().furnishings.get(tile_id)
    room_effect = tile.effect("room") if tile else None
    return bool(room_effect and room_effect.params.get("sixth_only"))


def room(player: Player) -> int:
    """Dwarfs the dwellings house (a place only a 6th dwarf may use not counted)."""
    return player.board.derived(_room)


def _room(board: HomeBoard) -> int:
    """:func:`room` of a board (kept by it until edited: asked on every work turn)."""
    tiles = components().furnishings
    total = components().tables.home_board.entry_dwelling.dwarfs
    for tile_id in board.furnished():
        tile = tiles.get(tile_id)
        if tile is not None and not _sixth_only(tile_id):
            total += tile.dwarf_room
    return total


def max_dwarfs(player: Player) -> int:
    """5, or 6 with a tile whose room serves a 6th dwarf (the Additional dwelling)."""
    setup = components().tables.setup
    extended = any(_sixth_only(t) for t in player.board.furnished())
    return setup.max_dwarfs_extended if extended else setup.max_dwarfs


def can_grow(player: Player) -> bool:
    """Is there room (and may the family grow) for one more dwarf?"""
    count = len(player.dwarfs)
    if count < components().tables.setup.max_dwarfs:
        return count < room(player)
    return count < max_dwarfs(player)


def grow(state: CavernaState, seat: int, events: list[Event]) -> None:
    """A newborn joins the family."""
    player = state.players[seat]
    assert can_grow(player)
    player.dwarfs.append(Dwarf(born=True))
    events.append(Event("family_grew", seat, {"dwarfs": len(player.dwarfs)}))
