"""Small drawn icons for goods and animals, and rows of "icon + count".

Each good and animal has a shape and colour of its own (no letters, so the icons read
the same in both languages; the legend names them): wood a log, stone a pebble, ore a
dark hexagon, ruby a red diamond, gold a coin, food a round loaf, grain an ear,
vegetables a carrot; sheep a white fleece, donkeys grey with long ears, wild boars
brown with tusks, cattle black and white, dogs tan with a drooping ear.
"""

from __future__ import annotations

from collections.abc import Iterable

from bot.games.caverna.picture.canvas import Canvas
from bot.games.caverna.picture.style import ANIMAL_COLORS, GOOD_COLORS, INK, RGB, WHITE
from engine.caverna.components import ANIMALS, GOODS

KNOWN: frozenset[str] = frozenset((*GOODS, *ANIMALS))


def _ellipse(c: Canvas, cx: float, cy: float, rx: float, ry: float, fill: RGB,
             outline: RGB = INK) -> None:
    c.draw.ellipse((cx - rx, cy - ry, cx + rx, cy + ry), fill=fill, outline=outline, width=1)


def icon(c: Canvas, kind: str, cx: float, cy: float, size: float) -> None:
    """Draw the icon of good or animal ``kind`` centred at ``(cx, cy)``, ``size`` wide
    (an unknown kind becomes a grey dot)."""
    r = size / 2
    d = c.draw
    if kind == "wood":
        d.rounded_rectangle((cx - r, cy - r * 0.45, cx + r, cy + r * 0.45), radius=r * 0.4,
                            fill=GOOD_COLORS[kind], outline=INK)
        _ellipse(c, cx + r * 0.7, cy, r * 0.25, r * 0.38, (214, 170, 110))
    elif kind == "stone":
        shape = ((-1, 0.3), (-0.5, -0.7), (0.6, -0.6), (1, 0.2), (0.4, 0.8), (-0.6, 0.8))
        d.polygon([(cx + r * dx, cy + r * dy) for dx, dy in shape], fill=GOOD_COLORS[kind],
                  outline=INK)
    elif kind == "ore":
        pts = [(cx - r, cy), (cx - r / 2, cy - r * 0.85), (cx + r / 2, cy - r * 0.85), (cx + r, cy),
               (cx + r / 2, cy + r * 0.85), (cx - r / 2, cy + r * 0.85)]
        d.polygon(pts, fill=GOOD_COLORS[kind], outline=INK)
    elif kind == "ruby":
        d.polygon([(cx, cy - r), (cx + r * 0.8, cy), (cx, cy + r), (cx - r * 0.8, cy)],
                  fill=GOOD_COLORS[kind], outline=INK)
    elif kind == "gold":
        _ellipse(c, cx, cy, r * 0.9, r * 0.9, GOOD_COLORS[kind], (150, 110, 10))
        _ellipse(c, cx, cy, r * 0.5, r * 0.5, (252, 222, 100), (180, 140, 20))
    elif kind == "food":
        d.chord((cx - r, cy - r * 0.8, cx + r, cy + r * 1.0), 180, 360, fill=GOOD_COLORS[kind],
                outline=INK)
        d.rectangle((cx - r, cy + r * 0.1, cx + r, cy + r * 0.45), fill=(196, 96, 30), outline=INK)
    elif kind == "grain":
        d.line((cx, cy + r, cx, cy - r * 0.2), fill=(150, 120, 40), width=2)
        for dy in (-0.6, -0.15, 0.3):
            _ellipse(c, cx - r * 0.3, cy + r * dy, r * 0.3, r * 0.22, GOOD_COLORS[kind])
            _ellipse(c, cx + r * 0.3, cy + r * dy, r * 0.3, r * 0.22, GOOD_COLORS[kind])
        _ellipse(c, cx, cy - r * 0.8, r * 0.22, r * 0.3, GOOD_COLORS[kind])
    elif kind == "vegetable":
        d.polygon([(cx - r * 0.55, cy - r * 0.45), (cx + r * 0.55, cy - r * 0.45), (cx, cy + r)],
                  fill=GOOD_COLORS[kind], outline=INK)
        d.polygon([(cx - r * 0.4, cy - r), (cx, cy - r * 0.45), (cx + r * 0.4, cy - r)],
                  fill=(60, 150, 60), outline=INK)
    elif kind == "sheep":
        for dx, dy in ((-0.45, -0.2), (0.0, -0.35), (0.45, -0.2), (-0.3, 0.25), (0.3, 0.25)):
            _ellipse(c, cx + r * dx, cy + r * dy, r * 0.45, r * 0.45, ANIMAL_COLORS[kind],
                     (90, 90, 90))
        _ellipse(c, cx + r * 0.75, cy - r * 0.05, r * 0.25, r * 0.3, (60, 60, 60), (60, 60, 60))
    elif kind == "donkey":
        for side in (-1, 1):  # the long ears
            ear = ((0.55, -0.2), (0.35, -1.0), (0.15, -0.25))
            d.polygon([(cx + side * r * dx, cy + r * dy) for dx, dy in ear],
                      fill=ANIMAL_COLORS[kind], outline=INK)
        _ellipse(c, cx, cy + r * 0.2, r * 0.7, r * 0.75, ANIMAL_COLORS[kind])
        _ellipse(c, cx, cy + r * 0.55, r * 0.4, r * 0.25, (210, 206, 206))
    elif kind == "wild_boar":
        _ellipse(c, cx, cy, r, r * 0.7, ANIMAL_COLORS[kind])
        d.line((cx + r * 0.6, cy + r * 0.15, cx + r * 0.95, cy - r * 0.35), fill=WHITE, width=2)
        d.line((cx + r * 0.35, cy + r * 0.25, cx + r * 0.6, cy - r * 0.25), fill=WHITE, width=2)
    elif kind == "cattle":
        d.rounded_rectangle((cx - r, cy - r * 0.6, cx + r, cy + r * 0.7), radius=r * 0.3,
                            fill=(250, 250, 250), outline=INK)
        _ellipse(c, cx - r * 0.35, cy - r * 0.1, r * 0.35, r * 0.3, ANIMAL_COLORS[kind])
        _ellipse(c, cx + r * 0.45, cy + r * 0.3, r * 0.3, r * 0.25, ANIMAL_COLORS[kind])
        d.line((cx - r * 0.9, cy - r * 0.6, cx - r * 1.0, cy - r), fill=INK, width=2)
        d.line((cx + r * 0.9, cy - r * 0.6, cx + r * 1.0, cy - r), fill=INK, width=2)
    elif kind == "dog":
        _ellipse(c, cx, cy, r * 0.8, r * 0.85, ANIMAL_COLORS[kind])
        _ellipse(c, cx - r * 0.65, cy + r * 0.05, r * 0.3, r * 0.55, (150, 100, 50))
        _ellipse(c, cx + r * 0.25, cy + r * 0.3, r * 0.18, r * 0.14, INK, INK)
    else:
        _ellipse(c, cx, cy, r * 0.6, r * 0.6, (160, 160, 160))
        return
    if kind in GOOD_COLORS:
        c.drawn.goods.add(kind)
    else:
        c.drawn.animals.add(kind)


def amounts_width(c: Canvas, items: Iterable[tuple[str, int]], size: int, text: int) -> float:
    """How wide :func:`draw_amounts` draws ``items``."""
    fnt = c.font(text, bold=True)
    return sum(size + 3 + fnt.getlength(str(n)) + 8 for _, n in items)


def draw_amounts(c: Canvas, x: float, cy: float, items: Iterable[tuple[str, int]], size: int,
                 text: int, fill: RGB = INK, right: float | None = None,
                 prefix: str = "") -> float:
    """Draw "icon count" pairs left to right from ``x`` on the line ``cy`` (each count
    after ``prefix``), stopping before ``right``; the x where the row ended."""
    fnt = c.font(text, bold=True)
    for kind, n in items:
        label = f"{prefix}{n}"
        step = size + 3 + fnt.getlength(label)
        if right is not None and x + step > right:
            break
        icon(c, kind, x + size / 2, cy, size)
        c.text((x + size + 3, cy), label, text, fill, bold=True, anchor="lm")
        x += step + 8
    return x
