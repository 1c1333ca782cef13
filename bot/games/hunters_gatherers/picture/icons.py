"""The small drawings of the Hunters and Gatherers picture: animals, gold, mushrooms,
fire, the shrine, the volcano, lakes, springs, the figures and numbered marks.

Each icon is drawn centred on ``(cx, cy)`` at the size given, with plain shapes.
"""

from __future__ import annotations

from bot.games.hunters_gatherers.picture.style import (
    ANIMAL_COLORS,
    FIRE,
    FIRE_CORE,
    GOLD,
    GOLD_DARK,
    INK,
    LAKE,
    MARK_BG,
    MARK_EDGE,
    MUSHROOM,
    MUTED,
    RGB,
    RIVER_DARK,
    STONE,
    WHITE,
    Draw,
    Pt,
    label,
    outline_for,
)
from bot.render.text import fitting_font, font


def animal_icon(d: Draw, kind: str, cx: float, cy: float, r: float, lang: str) -> None:
    """An animal badge: a coloured disc with a letter; the tiger is striped and ringed red."""
    color = ANIMAL_COLORS.get(kind, MUTED)
    w = max(1, round(r * 0.18))
    if kind == "tiger":
        d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=color, outline=(200, 20, 20),
                  width=max(2, round(r * 0.3)))
        for k in (-0.45, 0.0, 0.45):
            x = cx + k * r
            d.line((x - r * 0.15, cy - r * 0.55, x + r * 0.15, cy + r * 0.55), fill=INK,
                   width=max(1, round(r * 0.2)))
        return
    d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=color, outline=WHITE, width=w)
    d.text((cx, cy), label(f"letter.{kind}", lang), font=font(max(6, round(r * 1.25)), True),
           fill=WHITE, anchor="mm")


def gold_icon(d: Draw, cx: float, cy: float, r: float) -> None:
    """A gold nugget: an irregular yellow stone."""
    pts = [(cx - r, cy + r * 0.2), (cx - r * 0.5, cy - r * 0.7), (cx + r * 0.4, cy - r * 0.8),
           (cx + r, cy - r * 0.1), (cx + r * 0.6, cy + r * 0.75), (cx - r * 0.4, cy + r * 0.8)]
    d.polygon(pts, fill=GOLD, outline=GOLD_DARK, width=max(1, round(r * 0.2)))
    d.ellipse((cx - r * 0.35, cy - r * 0.45, cx, cy - r * 0.1), fill=(255, 244, 190))


def mushroom_icon(d: Draw, cx: float, cy: float, r: float) -> None:
    """A mushroom: a red cap with white spots on a pale stem."""
    d.rectangle((cx - r * 0.3, cy - r * 0.1, cx + r * 0.3, cy + r), fill=(246, 236, 214),
                outline=INK, width=1)
    d.pieslice((cx - r, cy - r * 0.9, cx + r, cy + r * 0.7), 180, 360, fill=MUSHROOM,
               outline=INK, width=1)
    for dx in (-0.45, 0.3):
        d.ellipse((cx + dx * r - r * 0.14, cy - r * 0.5, cx + dx * r + r * 0.14, cy - r * 0.22),
                  fill=WHITE)


def fire_icon(d: Draw, cx: float, cy: float, r: float) -> None:
    """A camp fire: a flame over two logs."""
    d.line((cx - r, cy + r * 0.85, cx + r, cy + r * 0.5), fill=(110, 64, 30),
           width=max(2, round(r * 0.3)))
    d.line((cx - r, cy + r * 0.5, cx + r, cy + r * 0.85), fill=(110, 64, 30),
           width=max(2, round(r * 0.3)))
    d.polygon([(cx, cy - r), (cx + r * 0.65, cy + r * 0.1), (cx + r * 0.4, cy + r * 0.65),
               (cx - r * 0.4, cy + r * 0.65), (cx - r * 0.65, cy + r * 0.1)], fill=FIRE,
              outline=(150, 40, 10), width=1)
    d.polygon([(cx, cy - r * 0.3), (cx + r * 0.3, cy + r * 0.3), (cx, cy + r * 0.6),
               (cx - r * 0.3, cy + r * 0.3)], fill=FIRE_CORE)


def shrine_icon(d: Draw, cx: float, cy: float, r: float) -> None:
    """A shrine: a stone roof on two pillars."""
    w = max(1, round(r * 0.15))
    d.polygon([(cx - r, cy - r * 0.35), (cx, cy - r), (cx + r, cy - r * 0.35)], fill=STONE,
              outline=INK, width=w)
    d.rectangle((cx - r * 0.75, cy - r * 0.35, cx - r * 0.4, cy + r * 0.8), fill=STONE,
                outline=INK, width=w)
    d.rectangle((cx + r * 0.4, cy - r * 0.35, cx + r * 0.75, cy + r * 0.8), fill=STONE,
                outline=INK, width=w)
    d.rectangle((cx - r, cy + r * 0.75, cx + r, cy + r), fill=STONE, outline=INK, width=w)


