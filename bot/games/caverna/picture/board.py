"""A player's home board: the forest and mountain squares with what lies on them.

The large board (the seat the picture is about) names its columns and rows along its
four edges, as the texts name the squares (``x`` 0–5 left to right, ``y`` 0–3 top to
bottom; -1 and 6/4 for squares a twin tile overhangs with the Office room), and shows
in each square: the tile by its colour and pattern (its name when nothing else is
written there), a furnishing by name, a stable, what is sown with its count, the
animals kept there with their counts, an uncovered bonus square's reward, and the
marks of the open prompt. The cliff between forest and mountain is a thick line,
open on the bottom row where the entrance meets the forest.

The small board beside another player's summary shows the same by colour and icon
only (its numbers are in the summary).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from bot.games.caverna.describe import column_name, row_name
from bot.games.caverna.picture.canvas import Canvas
from bot.games.caverna.picture.focus import Focus
from bot.games.caverna.picture.icons import KNOWN, draw_amounts, icon
from bot.games.caverna.picture.names import furnishing_name, label
from bot.games.caverna.picture.style import (
    CLIFF,
    DARK_TILES,
    EDGE,
    FENCE,
    FOREST,
    FOREST_DARK,
    FURROW,
    INK,
    KIND_COLORS,
    MARK,
    MARK_BG,
    MIN_TEXT,
    MUTED,
    RGB,
    ROCK,
    ROCK_DARK,
    STABLE,
    TILE_COLORS,
    WHITE,
    Box,
    ink_on,
)
from bot.render.targets import Target, numbers_text, target
from engine.caverna.board import Pos
from engine.caverna.components import components
from engine.caverna.view_model import BoardSquare, PlayerView

CLIFF_X = 3  # the cliff runs along the left side of this column...
OPEN_ROW = 3  # ...except on this row
TAG_LINES = 3  # a furnishing's name across the top of its square
TAG_PAD = 4  # between a square's edge and the furnishing's (or tile's) name
TILE_LINES = 2  # a bare tile's name on its square


@dataclass(frozen=True, slots=True)
class BoardFrame:
    """The squares a board spans (printed ones plus covered overhang squares)."""

    min_x: int
    max_x: int
    min_y: int
    max_y: int

    @property
    def columns(self) -> int:
        return self.max_x - self.min_x + 1

    @property
    def rows(self) -> int:
        return self.max_y - self.min_y + 1


def board_frame(p: PlayerView, offered: Iterable[Pos] = ()) -> BoardFrame:
    """The frame of player ``p``'s board: 6×4, grown by overhanging squares, covered or
    ``offered`` by the open prompt."""
    xs, ys = [0, 5], [0, 3]
    for square in p.board.spaces:
        xs.append(square.x)
        ys.append(square.y)
    for x, y in offered:
        xs.append(x)
        ys.append(y)
    return BoardFrame(min(xs), max(xs), min(ys), max(ys))


def board_size(frame: BoardFrame, cell: int, edges: bool) -> tuple[int, int]:
    """The pixels a board takes, with its name bands when ``edges``."""
    band = 2 * EDGE if edges else 0
    return frame.columns * cell + band, frame.rows * cell + band


def _square_box(frame: BoardFrame, left: int, top: int, cell: int, pos: Pos) -> Box:
    x0 = left + (pos[0] - frame.min_x) * cell
    y0 = top + (pos[1] - frame.min_y) * cell
    return (x0, y0, x0 + cell, y0 + cell)


def _bare(c: Canvas, box: Box, forest: bool, mini: bool) -> None:
    x0, y0, x1, _ = box
    cell = x1 - x0
    c.draw.rectangle(box, fill=FOREST if forest else ROCK)
    if mini:
        return
    if forest:  # three small fir trees
        for fx, fy in ((0.25, 0.62), (0.55, 0.78), (0.8, 0.55)):
            cx, cy, s = x0 + fx * cell, y0 + fy * cell, cell * 0.09
            c.draw.polygon([(cx, cy - 1.6 * s), (cx + s, cy + s), (cx - s, cy + s)],
                           fill=FOREST_DARK)
    else:  # cracks in the rock
        c.draw.line((x0 + cell * 0.15, y0 + cell * 0.7, x0 + cell * 0.4, y0 + cell * 0.55,
                     x0 + cell * 0.5, y0 + cell * 0.8), fill=ROCK_DARK, width=2)
        c.draw.line((x0 + cell * 0.65, y0 + cell * 0.5, x0 + cell * 0.85, y0 + cell * 0.65),
                    fill=ROCK_DARK, width=2)


def _tile(c: Canvas, box: Box, tile: str, mini: bool) -> None:
    x0, y0, x1, _ = box
    cell = x1 - x0
    color = TILE_COLORS.get(tile, (200, 200, 200))
    c.draw.rectangle(box, fill=color)
    c.drawn.tiles.add(tile)
    if tile == "field":
        for i in range(1, 6):
            y = y0 + i * cell / 6
            c.draw.line((x0 + 3, y, x1 - 3, y), fill=FURROW, width=1 if mini else 2)
    elif tile in ("tunnel", "deep_tunnel"):
        # A dark passage across the square; the deep tunnel's is wider.
        half = cell * (0.16 if tile == "tunnel" else 0.24)
        cy = y0 + cell * 0.62
        c.draw.rectangle((x0, cy - half, x1, cy + half), fill=(120, 96, 76))
    elif tile == "ore_mine":
        for fx, fy in ((0.25, 0.7), (0.5, 0.82), (0.75, 0.66), (0.38, 0.9)):
            r = cell * 0.05
            cx, cy = x0 + fx * cell, y0 + fy * cell
            c.draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=(170, 176, 196))
    elif tile == "ruby_mine":
        for fx, fy in ((0.3, 0.75), (0.7, 0.72)):
            r = cell * 0.07
            cx, cy = x0 + fx * cell, y0 + fy * cell
            c.draw.polygon([(cx, cy - r), (cx + r, cy), (cx, cy + r), (cx - r, cy)],
                           fill=(236, 60, 90))


def _fences(c: Canvas, box: Box, pos: Pos, partner: Pos | None, mini: bool) -> None:
    """Fence the sides of a pasture square not shared with its other half."""
    x0, y0, x1, y1 = box
    width = 3 if mini else 5
    inset = width // 2 + 1
    sides = {
        (pos[0], pos[1] - 1): (x0, y0 + inset, x1, y0 + inset),
        (pos[0], pos[1] + 1): (x0, y1 - inset, x1, y1 - inset),
        (pos[0] - 1, pos[1]): (x0 + inset, y0, x0 + inset, y1),
        (pos[0] + 1, pos[1]): (x1 - inset, y0, x1 - inset, y1),
    }
    for neighbour, line in sides.items():
        if neighbour != partner:
            c.draw.line(line, fill=FENCE, width=width)


def _stable(c: Canvas, cx: float, cy: float, s: float) -> None:
    """A small barn: a red house with a white door."""
    c.draw.polygon([(cx - s, cy), (cx, cy - s * 0.9), (cx + s, cy)], fill=STABLE, outline=INK)
    c.draw.rectangle((cx - s * 0.8, cy, cx + s * 0.8, cy + s), fill=STABLE, outline=INK)
    c.draw.rectangle((cx - s * 0.25, cy + s * 0.35, cx + s * 0.25, cy + s), fill=WHITE)
    c.drawn.stables += 1


def _mark(c: Canvas, cx: float, cy: float, numbers: tuple[int, ...], size: int) -> None:
    text = numbers_text(numbers)
    fnt = c.font(size, bold=True)
    w = max(fnt.getlength(text) + 12, size + 10)
    h = size + 10
    c.draw.rounded_rectangle((cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2), radius=h / 2,
                             fill=MARK_BG, outline=MARK, width=3)
    c.text((cx, cy), text, size, MARK, bold=True, anchor="mm")
    for n in numbers:
        c.drawn.marks[f"n{n}"] = n


def tag_width(cell: int) -> int:
    """How wide a furnishing's (or a tile's) name may be on a home-board square of
    ``cell`` pixels."""
    return cell - 2 * TAG_PAD


def _furnishing_tag(c: Canvas, box: Box, tile_id: str, lang: str, text_fill: RGB) -> int:
    """The furnishing's name across the top of its square; the height used."""
    x0, y0, x1, _ = box
    kind = components().furnishings.get(tile_id)
    tag = KIND_COLORS.get(kind.kind if kind is not None else "dwelling", KIND_COLORS["dwelling"])
    c.draw.rectangle((x0 + 2, y0 + 2, x1 - 2, y0 + 7), fill=tag)
    c.drawn.furnishings.add(tile_id)
    return 8 + c.wrapped((x0 + TAG_PAD, y0 + 9, x1 - TAG_PAD, y0 + 80),
                         furnishing_name(tile_id, lang), MIN_TEXT, text_fill, bold=True,
                         max_lines=TAG_LINES)


