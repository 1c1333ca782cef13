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
from engine.core import variants
from engine.core.errors import IllegalMove

FURNISHINGS = "furnishings"
OFFICIAL = "official"
BEGINNER = "beginner"

# The game's variants, declared once: the bot offers them from here.
VARIANTS: tuple[variants.Variant, ...] = (
    variants.Variant(FURNISHINGS, (OFFICIAL, BEGINNER), unofficial=frozenset({BEGINNER})),
)
# Each option and its values, the default first (read off the declaration above).
OPTIONS: dict[str, tuple[str, ...]] = {v.name: v.values for v in VARIANTS}
# Values that are not rules of the published game (for texts that must say so).
UNOFFICIAL: dict[str, frozenset[str]] = {v.name: v.unofficial for v in VARIANTS}


def defaults() -> dict[str, str]:
    """Every option at its default."""
    return variants.defaults(VARIANTS)


def read_options(options: Mapping[str, Any] | None) -> dict[str, str]:
    """``options`` checked and completed with defaults (every option named)."""
    try:
        return variants.read_variants(VARIANTS, options)
    except variants.UnknownVariant as unknown:
        raise IllegalMove("bad_option", option=unknown.name, value=unknown.value) from None


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
