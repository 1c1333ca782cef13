"""Colours and sizes of the Caverna picture.

Sizes are pixels of the finished picture, chosen for a phone: the page is ``WIDTH``
pixels wide and no text is smaller than ``MIN_TEXT``, so a preview shrunk to 600 pixels
still shows letters of about 11 pixels. Colours are RGB; the seven player colours are
far apart from each other and from the greens and browns of the boards.
"""

from __future__ import annotations

from collections.abc import Mapping

from bot.render.palette import RGB, Box, Palette, on_color

__all__ = ["PALETTE", "RGB", "Box", "ink_on", "player_color"]  # and every colour, by name

# ------------------------------------------------------------------------- sizes

WIDTH = 960
MARGIN = 16
GAP = 14
HEADER_H = 58
TITLE_H = 34  # a section's title line
EDGE = 30  # the bands around a home board where its columns and rows are named
CELL = 124  # a home-board square of the large board, at most
MINI_CELL = 36  # a square of the small boards beside other players' summaries
MIN_TEXT = 18  # the smallest letters anywhere on the page
TEXT = 20
BIG_TEXT = 24
ICON = 22  # a good's or an animal's icon
SPACE_COLUMNS = 6  # action spaces per row
SPACE_H = 100  # three lines of a name above the goods line
SUPPLY_COLUMNS = 6
SUPPLY_H = 84
TRACK_H = 80  # the harvest track's boxes
STATUS_W = 130  # the column of goods beside the large home board

# ------------------------------------------------------------------------ colours

# The colours are data: palette.yaml beside this module, over the paper and ink every
# picture shares (bot/render/palette.yaml). A colour is a module constant through
# __getattr__ below (``from ...style import INK``).
PALETTE = Palette(__package__ or "bot.games.caverna.picture")
TILE_COLORS: Mapping[str, RGB] = PALETTE.tables["TILE_COLORS"]
GOOD_COLORS: Mapping[str, RGB] = PALETTE.tables["GOOD_COLORS"]
ANIMAL_COLORS: Mapping[str, RGB] = PALETTE.tables["ANIMAL_COLORS"]
HARVEST_COLORS: Mapping[str, RGB] = PALETTE.tables["HARVEST_COLORS"]
MARKER_COLORS: Mapping[str, RGB] = PALETTE.tables["MARKER_COLORS"]
KIND_COLORS: Mapping[str, RGB] = PALETTE.tables["KIND_COLORS"]
# Dark tiles take light letters.
DARK_TILES = frozenset({"ore_mine", "ruby_mine"})
PLAYER_COLORS: tuple[RGB, ...] = PALETTE.seats


def player_color(seat: int) -> RGB:
    """The colour of a seat (colours repeat past the seventh seat)."""
    return PALETTE.seat(seat)


def ink_on(color: RGB) -> RGB:
    """Readable letters on ``color``: ink on light colours, white on dark ones."""
    return on_color(color, PALETTE.color("INK"), PALETTE.color("WHITE"), 140)


def __getattr__(name: str) -> RGB:
    """The palette's colour ``name`` as a module constant (AttributeError if none)."""
    return PALETTE.color(name)