def draw_square(c: Canvas, box: Box, square: BoardSquare, animals: Mapping[str, int],
                lang: str, mini: bool) -> None:
    """One square of a home board and everything on it (``animals``: those kept there,
    positive counts)."""
    x0, y0, x1, y1 = box
    cell = x1 - x0
    tile = square.tile
    if tile is not None:
        _tile(c, box, tile, mini)
    else:
        _bare(c, box, square.half == "forest", mini)
    if tile in ("small_pasture", "large_pasture"):
        _fences(c, box, square.pos, square.partner, mini)
    text_fill = WHITE if (tile in DARK_TILES or tile is None) else INK
    furnishing = square.furnishing
    kept = [(k, n) for k, n in animals.items() if k in KNOWN]
    crop, crop_count = square.crop, square.crop_count
    c.drawn.housed.update(k for k, _ in kept)
    if mini:
        if furnishing is not None:
            kind = components().furnishings.get(furnishing)
            tag = KIND_COLORS.get(kind.kind if kind else "dwelling", KIND_COLORS["dwelling"])
            c.draw.rectangle((x0 + cell * 0.2, y0 + cell * 0.2, x1 - cell * 0.2, y0 + cell * 0.5),
                             fill=tag, outline=INK)
        if square.stable:
            _stable(c, x1 - cell * 0.25, y0 + cell * 0.3, cell * 0.18)
        if crop is not None and crop_count > 0:
            icon(c, crop, x0 + cell * 0.5, y0 + cell * 0.55, cell * 0.5)
        if kept:
            icon(c, kept[0][0], x0 + cell * 0.5, y1 - cell * 0.3, cell * 0.45)
        c.draw.rectangle(box, outline=(70, 60, 50), width=1)
        return
    used = 0
    if furnishing is not None:
        # A furnishing lies on a tile; the rock's colour stands in should it not.
        under = TILE_COLORS.get(tile, ROCK) if tile is not None else ROCK
        used = _furnishing_tag(c, box, furnishing, lang, ink_on(under))
    elif tile is not None and not (tile == "field" and crop_count):
        c.wrapped((x0 + TAG_PAD, y0 + 4, x1 - TAG_PAD, y0 + 50), label(f"tile.{tile}", lang),
                  MIN_TEXT, text_fill, max_lines=TILE_LINES)
    if square.stable:
        _stable(c, x1 - 20, y0 + max(used, 20) + 16, 13)
    icon_size = 22
    row_y = y1 - 18
    if crop is not None and crop_count > 0:
        c.drawn.crops.add(crop)
        draw_amounts(c, x0 + 8, row_y, [(crop, crop_count)], icon_size + 4, 22)
        row_y -= 30
    drawn = c.drawn.on_squares.setdefault(square.pos, [])
    if kept:
        # Two kinds per line at most (dogs guarding sheep share the square).
        for line in (kept[:2], kept[2:4]):
            if line:
                end = draw_amounts(c, x0 + 6, row_y, line, icon_size, 20, text_fill,
                                   right=x1 - 2)
                drawn.append(("kept", (x0 + 6, row_y - 14, end - 8, row_y + 14)))
                row_y -= 28
    if square.bonus and tile is None:
        # What covering the square gives: written "+1" at its top, where a bare square
        # has nothing else, so it is never read as (nor drawn over) an animal kept there.
        top_y = y0 + 18
        end = draw_amounts(c, x0 + 6, top_y, list(square.bonus.items()), 18, MIN_TEXT,
                           WHITE, prefix="+")
        drawn.append(("bonus", (x0 + 6, top_y - 11, end - 8, top_y + 11)))
    c.draw.rectangle(box, outline=(70, 60, 50), width=1)


