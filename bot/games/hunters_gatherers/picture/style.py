"""Colours, sizes and drawing basics shared by the Hunters and Gatherers picture modules.

Sizes are in pixels of the finished picture; colours are RGB. Player colours avoid the
greens and blues of the map and lie far apart from each other.
"""

from __future__ import annotations

from collections.abc import Mapping

from bot.render.labels import PictureWords
from bot.render.palette import RGB, Box, Draw, Palette, Pt, on_color
from bot.render.text import Font

__all__ = ["PALETTE", "RGB", "WORDS", "Box", "Draw", "Pt", "draw_text", "label",
           "outline_for", "player_color"]  # and every colour, by name

# The picture's words: ``hg.picture.*`` in the game's texts.<lang>.yaml.
WORDS = PictureWords("hg")
label = WORDS.label

# ------------------------------------------------------------------------- sizes

MARGIN = 16
GAP = 12
EDGE = 34  # the band on each side of the map where its squares are named (A…, 1…)
EDGE_FONT = 20  # the size of those names, at most (smaller when cells are small)
HEADER_H = 58
MIN_WIDTH = 980
MAP_MAX = 1300  # the map's longest side aims at this many pixels...
MIN_CELL = 60  # ...with cells never smaller than this (unless the map is absurd)
MAX_CELL = 130
HARD_MAP_MAX = 3200  # beyond this the cells shrink below MIN_CELL after all
SUPERSAMPLE = 2
STRIP_TILE = 112  # the tile to place, in each rotation
STRIP_GAP = 22
FOCUS_TILE = 224  # the tile just laid, large, while its figure is chosen
PANEL_TOP = 72  # the tile panel's title and hint take this much above the tiles
PLAYER_ROW_H = 44
MIN_PLAYERS_W = 560  # narrower than this, the players go under the tile to place
LEGEND_ROW_H = 34

# ------------------------------------------------------------------------ colours

# The colours are data: palette.yaml beside this module, over the paper and ink every
# picture shares (bot/render/palette.yaml). A colour is a module constant through
# __getattr__ below (``from ...style import INK``).
PALETTE = Palette(__package__ or "bot.games.hunters_gatherers.picture")
ANIMAL_COLORS: Mapping[str, RGB] = PALETTE.tables["ANIMAL_COLORS"]
PLAYER_COLORS: tuple[RGB, ...] = PALETTE.seats

FIGURE_KINDS = ("gatherer", "fisher", "hunter", "hut")
ROTATION_LABELS = ("0°", "90°", "180°", "270°")


def player_color(seat: int) -> RGB:
    """The colour of a seat (colours repeat past the fifth seat)."""
    return PALETTE.seat(seat)


def outline_for(color: RGB) -> RGB:
    """White around dark colours, ink around light ones."""
    return on_color(color, PALETTE.color("INK"), PALETTE.color("WHITE"), 150)


def draw_text(d: Draw, xy: Pt, text: str, fnt: Font, fill: RGB, anchor: str = "la") -> float:
    """Write ``text`` at ``xy``; its width in pixels."""
    d.text(xy, text, font=fnt, fill=fill, anchor=anchor)
    return fnt.getlength(text)


def __getattr__(name: str) -> RGB:
    """The palette's colour ``name`` as a module constant (AttributeError if none)."""
    return PALETTE.color(name)
