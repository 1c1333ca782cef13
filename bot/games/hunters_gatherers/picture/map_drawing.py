"""The map of the Hunters and Gatherers picture: its frame and everything drawn on it.

The map is cropped to the placed tiles and the offered spots, which are empty cells
marked with the name of their square (``CL90``): that is how a player picks a spot in a
chat. The names of the columns (letters, west to east) and rows (numbers, north to
south) stand along the map's four edges, as on a chess board; they are fixed for the
whole game by its naming scheme (``view.names``, ``engine.hunters_gatherers.coords``),
so a square keeps its name as the map grows, and the buttons, prompts and typed moves
use the same names. The cell size adapts
to the map (at most about 1300 px across, cells from 60 to 130 px) so that names and
figures stay readable at phone preview size even with the whole deck placed.

With a focus (see ``focus``) the map also shows what the buttons mean: while a spot
is chosen, each offered spot carries its button's number in its corner (the spot is
that option's tap target); while a rotation is chosen, the spot being turned is framed
and the other spots lose their names; while a figure is chosen, every piece of the
tile just laid that a button names carries that button's number.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass

from PIL import Image

from bot.games.hunters_gatherers.picture.focus import Focus, mark_points
from bot.games.hunters_gatherers.picture.icons import figure_icon, mark_badge
from bot.games.hunters_gatherers.picture.style import (
    CHOSEN,
    EDGE,
    EDGE_FONT,
    EMPTY_DOT,
    GRID,
    HARD_MAP_MAX,
    INK,
    MAP_MAX,
    MAX_CELL,
    MIN_CELL,
    MUTED,
    SPOT_BG,
    SPOT_EDGE,
    SPOT_IDLE,
    Draw,
    player_color,
)
from bot.games.hunters_gatherers.picture.tile_drawing import tile_image
from bot.games.hunters_gatherers.picture.tile_geometry import tile_layout
from bot.games.hunters_gatherers.picture.view_reading import known, placed_now
from bot.render.targets import Target, numbers_text, target
from bot.render.text import fitting_font, font
from engine.hunters_gatherers.coords import Naming
from engine.hunters_gatherers.view import HuntersGatherersView

Pos = tuple[int, int]


@dataclass(frozen=True, slots=True)
class MapFrame:
    """Where the map goes: the cell size and the grid position of its top-left cell."""

    cell: int
    min_x: int
    min_y: int
    cols: int
    rows: int

    @property
    def width(self) -> int:
        """Map width in pixels."""
        return self.cols * self.cell

    @property
    def height(self) -> int:
        """Map height in pixels."""
        return self.rows * self.cell


def map_frame(cells: Iterable[Pos]) -> MapFrame:
    """The crop and cell size for a map covering ``cells`` (the tiles and the spots)."""
    cells = list(cells) or [(0, 0)]
    min_x = min(x for x, _ in cells)
    min_y = min(y for _, y in cells)
    cols = max(x for x, _ in cells) - min_x + 1
    rows = max(y for _, y in cells) - min_y + 1
    longest = max(cols, rows)
    cell = max(MIN_CELL, min(MAX_CELL, MAP_MAX // longest))
    if cell * longest > HARD_MAP_MAX:
        cell = max(16, HARD_MAP_MAX // longest)
    return MapFrame(cell, min_x, min_y, cols, rows)


def map_cells(view: HuntersGatherersView) -> list[Pos]:
    """The cells the map must show: every known placed tile and every spot."""
    return [*((t.x, t.y) for t in view.tiles if known(t.tile)),
            *((s.x, s.y) for s in view.spots)]


def mark_radius(cell: float) -> float:
    """The radius of a numbered mark on a tile ``cell`` pixels across."""
    return max(8.0, cell * 0.12)


def spot_mark_radius(cell: float) -> float:
    """The radius of the number on a spot ``cell`` pixels across: larger than a piece's,
    since a spot's number may have two digits and nothing else shares its corner."""
    return max(12.0, cell * 0.17)


