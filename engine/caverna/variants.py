"""Caverna's declared game options (variants), read once at setup and kept in the state.

``furnishings``
    ``official`` (default): all 48 furnishing tile kinds of the rulebook.
    ``beginner``: only the 27 kinds Board Game Arena offers in its "beginner" option
    (``bga_beginner`` in ``data/furnishings.yaml``). NOT an official rule: no introductory
    or reduced tile set was found in the rulebook or any publisher source; the set is
    Board Game Arena's own choice, offered for players who know it from there.

An option left out takes its default; an unknown option or value is refused
(``IllegalMove("bad_option")``), so a typo never silently plays the official game.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.caverna.components import components
from engine.core.errors import IllegalMove

FURNISHINGS = "furnishings"
OFFICIAL = "official"
BEGINNER = "beginner"

# Each option and its values, the default first.
OPTIONS: dict[str, tuple[str, ...]] = {FURNISHINGS: (OFFICIAL, BEGINNER)}
# Values that are not rules of the published game (for texts that must say so).
UNOFFICIAL: dict[str, frozenset[str]] = {FURNISHINGS: frozenset({BEGINNER})}


def defaults() -> dict[str, str]:
    """Every option at its default."""
    return {name: values[0] for name, values in OPTIONS.items()}


def read_options(options: Mapping[str, Any] | None) -> dict[str, str]:
    """``options`` checked and completed with defaults (every option named)."""
    chosen = defaults()
    for name, value in (options or {}).items():
        values = OPTIONS.get(name)
        if values is None or str(value) not in values:
            raise IllegalMove("bad_option", option=str(name), value=str(value))
        chosen[name] = str(value)
    return chosen


def furnishing_kinds(options: Mapping[str, str]) -> list[str]:
    """The furnishing tile kinds in the game, in the data's (supply board) order."""
    tiles = components().furnishings
    if options.get(FURNISHINGS, OFFICIAL) == BEGINNER:
        return [t for t, tile in tiles.items() if tile.bga_beginner]
    return list(tiles)


def in_play(options: Mapping[str, str], tile_id: str) -> bool:
    """Is the furnishing kind ``tile_id`` part of this game's supply?"""
    if options.get(FURNISHINGS, OFFICIAL) != BEGINNER:
        return True
    tile = components().furnishings.get(tile_id)
    return tile is not None and tile.bga_beginner
