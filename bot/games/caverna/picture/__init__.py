"""The Caverna picture: one seat's home board large, the others, the table, the supply.

Drawn from the engine's view (a ``CavernaView``, :mod:`engine.caverna.view_model`, which
describes every field) with plain shapes, no publisher art. From top to bottom:

- the header: round, phase, whose turn;
- the harvest track (``harvest``);
- when the game is over, the score sheet (``sheet``);
- the home board of the seat the picture is about (the prompt's seat, else the viewer,
  else the seat acting) with its squares named along the edges and that seat's goods
  beside it, the dwarfs and score under it, and while the game runs what that score is
  made of (``board``, ``players``, ``sheet``);
- a summary row per other seat with its small board; with 5–7 players a compact row for
  every seat (``players``);
- the action board with occupied spaces, goods lying there and the round cards
  (``actions``);
- the furnishing supply with costs (``supply``);
- the key to the icons.

Shown with an open prompt (``focus``), the picture numbers what its buttons point at:
squares of the home board, action spaces, furnishing tiles (``focus``).

The page is ``WIDTH`` pixels wide whatever the player count, with letters no smaller
than ``MIN_TEXT``, so a phone preview 600 pixels wide stays readable; it grows in height
with the players and the table. The picture is pure and deterministic: the same view,
names, language and prompt give the same bytes.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from PIL import Image
from pydantic import ValidationError

from bot.games.caverna.picture.actions import actions_height, draw_actions
from bot.games.caverna.picture.board import board_frame, board_size, draw_board, mark_board
from bot.games.caverna.picture.canvas import Canvas, Record
from bot.games.caverna.picture.focus import Focus, focus_player, read_focus
from bot.games.caverna.picture.harvest import draw_harvest, harvest_height
from bot.games.caverna.picture.icons import icon
from bot.games.caverna.picture.names import label
from bot.games.caverna.picture.players import (
    COMPACT_FROM,
    draw_row,
    draw_status,
    draw_strip,
    row_columns,
    row_height,
    status_height,
    strip_height,
)
from bot.games.caverna.picture.sheet import (
    draw_score_line,
    draw_sheet,
    score_line_height,
    sheet_height,
)
from bot.games.caverna.picture.style import (
    BG,
    CELL,
    EDGE,
    GAP,
    HEADER_BG,
    HEADER_H,
    HEADER_INK,
    INK,
    MARGIN,
    MIN_TEXT,
    STATUS_W,
    TEXT,
    WIDTH,
    Box,
    player_color,
)
from bot.games.caverna.picture.supply import draw_supply, supply_height
from bot.render.targets import Drawn, finished
from bot.render.text import safe_text
from engine.caverna.board import Pos
from engine.caverna.components import ANIMALS, GOODS
from engine.caverna.view_model import CavernaView, PlayerView
from engine.core.prompts import Prompt

__all__ = ["board_cell", "draw_page", "read_view", "render_caverna"]

LEGEND_ITEM_W = 150
LEGEND_ROW = 32


def seat_name(names: list[str], seat: int, lang: str) -> str:
    """A seat's display name, or "Player N" when it is missing or undrawable."""
    if 0 <= seat < len(names) and isinstance(names[seat], str) and safe_text(names[seat]):
        return names[seat]
    return label("player", lang, seat + 1)


def read_view(view: CavernaView | Mapping[str, Any]) -> CavernaView | None:
    """``view`` itself, or JSON data (a view after a round trip, as a log or a web page
    keeps it) read back into a view; None for data that is not a Caverna view."""
    if isinstance(view, CavernaView):
        return view
    try:
        return CavernaView.model_validate(view)
    except ValidationError:
        return None


