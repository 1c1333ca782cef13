"""Reading the engine's view for the picture, defensively.

The picture must never cost a player their game: a view that went through JSON, came
from an older engine or is malformed is read with defaults instead of failing.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from bot.games.hunters_gatherers.picture.style import label
from bot.render.text import safe_text
from engine.hunters_gatherers.tiles import all_tiles


def as_int(value: Any, default: int = 0) -> int:
    """``value`` as an integer, or ``default`` when it is none."""
    try:
        return int(value)
    except (TypeError, ValueError):
        return default


def entries(view: Mapping[str, Any], key: str) -> list[Mapping[str, Any]]:
    """The dict entries of a list in the view (a missing or malformed list: none)."""
    items = view.get(key)
    if not isinstance(items, list | tuple):
        return []
    return [item for item in items if isinstance(item, Mapping)]


def known(tile_id: Any) -> bool:
    """Whether ``tile_id`` names a tile of the game."""
    return isinstance(tile_id, str) and tile_id in all_tiles()


def placed_now(view: Mapping[str, Any]) -> Mapping[str, Any] | None:
    """The tile laid this turn: in the figure step the engine lists it last in ``tiles``."""
    tiles = entries(view, "tiles")
    if view.get("step") != "figure" or not tiles or not known(tiles[-1].get("tile")):
        return None
    return tiles[-1]


def current_tile(view: Mapping[str, Any]) -> str | None:
    """The id of the tile in hand, if the view has a known one."""
    current = view.get("current")
    if not isinstance(current, Mapping) or not known(current.get("tile")):
        return None
    return str(current["tile"])


def seat_name(names: Sequence[str], seat: int, lang: str) -> str:
    """The seat's display name; a placeholder when missing or nothing drawable."""
    raw = names[seat] if 0 <= seat < len(names) and isinstance(names[seat], str) else ""
    return raw if safe_text(raw) else label("player", lang, seat + 1)
