"""The furnishing supply: every tile kind of this game's set, what it costs and gives.

Tiles stand in supply-board order (dwellings first). A tile shows its name under a
stripe of its kind's colour (dwellings orange, green abilities, yellow bonus points),
its cost as goods with counts and its printed points; a tile already built is faded
and carries its owner's colour instead of its cost. Tiles the open prompt offers carry
the button's number in their corner.
"""

from __future__ import annotations

from bot.games.caverna.picture.canvas import Canvas, grid_boxes
from bot.games.caverna.picture.focus import Focus
from bot.games.caverna.picture.icons import KNOWN, draw_amounts
from bot.games.caverna.picture.names import furnishing_name, label
from bot.games.caverna.picture.style import (
    BORDER,
    GAP,
    INK,
    KIND_COLORS,
    MARK,
    MARK_BG,
    MIN_TEXT,
    MUTED,
    PANEL,
    SUPPLY_COLUMNS,
    SUPPLY_H,
    TITLE_H,
    Box,
    player_color,
)
from bot.render.targets import Target, numbers_text, target
from engine.caverna.view_model import CavernaView, FurnishingTile

CELL_GAP = 6
BUILT_BG = (222, 214, 200)
NAME_LINES = 2  # a tile's name above its cost line
NAME_PAD = 5  # between a tile's edge and its name


def name_width(width: int) -> float:
    """How wide a tile's name may be in a supply ``width`` pixels wide."""
    x0, _, x1, _ = grid_boxes(1, SUPPLY_COLUMNS, 0, 0, width, SUPPLY_H, CELL_GAP)[0]
    return x1 - x0 - 2 * NAME_PAD


def supply_height(view: CavernaView) -> int:
    """The height of the supply section, its title included."""
    rows = -(-len(view.furnishings.tiles) // SUPPLY_COLUMNS)
    return TITLE_H + rows * (SUPPLY_H + CELL_GAP) + GAP - CELL_GAP


def _tile(c: Canvas, tile: FurnishingTile, box: Box, lang: str, focus: Focus
          ) -> Target | None:
    """Draw one furnishing tile of the supply in ``box``; its target if ``focus`` numbers
    it (the tile's panel: the badge sticks out over its corner)."""
    x0, y0, x1, y1 = box
    tile_id = tile.id
    built = tile.left == 0
    c.draw.rounded_rectangle(box, radius=6, fill=BUILT_BG if built else PANEL, outline=BORDER)
    c.draw.rectangle((x0 + 4, y0 + 3, x1 - 4, y0 + 7), fill=KIND_COLORS.get(tile.kind, BORDER))
    c.drawn.supply.add(tile_id)
    c.wrapped((x0 + NAME_PAD, y0 + 9, x1 - NAME_PAD, y1), furnishing_name(tile_id, lang),
              MIN_TEXT, MUTED if built else INK, bold=not built, max_lines=NAME_LINES)
    cy = y1 - 15
    points = tile.points
    if built:
        owner = tile.owner
        if owner is not None:
            c.draw.ellipse((x0 + 6, cy - 9, x0 + 24, cy + 9), fill=player_color(owner),
                           outline=INK)
        c.text((x0 + 30, cy), label("supply_built", lang), MIN_TEXT, MUTED, anchor="lm",
               width=x1 - x0 - 36 - (28 if points else 0))
    else:
        cost = [(k, n) for k, n in tile.cost.items() if n > 0 and k in KNOWN]
        unlimited = tile.left is None
        draw_amounts(c, x0 + 5, cy, cost, 20, MIN_TEXT, right=x1 - (54 if unlimited else 28))
        if unlimited:
            c.text((x1 - 34, cy), label("unlimited", lang), 22, MUTED, bold=True,
                   anchor="rm")
    if points:
        c.draw.ellipse((x1 - 27, cy - 12, x1 - 3, cy + 12), fill=KIND_COLORS["yellow"],
                       outline=INK)
        c.text((x1 - 15, cy), str(points), MIN_TEXT, INK, bold=True, anchor="mm")
    numbers = focus.tiles.get(tile_id)
    if numbers:
        text = numbers_text(numbers)
        w = c.font(22, True).getlength(text) + 14
        c.draw.rounded_rectangle((x1 - w - 2, y0 - 6, x1 + 4, y0 + 24), radius=12, fill=MARK_BG,
                                 outline=MARK, width=3)
        c.text((x1 - w / 2 + 1, y0 + 9), text, 22, MARK, bold=True, anchor="mm")
        c.draw.rounded_rectangle(box, radius=6, outline=MARK, width=3)
        for n in numbers:
            c.drawn.marks[f"tile:{tile_id}:{n}"] = n
        return target(numbers, box)
    return None


def draw_supply(c: Canvas, view: CavernaView, lang: str, left: int, top: int,
                width: int, focus: Focus) -> tuple[int, list[Target]]:
    """Draw the furnishing supply from ``(left, top)``; its height, and the targets of
    the tiles ``focus`` numbers."""
    c.section(left, top, label("supply", lang), "supply")
    tiles = view.furnishings.tiles
    boxes = grid_boxes(len(tiles), SUPPLY_COLUMNS, left, top, width, SUPPLY_H, CELL_GAP)
    marked = [_tile(c, tile, box, lang, focus) for tile, box in zip(tiles, boxes, strict=True)]
    return supply_height(view), [t for t in marked if t is not None]