def volcano_icon(d: Draw, cx: float, cy: float, r: float) -> None:
    """The volcano of the start tile: a grey cone with glowing lava at the top."""
    d.polygon([(cx - r, cy + r * 0.8), (cx - r * 0.25, cy - r * 0.6), (cx + r * 0.25, cy - r * 0.6),
               (cx + r, cy + r * 0.8)], fill=(120, 104, 96), outline=INK, width=1)
    d.polygon([(cx - r * 0.25, cy - r * 0.6), (cx + r * 0.25, cy - r * 0.6),
               (cx + r * 0.1, cy - r * 0.1), (cx - r * 0.15, cy + r * 0.05)], fill=FIRE)
    d.ellipse((cx - r * 0.2, cy - r, cx + r * 0.2, cy - r * 0.65), fill=FIRE_CORE)


def lake_icon(d: Draw, cx: float, cy: float, r: float, fish: int | None) -> None:
    """A pond with its fish count."""
    d.ellipse((cx - r, cy - r * 0.85, cx + r, cy + r * 0.85), fill=LAKE, outline=RIVER_DARK,
              width=max(1, round(r * 0.12)))
    if fish is not None:
        d.text((cx, cy), str(fish), font=font(max(6, round(r * 1.3)), True), fill=WHITE,
               anchor="mm")


def spring_icon(d: Draw, cx: float, cy: float, r: float) -> None:
    """A spring: a small white ring on the river's end."""
    d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=WHITE, outline=RIVER_DARK,
              width=max(1, round(r * 0.35)))


_MEEPLE: tuple[Pt, ...] = (
    (-0.2, -0.32), (0.2, -0.32), (0.55, -0.12), (0.55, 0.08), (0.27, 0.06), (0.42, 0.56),
    (0.1, 0.56), (0.0, 0.3), (-0.1, 0.56), (-0.42, 0.56), (-0.27, 0.06), (-0.55, 0.08),
    (-0.55, -0.12),
)


def figure_icon(d: Draw, kind: str, cx: float, cy: float, size: float, color: RGB) -> None:
    """A figure, ``size`` pixels across, in ``color``; the shape tells the kind.

    gatherer: a standing figure; hunter: the same figure lying down; fisher: a disc
    with a wave; hut: a house.
    """
    edge = outline_for(color)
    h = size / 2
    w = max(2, round(size * 0.09))
    if kind in ("gatherer", "hunter"):
        lying = kind == "hunter"

        def at(px: float, py: float) -> Pt:
            return (cx - py * size, cy + px * size) if lying else (cx + px * size, cy + py * size)

        d.polygon([at(px, py) for px, py in _MEEPLE], fill=color, outline=edge, width=w)
        hx, hy = at(0.0, -0.47)
        hr = size * 0.2
        d.ellipse((hx - hr, hy - hr, hx + hr, hy + hr), fill=color, outline=edge, width=w)
        # Redraw the neck over the head's outline so the two parts read as one figure.
        nx0, ny0 = at(-0.12, -0.36)
        nx1, ny1 = at(0.12, -0.28)
        d.rectangle((min(nx0, nx1), min(ny0, ny1), max(nx0, nx1), max(ny0, ny1)), fill=color)
    elif kind == "fisher":
        d.ellipse((cx - h, cy - h, cx + h, cy + h), fill=color, outline=edge, width=w)
        wave = [(cx - h * 0.6 + i * h * 0.2, cy + (h * 0.18 if i % 2 else -h * 0.18))
                for i in range(7)]
        d.line(wave, fill=edge, width=max(2, round(size * 0.1)), joint="curve")
    else:  # hut
        pts = [(cx - h, cy - h * 0.05), (cx, cy - h), (cx + h, cy - h * 0.05),
               (cx + h * 0.72, cy - h * 0.05), (cx + h * 0.72, cy + h * 0.85),
               (cx - h * 0.72, cy + h * 0.85), (cx - h * 0.72, cy - h * 0.05)]
        d.polygon(pts, fill=color, outline=edge, width=w)
        d.rectangle((cx - h * 0.2, cy + h * 0.3, cx + h * 0.2, cy + h * 0.85), fill=edge)


def mark_badge(d: Draw, number: int | str, cx: float, cy: float, r: float) -> None:
    """A numbered mark: a white disc with a red ring and the number in ink, ``r`` pixels
    in radius; it names the button (or buttons, ``3,4``) that choose what lies under it:
    a piece of the tile just laid, a spot."""
    ring = max(2, round(r * 0.22))
    d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=MARK_BG, outline=MARK_EDGE, width=ring)
    text = str(number)
    fnt = fitting_font(text, 2 * (r - ring) - 1, max(6, round(r * 1.25)), True, 6)
    d.text((cx, cy), text, font=fnt, fill=INK, anchor="mm")
