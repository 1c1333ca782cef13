"""The picture of ``/stats me``: a player's rating after each rated game, a line per
game, on the paper and ink of the game pictures. The words on it are the caller's (in
the reader's language); every figure drawn is also in the text beside it."""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw

from bot.render.palette import Palette
from bot.render.text import fit_text, font, safe_text

WIDTH, HEIGHT = 800, 420
MARGIN_LEFT, MARGIN_RIGHT, MARGIN_TOP, MARGIN_BOTTOM = 70, 24, 64, 80
TITLE_SIZE, LABEL_SIZE = 22, 15
LINE_WIDTH, DOT = 3, 4
# Rating steps between grid lines: the smallest that gives at most this many lines.
GRID_STEPS = (10, 20, 50, 100, 200, 500)
MOST_GRID_LINES = 6


@dataclass(frozen=True, slots=True)
class Line:
    """One game's line: its legend and the rating after each of its games."""

    label: str
    points: Sequence[int]


def _grid_step(low: int, high: int) -> int:
    return next((s for s in GRID_STEPS if (high - low) / s <= MOST_GRID_LINES), GRID_STEPS[-1])


def rating_chart(title: str, axis: str, lines: Sequence[Line]) -> bytes:
    """A PNG of ``lines`` (each with at least one point) under ``title``, the x axis
    named ``axis`` (games played, counted per line)."""
    palette = Palette(__package__ or "bot.stats")
    ink, muted, grid = palette.color("INK"), palette.color("MUTED"), palette.color("GRID")
    image = Image.new("RGB", (WIDTH, HEIGHT), palette.color("PANEL"))
    draw = ImageDraw.Draw(image)
    title_font, label_font = font(TITLE_SIZE, bold=True), font(LABEL_SIZE)
    draw.text((MARGIN_LEFT, 18), fit_text(safe_text(title), title_font, WIDTH - 2 * MARGIN_LEFT),
              font=title_font, fill=ink)
    values = [v for line in lines for v in line.points]
    step = _grid_step(min(values), max(values))
    low = (min(values) // step) * step
    high = max(low + step, -(-max(values) // step) * step)
    most = max(len(line.points) for line in lines)
    left, right = MARGIN_LEFT, WIDTH - MARGIN_RIGHT
    top, bottom = MARGIN_TOP, HEIGHT - MARGIN_BOTTOM

    def at(i: int, value: int) -> tuple[float, float]:
        x = left + (right - left) * (i + 1) / max(most, 1)
        return x, bottom - (bottom - top) * (value - low) / (high - low)

    for value in range(low, high + 1, step):
        y = at(0, value)[1]
        draw.line([(left, y), (right, y)], fill=grid, width=1)
        draw.text((left - 8, y), str(value), font=label_font, fill=muted, anchor="rm")
    draw.line([(left, bottom), (right, bottom)], fill=muted, width=2)
    draw.text((left, bottom + 8), "0", font=label_font, fill=muted, anchor="mt")
    draw.text((right, bottom + 8), str(most), font=label_font, fill=muted, anchor="rt")
    draw.text(((left + right) / 2, bottom + 8), safe_text(axis), font=label_font, fill=muted,
              anchor="mt")
    legend_x = left
    for n, line in enumerate(lines):
        color = palette.seat(n)
        points = [at(i, v) for i, v in enumerate(line.points)]
        if len(points) > 1:
            draw.line(points, fill=color, width=LINE_WIDTH, joint="curve")
        for x, y in points:
            draw.ellipse([x - DOT, y - DOT, x + DOT, y + DOT], fill=color)
        label = fit_text(safe_text(line.label), label_font, (right - left) / len(lines) - 30)
        draw.rectangle([legend_x, HEIGHT - 30, legend_x + 16, HEIGHT - 18], fill=color)
        draw.text((legend_x + 22, HEIGHT - 24), label, font=label_font, fill=ink, anchor="lm")
        legend_x += int(draw.textlength(label, font=label_font)) + 50
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=True)
    return out.getvalue()
