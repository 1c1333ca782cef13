"""Colours of the Stone Age picture.

The colours are data: ``palette.yaml`` beside this module, over the paper and ink every
picture shares (``bot/render/palette.yaml``). A colour is a module constant through
``__getattr__`` (``from bot.games.stone_age.picture.style import INK``).
"""

from __future__ import annotations

from collections.abc import Mapping

from bot.render.palette import RGB, Palette

__all__ = ["GOOD_COLORS", "PALETTE", "player_color"]  # and every colour, by name

PALETTE = Palette(__package__ or "bot.games.stone_age.picture")
GOOD_COLORS: Mapping[str, RGB] = PALETTE.tables["GOOD_COLORS"]


def player_color(seat: int) -> RGB:
    """The colour of a seat's workers and board (colours repeat past the fourth seat)."""
    return PALETTE.seat(seat)


def __getattr__(name: str) -> RGB:
    """The palette's colour ``name`` as a module constant (AttributeError if none)."""
    return PALETTE.color(name)
