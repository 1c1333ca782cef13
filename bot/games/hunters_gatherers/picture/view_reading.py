"""What the picture asks of the view beyond its fields: which tiles it can draw.

The view model (``engine.hunters_gatherers.view``) is typed, so the picture reads its
fields as they are. Only a tile id the picture has no drawing for (a view of another
version of the tiles) is left out rather than failing: the picture must never cost a
player their game. Seat names come from the table, not the view, and any text may be
one.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.games.hunters_gatherers.picture.style import label
from bot.render.text import safe_text
from engine.hunters_gatherers.tiles import all_tiles
from engine.hunters_gatherers.view import HuntersGatherersView, MapTile, TileInHand


def known(tile_id: str) -> bool:
    """Whether ``tile_id`` names a tile of the game (one the picture can draw)."""
    return tile_id in all_tiles()


def placed_now(view: HuntersGatherersView) -> MapTile | None:
    """The tile laid this turn, while its figure is chosen, if the picture can draw it."""
    laid = view.laid_now
    return laid if laid is not None and known(laid.tile) else None


def tile_in_hand(view: HuntersGatherersView) -> TileInHand | None:
    """The tile in hand, if there is one the picture can draw."""
    current = view.current
    return current if current is not None and known(current.tile) else None


def seat_name(names: Sequence[str], seat: int, lang: str) -> str:
    """The seat's display name; a placeholder when missing or nothing drawable."""
    raw = names[seat] if 0 <= seat < len(names) and isinstance(names[seat], str) else ""
    return raw if safe_text(raw) else label("player", lang, seat + 1)