def draw_board(c: Canvas, p: PlayerView, left: int, top: int, cell: int, lang: str,
               edges: bool = True, offered: Iterable[Pos] = ()) -> Box:
    """Draw player ``p``'s home board with its top-left corner (name bands included when
    ``edges``) at ``(left, top)``, wide enough for the squares ``offered``; the box it
    took. A cell below 60 pixels draws the small board: colours and icons only. The
    open prompt's marks go on it afterwards (``mark_board``)."""
    frame = board_frame(p, offered)
    mini = cell < 60
    band = EDGE if edges else 0
    gx, gy = left + band, top + band
    squares = {square.pos: square for square in p.board.spaces}
    animals = p.housing.by_square()
    for y in range(frame.min_y, frame.max_y + 1):
        for x in range(frame.min_x, frame.max_x + 1):
            pos = (x, y)
            square = squares.get(pos)
            box = _square_box(frame, gx, gy, cell, pos)
            if square is None:
                continue  # an overhang square nothing covers: left as the page
            draw_square(c, box, square, animals.get(pos, {}), lang, mini)
    # The cliff between the halves, open where the entrance meets the forest.
    cx = gx + (CLIFF_X - frame.min_x) * cell
    for y in range(max(0, frame.min_y), min(OPEN_ROW, frame.max_y + 1)):
        y0 = gy + (y - frame.min_y) * cell
        c.draw.line((cx, y0, cx, y0 + cell), fill=CLIFF, width=5 if not mini else 3)
    if edges:
        _edges(c, frame, gx, gy, cell)
    w, h = board_size(frame, cell, edges)
    (c.drawn.mini_boards if mini else c.drawn.boards).append(p.seat)
    return (left, top, left + w, top + h)


