"""A Hunters and Gatherers tile drawn as a small picture, from its ``TileLayout``.

Tiles are drawn at twice their size and scaled down (smooth edges); the pictures are
cached per (tile, rotation, size, language): the language only changes the letters on
the animal badges.
"""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw

from bot.games.hunters_gatherers.picture.icons import (
    animal_icon,
    fire_icon,
    gold_icon,
    lake_icon,
    mushroom_icon,
    shrine_icon,
    spring_icon,
    volcano_icon,
)
from bot.games.hunters_gatherers.picture.style import (
    CLEARING,
    FOREST,
    FOREST_DARK,
    MEADOW,
    RIVER,
    RIVER_DARK,
    SUPERSAMPLE,
    Draw,
    Pt,
)
from bot.games.hunters_gatherers.picture.tile_geometry import RIVER_WIDTH, TileLayout, tile_layout


def draw_tile(d: Draw, layout: TileLayout, x0: float, y0: float, s: float,
              lang: str) -> None:
    """Draw a tile at (x0, y0), ``s`` pixels across."""

    def px(p: Pt) -> Pt:
        return (x0 + p[0] * s, y0 + p[1] * s)

    d.rectangle((x0, y0, x0 + s, y0 + s), fill=MEADOW)
    for polys in layout.forests:
        for poly in polys:
            d.polygon([px(p) for p in poly], fill=FOREST)
    for (cx, cy), r in layout.clearings:
        x, y = px((cx, cy))
        d.ellipse((x - r * s, y - r * s, x + r * s, y + r * s), fill=CLEARING,
                  outline=FOREST_DARK, width=max(1, round(s * 0.015)))
    rw = max(3, round(RIVER_WIDTH * s))
    for path in layout.rivers:
        pts = [px(p) for p in path]
        d.line(pts, fill=RIVER_DARK, width=rw + max(2, round(s * 0.025)), joint="curve")
    for path in layout.rivers:
        d.line([px(p) for p in path], fill=RIVER, width=rw, joint="curve")
    for spring in layout.springs:
        x, y = px(spring)
        spring_icon(d, x, y, s * 0.055)
    for centre, r, fish in layout.lakes:
        x, y = px(centre)
        lake_icon(d, x, y, r * s, fish)
    for kind, p in layout.specials:
        x, y = px(p)
        {"fire": fire_icon, "shrine": shrine_icon, "volcano": volcano_icon}[kind](
            d, x, y, s * 0.11)
    r = s * 0.1
    for kind, p in layout.icons:
        x, y = px(p)
        if kind == "gold":
            gold_icon(d, x, y, r)
        elif kind == "mushroom":
            mushroom_icon(d, x, y, r)
        else:
            animal_icon(d, kind, x, y, r, lang)


@lru_cache(maxsize=1024)
def tile_image(tile_id: str, rotation: int, size: int, lang: str) -> Image.Image:
    """A tile as it lies, ``size`` pixels square (drawn larger, then scaled down)."""
    big = size * SUPERSAMPLE
    im = Image.new("RGB", (big, big), MEADOW)
    draw_tile(ImageDraw.Draw(im), tile_layout(tile_id, rotation), 0, 0, big, lang)
    return im.resize((size, size), Image.Resampling.LANCZOS)