def draw_map(im: Image.Image, d: Draw, view: HuntersGatherersView, frame: MapFrame,
             left: int, top: int, lang: str, focus: Focus) -> list[Target]:
    """The grid, the placed tiles, the spots, the figures and the focus marks; the tap
    target of each spot ``focus`` numbers (the pieces of the tile just laid are the
    targets of the tile panel's large copy)."""
    cell = frame.cell

    def corner(x: int, y: int) -> tuple[int, int]:
        return (left + (x - frame.min_x) * cell, top + (y - frame.min_y) * cell)

    # Faint dots on the empty grid, so that positions can be told apart.
    dot = max(2, cell // 22)
    for gx in range(frame.cols + 1):
        for gy in range(frame.rows + 1):
            px, py = left + gx * cell, top + gy * cell
            d.ellipse((px - dot, py - dot, px + dot, py + dot), fill=EMPTY_DOT)

    placed: dict[Pos, tuple[str, int]] = {}
    for entry in view.tiles:
        if not known(entry.tile):
            continue
        pos, rotation = (entry.x, entry.y), entry.rotation % 4
        placed[pos] = (entry.tile, rotation)
        im.paste(tile_image(entry.tile, rotation, cell, lang), corner(*pos))
    line = max(1, cell // 60)
    for pos in placed:
        x, y = corner(*pos)
        d.rectangle((x, y, x + cell - 1, y + cell - 1), outline=GRID, width=line)
    # While a figure is being chosen, the tile just laid is framed.
    now = placed_now(view)
    if now is not None:
        x, y = corner(now.x, now.y)
        d.rectangle((x, y, x + cell - 1, y + cell - 1), outline=SPOT_EDGE,
                    width=max(3, cell // 20))

    targets = _draw_spots(d, view, placed, corner, cell, focus)
    draw_edges(d, frame, left, top, view.names)

    # Figures, on the anchor of their feature.
    size = min(42.0, max(14.0, cell * 0.34))
    for fig in view.figures:
        pos = (fig.x, fig.y)
        if pos not in placed:  # on no tile the picture drew
            continue
        layout = tile_layout(*placed[pos])
        ux, uy = layout.anchors.get((fig.feature, fig.index), (0.5, 0.5))
        x, y = corner(*pos)
        figure_icon(d, fig.kind, x + ux * cell, y + uy * cell,
                    size * (1.15 if fig.kind == "hut" else 1.0), player_color(fig.seat))

    # The numbered pieces of the tile just laid, over everything else.
    if focus.marking and now is not None:
        pos = (now.x, now.y)
        x, y = corner(*pos)
        layout = tile_layout(*placed[pos])
        r = mark_radius(cell)
        for mark, (ux, uy) in zip(focus.figures, mark_points(layout, focus.figures),
                                  strict=True):
            mark_badge(d, mark.number, x + ux * cell, y + uy * cell, r)
    return targets


def _draw_spots(d: Draw, view: HuntersGatherersView, placed: Mapping[Pos, tuple[str, int]],
                corner: Callable[[int, int], tuple[int, int]], cell: int,
                focus: Focus) -> list[Target]:
    """Spots: empty cells with their square's name. While a spot is chosen, each one
    offered has its button's number in its top left corner and its name a little lower;
    its cell is its target. While a rotation is chosen, only the spot being turned keeps
    its name, in a thick red frame; the others are plain outlines."""
    targets: list[Target] = []
    number_font = font(max(14, round(cell * 0.5)), True)
    edge = max(2, cell // 24)
    inset = max(2, cell // 16)
    for spot in view.spots:
        pos = (spot.x, spot.y)
        if pos in placed:
            continue
        x, y = corner(*pos)
        box = (x + inset, y + inset, x + cell - inset, y + cell - inset)
        if focus.turning and pos != focus.spot:
            d.rounded_rectangle(box, radius=cell // 8, outline=SPOT_IDLE, width=edge)
            continue
        chosen = focus.turning and pos == focus.spot
        d.rounded_rectangle(box, radius=cell // 8, fill=SPOT_BG,
                            outline=CHOSEN if chosen else SPOT_EDGE,
                            width=edge * 2 if chosen else edge)
        text = view.names.square_name(pos)
        fnt = fitting_font(text, cell - 4 * inset, round(number_font.size), True, 10)
        numbers = focus.spots.get(pos)
        # A numbered spot's name moves down, clear of the number in the corner.
        name_y = y + cell * (0.62 if numbers else 0.5)
        d.text((x + cell / 2, name_y), text, font=fnt, fill=CHOSEN if chosen else INK,
               anchor="mm")
        if numbers:
            r = spot_mark_radius(cell)
            mark_badge(d, numbers_text(numbers), x + inset + r, y + inset + r, r)
            targets.append(target(numbers, (x, y, x + cell, y + cell)))
    return targets


def draw_edges(d: Draw, frame: MapFrame, left: int, top: int, names: Naming) -> None:
    """The column letters above and below the map, the row numbers left and right of it
    (as the game's scheme ``names`` them), each centred on its column or row in a band
    ``EDGE`` pixels wide."""
    cell = frame.cell
    size = max(10, min(EDGE_FONT, round(cell * 0.36)))
    right, bottom = left + frame.width, top + frame.height
    for i in range(frame.cols):
        text = names.column_name(frame.min_x + i)
        fnt = fitting_font(text, cell - 4, size, True, 8)
        cx = left + i * cell + cell / 2
        d.text((cx, top - EDGE / 2), text, font=fnt, fill=MUTED, anchor="mm")
        d.text((cx, bottom + EDGE / 2), text, font=fnt, fill=MUTED, anchor="mm")
    for j in range(frame.rows):
        text = names.row_name(frame.min_y + j)
        fnt = fitting_font(text, EDGE - 6, size, True, 8)
        cy = top + j * cell + cell / 2
        d.text((left - EDGE / 2, cy), text, font=fnt, fill=MUTED, anchor="mm")
        d.text((right + EDGE / 2, cy), text, font=fnt, fill=MUTED, anchor="mm")