def _edges(c: Canvas, frame: BoardFrame, gx: int, gy: int, cell: int) -> None:
    right = gx + frame.columns * cell
    bottom = gy + frame.rows * cell
    for x in range(frame.min_x, frame.max_x + 1):
        cx = gx + (x - frame.min_x + 0.5) * cell
        for cy in (gy - EDGE / 2, bottom + EDGE / 2):
            c.text((cx, cy), column_name(x), 20, INK, bold=True, anchor="mm")
    for y in range(frame.min_y, frame.max_y + 1):
        cy = gy + (y - frame.min_y + 0.5) * cell
        for cx in (gx - EDGE / 2, right + EDGE / 2):
            c.text((cx, cy), row_name(y), 20, INK, bold=True, anchor="mm")
    c.draw.rectangle((gx - 1, gy - 1, right + 1, bottom + 1), outline=MUTED, width=2)


def mark_board(c: Canvas, p: PlayerView, left: int, top: int, cell: int, focus: Focus,
               edges: bool = True) -> list[Target]:
    """Frame and number the squares ``focus`` offers on ``p``'s home board, drawn by
    ``draw_board`` with the same corner, cell and ``edges``; the target of each square
    (the square itself) and of each two-square choice (both squares)."""
    frame = board_frame(p, focus.offered)
    band = EDGE if edges else 0
    gx, gy = left + band, top + band
    size = 18 if cell < 60 else 22
    for (a, b) in focus.pairs:
        for pos in (a, b):
            x0, y0, x1, y1 = _square_box(frame, gx, gy, cell, pos)
            c.draw.rectangle((x0 + 3, y0 + 3, x1 - 3, y1 - 3), outline=MARK, width=3)
    for pos in focus.squares:
        x0, y0, x1, y1 = _square_box(frame, gx, gy, cell, pos)
        c.draw.rectangle((x0 + 2, y0 + 2, x1 - 2, y1 - 2), outline=MARK, width=5)
    targets: list[Target] = []
    for (a, b), numbers in focus.pairs.items():
        ax0, ay0, ax1, ay1 = _square_box(frame, gx, gy, cell, a)
        bx0, by0, bx1, by1 = _square_box(frame, gx, gy, cell, b)
        _mark(c, (ax0 + ax1 + bx0 + bx1) / 4, (ay0 + ay1 + by0 + by1) / 4, numbers, size)
        targets.append(target(numbers, (min(ax0, bx0), min(ay0, by0), max(ax1, bx1),
                                        max(ay1, by1))))
    for pos, numbers in focus.squares.items():
        box = _square_box(frame, gx, gy, cell, pos)
        x0, y0, x1, y1 = box
        _mark(c, (x0 + x1) / 2, (y0 + y1) / 2, numbers, size)
        targets.append(target(numbers, box))
    return targets
