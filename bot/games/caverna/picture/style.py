"""Colours and sizes of the Caverna picture.

Sizes are pixels of the finished picture, chosen for a phone: the page is ``WIDTH``
pixels wide and no text is smaller than ``MIN_TEXT``, so a preview shrunk to 600 pixels
still shows letters of about 11 pixels. Colours are RGB; the seven player colours are
far apart from each other and from the greens and browns of the boards.
"""

from __future__ import annotations

from collections.abc import Mapping

RGB = tuple[int, int, int]
Box = tuple[int, int, int, int]

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
SPACE_H = 96
SUPPLY_COLUMNS = 6
SUPPLY_H = 84
TRACK_H = 80  # the harvest track's boxes
STATUS_W = 130  # the column of goods beside the large home board

# ------------------------------------------------------------------------ colours

BG: RGB = (238, 228, 208)
PANEL: RGB = (252, 247, 236)
INK: RGB = (38, 30, 24)
MUTED: RGB = (112, 98, 84)
BORDER: RGB = (148, 122, 96)
HEADER_BG: RGB = (70, 52, 40)
HEADER_INK: RGB = (252, 242, 222)
WHITE: RGB = (255, 255, 255)
HIGHLIGHT: RGB = (252, 228, 150)
MARK: RGB = (214, 30, 70)  # frames and numbers of what the open prompt offers
MARK_BG: RGB = (255, 255, 255)

FOREST: RGB = (58, 110, 58)  # bare forest
FOREST_DARK: RGB = (36, 80, 40)
ROCK: RGB = (128, 118, 110)  # bare mountain
ROCK_DARK: RGB = (96, 88, 82)
CLIFF: RGB = (60, 44, 36)

TILE_COLORS: Mapping[str, RGB] = {
    "meadow": (160, 208, 104),
    "field": (204, 164, 96),
    "small_pasture": (146, 200, 92),
    "large_pasture": (146, 200, 92),
    "cavern": (226, 190, 140),
    "tunnel": (196, 164, 126),
    "deep_tunnel": (164, 132, 104),
    "ore_mine": (92, 96, 112),
    "ruby_mine": (120, 70, 86),
}
# Dark tiles take light letters.
DARK_TILES = frozenset({"ore_mine", "ruby_mine"})
FENCE: RGB = (120, 72, 30)
FURROW: RGB = (170, 128, 70)
STABLE: RGB = (150, 60, 40)

GOOD_COLORS: Mapping[str, RGB] = {
    "wood": (150, 96, 48),
    "stone": (170, 170, 166),
    "ore": (70, 78, 96),
    "ruby": (210, 30, 60),
    "gold": (240, 196, 40),
    "food": (230, 120, 40),
    "grain": (236, 204, 90),
    "vegetable": (238, 128, 34),
}
ANIMAL_COLORS: Mapping[str, RGB] = {
    "sheep": (250, 250, 246),
    "donkey": (150, 146, 150),
    "wild_boar": (100, 62, 44),
    "cattle": (40, 36, 36),
    "dog": (208, 160, 96),
}

# Harvest track: what a round's harvest is.
HARVEST_COLORS: Mapping[str, RGB] = {
    "none": (220, 212, 196),
    "harvest": (160, 208, 104),
    "feed1": (246, 200, 120),
    "choice": (240, 150, 120),
    "face_down": (190, 182, 170),
}
MARKER_COLORS: Mapping[str, RGB] = {"green": (46, 150, 70), "red": (204, 40, 40)}

KIND_COLORS: Mapping[str, RGB] = {  # furnishing tiles: the colour of their name tag
    "dwelling": (236, 150, 60),
    "green": (110, 180, 90),
    "yellow": (240, 206, 70),
}

PLAYER_COLORS: tuple[RGB, ...] = (
    (214, 44, 48),
    (40, 104, 214),
    (248, 200, 24),
    (32, 150, 72),
    (146, 64, 200),
    (246, 128, 30),
    (34, 34, 40),
)


def player_color(seat: int) -> RGB:
    """The colour of a seat (colours repeat past the seventh seat)."""
    return PLAYER_COLORS[seat % len(PLAYER_COLORS)]


def ink_on(color: RGB) -> RGB:
    """Readable letters on ``color``: ink on light colours, white on dark ones."""
    r, g, b = color
    return INK if 0.3 * r + 0.59 * g + 0.11 * b > 140 else WHITE
