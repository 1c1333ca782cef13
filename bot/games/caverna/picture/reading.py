"""Reading the engine's Caverna view (``engine.caverna.view``) defensively.

The picture must never fail on a view it half understands: every read here gives a
plain default (0, an empty list, None) for a missing or malformed value. Squares, columns and
rows are named as the texts name them (``bot.games.caverna.describe``: columns ``A``–``F``
west to east, rows ``1``–``4`` north to south, ``D2`` for the engine's ``"3,1"``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

# Square naming and the engine's scalars are read the way the texts read them; named
# ``as`` themselves so the picture modules can keep importing them from here.
from bot.games.caverna.describe import as_int as as_int
from bot.games.caverna.describe import column_name as column_name
from bot.games.caverna.describe import parse_square as parse_square
from bot.games.caverna.describe import row_name as row_name

Pos = tuple[int, int]


def entries(data: Mapping[str, Any] | Any, name: str) -> list[Mapping[str, Any]]:
    """The mappings listed under ``name`` (others skipped)."""
    found = data.get(name) if isinstance(data, Mapping) else None
    if not isinstance(found, list):
        return []
    return [e for e in found if isinstance(e, Mapping)]


def mapping(data: Mapping[str, Any] | Any, name: str) -> Mapping[str, Any]:
    """The mapping under ``name`` (empty if absent or not a mapping)."""
    found = data.get(name) if isinstance(data, Mapping) else None
    return found if isinstance(found, Mapping) else {}


def counts(data: Mapping[str, Any] | Any) -> dict[str, int]:
    """A ``{name: count}`` mapping with the positive counts only, in the view's order
    (``describe.counts`` puts them in the order a text lists them instead)."""
    if not isinstance(data, Mapping):
        return {}
    return {str(k): as_int(v) for k, v in data.items() if as_int(v) > 0}


def player(view: Mapping[str, Any], seat: int) -> Mapping[str, Any]:
    """The view's entry for ``seat`` (empty if missing)."""
    for p in entries(view, "players"):
        if as_int(p.get("seat"), -1) == seat:
            return p
    return {}


def seats(view: Mapping[str, Any]) -> list[int]:
    """The seats of the game, in order."""
    return [as_int(p.get("seat"), i) for i, p in enumerate(entries(view, "players"))]


def board_squares(p: Mapping[str, Any]) -> dict[Pos, Mapping[str, Any]]:
    """A player's home-board squares by position."""
    out: dict[Pos, Mapping[str, Any]] = {}
    for s in entries(mapping(p, "board"), "spaces"):
        x, y = s.get("x"), s.get("y")
        if isinstance(x, int) and isinstance(y, int):
            out[(x, y)] = s
    return out


def animals_by_square(p: Mapping[str, Any]) -> dict[Pos, dict[str, int]]:
    """Where the engine keeps a player's animals: each holder's animals on the square
    it names (a large pasture's on its first square)."""
    out: dict[Pos, dict[str, int]] = {}
    held = mapping(mapping(p, "housing"), "held")
    for holder, animals in held.items():
        pos = parse_square(str(holder).split("+")[0])
        if pos is None:
            continue
        here = out.setdefault(pos, {})
        for kind, n in counts(animals).items():
            here[kind] = here.get(kind, 0) + n
    return out


def focus_seat(view: Mapping[str, Any], prompt_seat: int | None) -> int:
    """Whose home board is drawn large: the prompt's seat, else the viewer, else the
    seat acting or to place."""
    known = seats(view)
    for candidate in (prompt_seat, view.get("seat"), view.get("acting"), view.get("turn")):
        if isinstance(candidate, int) and candidate in known:
            return candidate
    return known[0] if known else 0
