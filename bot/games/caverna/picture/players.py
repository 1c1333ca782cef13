"""The players: the large board's seat in detail, the others in summary rows.

Beside the large home board stands that seat's supply (every good and animal with its
count); under it a strip with the dwarfs (a disc in the seat's colour each, the
weapon's strength written in it, a newborn smaller, one that is out on an action space
faded), the room for dwarfs, begging markers and the score so far.

Each other seat gets a summary row: its small home board, its name and score, dwarfs
and weapons, the goods and animals it holds. With 5–7 players every seat gets a row
(the compact all-players summary) and the boards in it are smaller.
"""

from __future__ import annotations

from bot.games.caverna.picture.board import board_frame, board_size, draw_board
from bot.games.caverna.picture.canvas import Canvas
from bot.games.caverna.picture.icons import draw_amounts, icon
from bot.games.caverna.picture.names import label
from bot.games.caverna.picture.style import (
    BORDER,
    GAP,
    HIGHLIGHT,
    INK,
    MUTED,
    PANEL,
    RGB,
    TEXT,
    Box,
    ink_on,
    player_color,
)
from engine.caverna.components import ANIMALS, GOODS
from engine.caverna.view_model import DwarfView, PlayerView

STATUS_LINE = 33
DWARF = 34  # a dwarf's disc
STRIP_H = 50
ROW_LINE = 30
COMPACT_FROM = 5  # from this many players on, every seat gets a compact row


def status_height() -> int:
    """The height of the goods column beside the large board."""
    return len(GOODS) * STATUS_LINE + len(ANIMALS) * STATUS_LINE + 8


def draw_status(c: Canvas, p: PlayerView, box: Box) -> None:
    """Every good and animal of player ``p`` with its count, one per line in ``box``."""
    left, top, right, _ = box
    c.draw.rounded_rectangle(box, radius=8, fill=PANEL, outline=BORDER)
    y = top + 6 + STATUS_LINE / 2
    for kinds, held in ((GOODS, p.goods), (ANIMALS, p.animals)):
        for kind in kinds:
            n = held.get(kind, 0)
            fill = INK if n else MUTED
            icon(c, kind, left + 22, y, 24)
            c.text((left + 44, y), str(n), 22, fill, bold=bool(n), anchor="lm",
                   width=right - left - 48)
            y += STATUS_LINE
        if kinds is GOODS:  # a rule between the goods and the animals
            rule = y - STATUS_LINE / 2 + 1
            c.draw.line((left + 8, rule, right - 8, rule), fill=BORDER)


def _dwarf(c: Canvas, cx: float, cy: float, seat: int, dwarf: DwarfView) -> None:
    color: RGB = player_color(seat)
    out = dwarf.at is not None
    r = DWARF / 2 * (0.75 if dwarf.born else 1.0)
    fill = tuple(int(v * 0.45 + 255 * 0.55) for v in color) if out else color
    c.draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=fill, outline=INK, width=2)
    weapon = dwarf.weapon
    if weapon:
        c.text((cx, cy), str(weapon), 20, ink_on(color if not out else (230, 230, 230)),
               bold=True, anchor="mm")


def draw_dwarfs(c: Canvas, p: PlayerView, x: float, cy: float) -> float:
    """The seat's dwarfs left to right from ``x``; where the row ends."""
    for dwarf in p.dwarfs:
        _dwarf(c, x + DWARF / 2, cy, p.seat, dwarf)
        x += DWARF + 6
    return x


def strip_height() -> int:
    """The height of the dwarf strip under the large board."""
    return STRIP_H


def draw_strip(c: Canvas, p: PlayerView, name: str, lang: str, box: Box) -> None:
    """The dwarfs, room, begging and score of the large board's seat."""
    left, top, right, bottom = box
    c.draw.rounded_rectangle(box, radius=8, fill=PANEL, outline=BORDER)
    cy = (top + bottom) / 2
    c.draw.ellipse((left + 10, cy - 9, left + 28, cy + 9), fill=player_color(p.seat),
                   outline=INK)
    x: float = left + 36
    x += c.text((x, cy), name, TEXT, INK, bold=True, anchor="lm", width=220) + 14
    x = draw_dwarfs(c, p, x, cy)
    x += 6 + c.text((x + 6, cy), f"{len(p.dwarfs)}/{p.room}", TEXT, MUTED, anchor="lm")
    if p.begging:
        x += 14 + c.text((x + 14, cy), f"{label('begging', lang)} {p.begging}", TEXT,
                         (180, 30, 30), bold=True, anchor="lm")
    c.text((right - 12, cy), label("points", lang, p.score.total), TEXT, INK, bold=True,
           anchor="rm")


def row_columns(players: int) -> int:
    """Summary rows side by side: two in the compact all-players summary."""
    return 2 if players >= COMPACT_FROM else 1


def row_cell(players: int) -> int:
    """The square size of the small boards in the summary rows."""
    return 36 if players < COMPACT_FROM else 26


def row_height(p: PlayerView, players: int) -> int:
    """The height of one summary row."""
    _, h = board_size(board_frame(p), row_cell(players), edges=False)
    return max(h, 4 * ROW_LINE) + 12


def draw_row(c: Canvas, p: PlayerView, name: str, lang: str, box: Box, players: int,
             highlight: bool, first: bool) -> None:
    """One seat's summary: small board; name and score; dwarfs (and who is first, and
    begging markers, as room allows); goods; animals."""
    left, top, right, _ = box
    seat = p.seat
    c.draw.rounded_rectangle(box, radius=8, fill=HIGHLIGHT if highlight else PANEL,
                             outline=player_color(seat), width=3)
    board = draw_board(c, p, left + 8, top + 6, row_cell(players), lang, edges=False)
    x = board[2] + GAP
    width = right - x - 8
    y = top + 6 + ROW_LINE / 2
    c.draw.ellipse((x, y - 9, x + 18, y + 9), fill=player_color(seat), outline=INK)
    score = label("points", lang, p.score.total)
    score_w = c.font(TEXT, True).getlength(score)
    c.text((x + 26, y), name, TEXT, INK, bold=True, anchor="lm", width=width - score_w - 40)
    c.text((right - 10, y), score, TEXT, INK, bold=True, anchor="rm")
    y += ROW_LINE
    end = draw_dwarfs(c, p, x, y)
    extras = [(label("first", lang), INK)] if first else []
    if p.begging:
        extras.append((f"{label('begging', lang)} {p.begging}", (180, 30, 30)))
    for text, fill in extras:
        if end + 8 + c.font(TEXT, True).getlength(text) <= right - 8:
            end += 14 + c.text((end + 8, y), text, TEXT, fill, bold=True, anchor="lm")
    y += ROW_LINE
    goods = [(k, n) for k, n in p.goods.items() if n > 0 and k in GOODS]
    draw_amounts(c, x, y, goods, 22, 20, right=right - 8)
    y += ROW_LINE
    animals = [(k, n) for k, n in p.animals.items() if n > 0 and k in ANIMALS]
    draw_amounts(c, x, y, animals, 22, 20, right=right - 8)
