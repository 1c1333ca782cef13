"""The score: what a running total is made of, and the score sheet of a finished game.

A running total counts the game as if it ended now, so an empty home board starts far
below zero (each unused space −1, each missing kind of farm animal −2). Under the large
board's strip the picture spells the total out, line by line of the sheet
(``draw_score_line``): "Score if the game ended now: -28 · Missing animal kinds -8 ·
Dwarfs +2 · Unused spaces -22".

When the game is over, the picture opens with the score sheet, laid out like the
rulebook's scoring pad: a row per line of :data:`engine.caverna.scoring.SCORE_SHEET`,
a column per seat under its name and colour, the totals at the bottom and the best
total marked. Every number drawn is noted in the record (``Record.sheet``).
"""

from __future__ import annotations

from bot.games.caverna.picture.canvas import Canvas
from bot.games.caverna.picture.names import label
from bot.games.caverna.picture.style import (
    BORDER,
    GAP,
    HIGHLIGHT,
    INK,
    MIN_TEXT,
    MUTED,
    PANEL,
    TEXT,
    TITLE_H,
    Box,
    player_color,
)
from bot.render.text import font
from engine.caverna.scoring import SCORE_SHEET
from engine.caverna.view_model import CavernaView, PlayerView

ROW = 26  # a line of the sheet
LABEL_SHARE = 0.36  # of the sheet's width, for the lines' names
LINE_STEP = MIN_TEXT + 3
NEGATIVE = (170, 40, 40)
SEPARATOR = "·"  # between two parts, in the middle of ...
SEPARATOR_W = 24  # ... this many pixels


def _lines(p: PlayerView) -> dict[str, int]:
    """The sheet of seat ``p`` by line (``total`` last)."""
    sheet = p.score.model_dump()
    return {line: int(sheet[line]) for line in (*SCORE_SHEET, "total")}


def _points(n: int) -> str:
    return f"{n:+d}" if n else "0"


def score_parts(p: PlayerView) -> dict[str, int]:
    """What the running total of seat ``p`` is made of: the lines of the sheet that are
    not zero, and ``total``."""
    lines = _lines(p)
    return {line: n for line, n in lines.items() if n or line == "total"}


def _score_words(p: PlayerView, lang: str) -> list[str]:
    parts = score_parts(p)
    return [label("score_now", lang, parts["total"])] + [
        f"{label(f'sheet.{line}', lang)} {_points(n)}"
        for line, n in parts.items() if line != "total"]


def _flow(parts: list[str], width: float) -> list[list[str]]:
    """``parts`` in lines of at most ``width`` pixels, each part whole, ``SEPARATOR``
    between two on one line."""
    fnt = font(MIN_TEXT)
    lines: list[list[str]] = []
    used = 0.0
    for part in parts:
        w = fnt.getlength(part)
        if lines and used + SEPARATOR_W + w <= width:
            lines[-1].append(part)
            used += SEPARATOR_W + w
        else:
            lines.append([part])
            used = w
    return lines


def score_line_height(p: PlayerView, lang: str, width: int) -> int:
    """The height of ``draw_score_line`` for seat ``p`` across ``width`` pixels."""
    return len(_flow(_score_words(p, lang), width - 20)) * LINE_STEP + 12


def draw_score_line(c: Canvas, p: PlayerView, lang: str, box: Box) -> None:
    """The running total of seat ``p`` with what makes it, in ``box``."""
    left, top, right, _ = box
    c.draw.rounded_rectangle(box, radius=8, fill=PANEL, outline=BORDER)
    c.drawn.score_now = score_parts(p)
    for i, line in enumerate(_flow(_score_words(p, lang), right - left - 20)):
        x: float = left + 10
        cy = top + 6 + i * LINE_STEP + LINE_STEP / 2
        for j, part in enumerate(line):
            if j:
                c.text((x + SEPARATOR_W / 2, cy), SEPARATOR, MIN_TEXT, MUTED, anchor="mm")
                x += SEPARATOR_W
            x += c.text((x, cy), part, MIN_TEXT, INK, anchor="lm")


def sheet_height(view: CavernaView) -> int:
    """The height of the score sheet section, its title included."""
    return TITLE_H + (len(SCORE_SHEET) + 2) * ROW + GAP


def draw_sheet(c: Canvas, view: CavernaView, names: list[str], lang: str, left: int,
               top: int, width: int) -> int:
    """Draw the score sheet of the finished game from ``(left, top)``; its height.
    ``names[seat]`` is each seat's name as the picture shows it."""
    c.section(left, top, label("sheet_title", lang), "sheet")
    players = view.players
    sheets = {p.seat: _lines(p) for p in players}
    best = max(s["total"] for s in sheets.values())
    label_w = round(width * LABEL_SHARE)
    column = (width - label_w) / len(players)
    y = top + TITLE_H
    right = left + width
    rows = len(SCORE_SHEET) + 2
    c.draw.rounded_rectangle((left, y, right, y + rows * ROW), radius=8, fill=PANEL,
                             outline=BORDER)
    for i, p in enumerate(players):
        x0 = left + label_w + i * column
        if sheets[p.seat]["total"] == best:
            c.draw.rectangle((x0 + 2, y + 2, x0 + column - 2, y + rows * ROW - 2),
                             fill=HIGHLIGHT)
        cy = y + ROW / 2
        c.draw.ellipse((x0 + 6, cy - 8, x0 + 22, cy + 8), fill=player_color(p.seat),
                       outline=INK)
        c.text((x0 + 28, cy), names[p.seat], MIN_TEXT, INK, bold=True, anchor="lm",
               width=column - 32)
    for r, line in enumerate((*SCORE_SHEET, "total"), start=1):
        row_top = y + r * ROW
        total = line == "total"
        c.draw.line((left + 8, row_top, right - 8, row_top), fill=INK if total else BORDER,
                    width=2 if total else 1)
        cy = row_top + ROW / 2
        c.text((left + 10, cy), label(f"sheet.{line}", lang), MIN_TEXT, INK if total else MUTED,
               bold=total, anchor="lm", width=label_w - 16)
        for i, p in enumerate(players):
            n = sheets[p.seat][line]
            cx = left + label_w + i * column + column / 2
            c.text((cx, cy), str(n) if total else _points(n), TEXT if total else MIN_TEXT,
                   NEGATIVE if n < 0 else INK, bold=total, anchor="mm", width=column - 8)
            c.drawn.sheet.setdefault(p.seat, {})[line] = n
    return sheet_height(view)