def board_cell(p: PlayerView, offered: tuple[Pos, ...] = ()) -> int:
    """The size of a square of ``p``'s home board drawn large (wide enough for the
    squares ``offered``)."""
    frame = board_frame(p, offered)
    room = WIDTH - 2 * MARGIN - 2 * EDGE - STATUS_W - GAP
    return min(CELL, room // frame.columns)


def _row_players(view: CavernaView, big: PlayerView) -> list[PlayerView]:
    """The seats with a summary row: every seat but the large board's, or every seat in
    the compact all-players summary."""
    if len(view.players) >= COMPACT_FROM:
        return list(view.players)
    return [p for p in view.players if p.seat != big.seat]


def _row_boxes(view: CavernaView, rows: list[PlayerView], top: int) -> list[Box]:
    """Where each summary row goes, from ``top`` (one or two to a line)."""
    players = len(view.players)
    columns = row_columns(players)
    width = (WIDTH - 2 * MARGIN - (columns - 1) * 8) // columns
    boxes: list[Box] = []
    y = top
    for start in range(0, len(rows), columns):
        line = rows[start:start + columns]
        h = max(row_height(p, players) for p in line)
        for i, _ in enumerate(line):
            x0 = MARGIN + i * (width + 8)
            boxes.append((x0, y, x0 + width, y + h))
        y += h + 8
    return boxes


def _legend_rows(width: int) -> int:
    per_row = max(1, width // LEGEND_ITEM_W)
    return -(-(len(GOODS) + len(ANIMALS)) // per_row)


def _title_bar(c: Canvas, title: str) -> float:
    """The header band with ``title`` on its left; the title's width."""
    c.draw.rectangle((0, 0, WIDTH, HEADER_H), fill=HEADER_BG)
    return c.text((MARGIN, HEADER_H / 2), title, 24, HEADER_INK, bold=True, anchor="lm")


def _header(c: Canvas, view: CavernaView, names: list[str], lang: str) -> None:
    title = label("title", lang)
    if view.round:
        title += " · " + label("round", lang, f"{view.round}/{view.last_round}")
    title += " · " + label(f"phase.{view.phase}", lang)
    cy = HEADER_H / 2
    used = _title_bar(c, title)
    deciding = view.deciding
    if view.phase == "over" or not deciding:
        return
    x = MARGIN + used + 24
    room = WIDTH - MARGIN - x
    shown = deciding[:3]
    c.text((x, cy), label("turn", lang), TEXT, HEADER_INK, anchor="lm")
    x += c.font(TEXT).getlength(label("turn", lang)) + 10
    each = (WIDTH - MARGIN - x) / len(shown) if room > 0 else 0
    for seat in shown:
        c.draw.ellipse((x, cy - 9, x + 18, cy + 9), fill=player_color(seat),
                       outline=HEADER_INK)
        c.text((x + 24, cy), seat_name(names, seat, lang), TEXT, HEADER_INK, bold=True,
               anchor="lm", width=max(20, each - 34))
        x += each


def _legend(c: Canvas, lang: str, left: int, top: int, width: int) -> None:
    per_row = max(1, width // LEGEND_ITEM_W)
    for i, kind in enumerate((*GOODS, *ANIMALS)):
        col, row = i % per_row, i // per_row
        x = left + col * LEGEND_ITEM_W
        cy = top + row * LEGEND_ROW + LEGEND_ROW / 2
        icon(c, kind, x + 12, cy, 22)
        word = label(f"good.{kind}" if kind in GOODS else f"animal.{kind}", lang)
        c.text((x + 28, cy), word, MIN_TEXT, INK, anchor="lm", width=LEGEND_ITEM_W - 32)


def draw_blank(lang: str = "ru") -> tuple[Image.Image, Record]:
    """The picture of a table it cannot show (a view without players, or data that is
    no Caverna view): the title and the key to the icons, recorded as ``empty``. A
    picture is sent beside every table message, so it is drawn rather than refused."""
    inner = WIDTH - 2 * MARGIN
    height = HEADER_H + GAP + _legend_rows(inner) * LEGEND_ROW + GAP
    c = Canvas(Image.new("RGB", (WIDTH, height), BG))
    _title_bar(c, label("title", lang))
    _legend(c, lang, MARGIN, HEADER_H + GAP, inner)
    c.drawn.sections.append("empty")
    return c.image, c.drawn


def draw_page(view: CavernaView, names: list[str], lang: str = "ru",
              focus: Prompt | None = None) -> tuple[Image.Image, Record]:
    """The picture as an image, and the record of what it shows (with the target of
    every place it numbers for ``focus``)."""
    if not view.players:
        return draw_blank(lang)
    marks = read_focus(focus, view)
    big_player = focus_player(view, marks.seat if marks.on_board else None)
    big = big_player.seat
    if marks.seat is not None and marks.on_board and marks.seat != big:
        marks = Focus(spaces=marks.spaces, tiles=marks.tiles)
    inner = WIDTH - 2 * MARGIN
    cell = board_cell(big_player, marks.offered)
    _, board_h = board_size(board_frame(big_player, marks.offered), cell, edges=True)
    top_h = max(board_h, status_height())
    rows = _row_players(view, big_player)
    row_boxes = _row_boxes(view, rows, 0)
    rows_h = max((b[3] for b in row_boxes), default=0)
    over = view.phase == "over"
    # Over, the score sheet opens the page; before, the large board's running total is
    # spelt out under its strip.
    score_h = sheet_height(view) if over else score_line_height(big_player, lang, inner) + GAP
    height = (HEADER_H + GAP + score_h + harvest_height() + top_h + GAP + strip_height() + GAP
              + rows_h + (GAP if rows else 0) + actions_height(view, inner) + GAP
              + supply_height(view) + _legend_rows(inner) * LEGEND_ROW + GAP)
    c = Canvas(Image.new("RGB", (WIDTH, height), BG))
    _header(c, view, names, lang)
    y = HEADER_H + GAP
    if over:
        shown = [seat_name(names, p.seat, lang) for p in view.players]
        y += draw_sheet(c, view, shown, lang, MARGIN, y, inner)
    y += draw_harvest(c, view, lang, MARGIN, y, inner)
    board_left = MARGIN
    draw_board(c, big_player, board_left, y, cell, lang, offered=marks.offered)
    targets = mark_board(c, big_player, board_left, y, cell, marks)
    status_left = MARGIN + inner - STATUS_W
    draw_status(c, big_player, (status_left, y + EDGE, MARGIN + inner, y + EDGE
                                + status_height()))
    y += top_h + GAP
    draw_strip(c, big_player, seat_name(names, big, lang), lang,
               (MARGIN, y, MARGIN + inner, y + strip_height()))
    y += strip_height() + GAP
    if not over:
        line_h = score_line_height(big_player, lang, inner)
        draw_score_line(c, big_player, lang, (MARGIN, y, MARGIN + inner, y + line_h))
        y += line_h + GAP
    for p, (x0, y0, x1, y1) in zip(rows, _row_boxes(view, rows, y), strict=True):
        draw_row(c, p, seat_name(names, p.seat, lang), lang, (x0, y0, x1, y1),
                 len(view.players), highlight=p.seat == big, first=p.seat == view.first)
    y += rows_h
    if rows:
        y += GAP
    height, spaces = draw_actions(c, view, lang, MARGIN, y, inner, marks)
    y += height
    height, tiles = draw_supply(c, view, lang, MARGIN, y, inner, marks)
    y += height
    _legend(c, lang, MARGIN, y, inner)
    c.drawn.targets = sorted([*targets, *spaces, *tiles], key=lambda t: t.numbers)
    return c.image, c.drawn


def render_caverna(view: CavernaView | Mapping[str, Any], names: list[str], lang: str = "ru",
                   focus: Prompt | None = None) -> Drawn:
    """The Caverna table for ``view`` as a PNG (the engine's view, or its JSON after a
    round trip; data that is no view draws the blank table); ``names[seat]`` is each
    seat's display name (missing or undrawable names become "Player N"); ``lang`` is
    "ru" or "en" (anything else falls back to Russian); ``focus`` is the open prompt the
    picture is shown with, whose buttons the picture then numbers (None, or a prompt
    naming no places, changes nothing)."""
    model = read_view(view)
    image, record = draw_page(model, names, lang, focus) if model is not None \
        else draw_blank(lang)
    return finished(image, record.targets)
