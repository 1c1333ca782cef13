"""Colours, sizes and drawing basics shared by the Hunters and Gatherers picture modules.

Sizes are in pixels of the finished picture; colours are RGB. Player colours avoid the
greens and blues of the map and lie far apart from each other.
"""

from __future__ import annotations

from collections.abc import Mapping

from PIL import ImageDraw

from bot.render.labels import PictureWords
from bot.render.text import Font

# The picture's words: ``hg.picture.*`` in the game's texts.<lang>.yaml.
WORDS = PictureWords("hg")
label = WORDS.label

RGB = tuple[int, int, int]
Pt = tuple[float, float]
Box = tuple[int, int, int, int]
Draw = ImageDraw.ImageDraw

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

BG: RGB = (241, 232, 212)
PANEL: RGB = (255, 251, 242)
INK: RGB = (40, 31, 22)
MUTED: RGB = (122, 108, 90)
BORDER: RGB = (150, 120, 88)
HEADER_BG: RGB = (58, 70, 40)
HEADER_INK: RGB = (250, 244, 225)
WHITE: RGB = (255, 255, 255)
ACCENT: RGB = (236, 150, 30)
TURN_BG: RGB = (252, 232, 170)

MEADOW: RGB = (172, 212, 112)
MEADOW_DARK: RGB = (132, 170, 80)
FOREST: RGB = (42, 104, 52)
FOREST_DARK: RGB = (24, 70, 32)
CLEARING: RGB = (190, 222, 130)
RIVER: RGB = (58, 128, 216)
RIVER_DARK: RGB = (28, 74, 150)
LAKE: RGB = (70, 146, 230)
GRID: RGB = (96, 112, 64)
SPOT_BG: RGB = (255, 249, 232)
SPOT_EDGE: RGB = (226, 132, 20)
SPOT_IDLE: RGB = (226, 214, 190)  # a spot that is not the one being turned
CHOSEN: RGB = (204, 30, 60)  # the spot whose rotation is being chosen
MARK_BG: RGB = (255, 255, 255)  # a numbered mark on a piece of the tile just laid
MARK_EDGE: RGB = (204, 30, 60)
EMPTY_DOT: RGB = (214, 202, 178)

ANIMAL_COLORS: Mapping[str, RGB] = {
    "deer": (190, 132, 62),
    "mammoth": (118, 96, 84),
    "aurochs": (52, 40, 34),
    "tiger": (246, 140, 24),
}
GOLD: RGB = (246, 204, 40)
GOLD_DARK: RGB = (150, 112, 10)
MUSHROOM: RGB = (214, 46, 40)
FIRE: RGB = (240, 96, 24)
FIRE_CORE: RGB = (252, 214, 60)
STONE: RGB = (214, 210, 200)

PLAYER_COLORS: tuple[RGB, ...] = (
    (222, 40, 44),
    (250, 206, 28),
    (150, 68, 212),
    (34, 34, 40),
    (250, 250, 250),
)

FIGURE_KINDS = ("gatherer", "fisher", "hunter", "hut")
ROTATION_LABELS = ("0°", "90°", "180°", "270°")


def player_color(seat: int) -> RGB:
    """The colour of a seat (colours repeat past the fifth seat)."""
    return PLAYER_COLORS[seat % len(PLAYER_COLORS)]


def outline_for(color: RGB) -> RGB:
    """White around dark colours, ink around light ones."""
    r, g, b = color
    return INK if 0.3 * r + 0.59 * g + 0.11 * b > 150 else WHITE


def draw_text(d: Draw, xy: Pt, text: str, fnt: Font, fill: RGB, anchor: str = "la") -> float:
    """Write ``text`` at ``xy``; its width in pixels."""
    d.text(xy, text, font=fnt, fill=fill, anchor=anchor)
    return fnt.getlength(text)
