"""The Hunters and Gatherers picture: the map, the tile to place and the players.

Drawn from the engine's per-player view with plain shapes: no publisher art. Every
tile is a schematic square:

- meadow is the light green ground; each forest is dark green, as a band along each
  of its sides, joined through the middle when it spans several sides; a clearing
  (a meadow touching no side) is a light disc inside the forest;
- a river is a blue band from the middle of each river side to its other end: the
  middle of another side (curving through the centre), a lake (a blue pond with its
  fish count) or a spring (a small white ring);
- animals are round badges (deer tan, mammoth grey-brown, aurochs black, each with a
  letter; the tiger orange with black stripes and a red ring), gold a yellow nugget,
  mushrooms a red cap, fire a flame, the shrine a small temple, the volcano a cone;
- figures are in their player's colour, one shape per kind: gatherer a standing
  figure, hunter a lying one, fisher a disc with a wave, hut a house, put on the
  anchor point of their feature (roughly the centroid of its part of the tile).

The map is cropped to the placed tiles and the offered spots, which are empty cells
with a big number: that is how a player picks a spot in a chat. The cell size adapts
to the map (at most about 1300 px across, cells from 60 to 150 px) so that numbers
and figures stay readable at phone preview size even with the whole deck placed.
Below the map: the tile to place in its four rotations, the players (colour, name,
score, figures and huts left, whose turn) and a legend.

The function is pure and deterministic: the same view, names and language give the
same bytes. Tiles are drawn at twice their size and scaled down (smooth edges);
those small pictures are cached per (tile, rotation, size, language).

``sample_view`` builds realistic views by random growth of the map (the engine's
``legal_placements``), for tests, samples and the benchmark.
"""

from __future__ import annotations

import io
import math
import random
import sys
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import pairwise
from pathlib import Path
from typing import Any

from PIL import Image, ImageDraw

from bot.games.hunters_gatherers.picture_labels import label
from bot.render.text import Font, fit_text, fitting_font, font, safe_text
from engine.core.prompts import Prompt
from engine.hunters_gatherers.geometry import Placement, Pos, legal_placements
from engine.hunters_gatherers.tiles import (
    LAKE_PREFIX,
    SIDES,
    Tile,
    all_tiles,
    oriented,
    start_tile,
    tiles_of,
)

RGB = tuple[int, int, int]
Pt = tuple[float, float]
Box = tuple[int, int, int, int]
Draw = ImageDraw.ImageDraw

# ------------------------------------------------------------------------ constants

MARGIN = 16
GAP = 12
HEADER_H = 58
MIN_WIDTH = 980
MAP_MAX = 1300  # the map's longest side aims at this many pixels...
MIN_CELL = 60  # ...with cells never smaller than this (unless the map is absurd)
MAX_CELL = 130
HARD_MAP_MAX = 3200  # beyond this the cells shrink below MIN_CELL after all
SUPERSAMPLE = 2
STRIP_TILE = 112  # the tile to place, in each rotation
PLAYER_ROW_H = 44
MIN_PLAYERS_W = 560  # narrower than this, the players go under the tile to place
LEGEND_ROW_H = 34

BG: RGB = (241, 232, 212)
PANEL: RGB = (255, 251, 242)
INK: RGB = (40, 31, 22)
MUTED: RGB = (122, 108, 90)
BORDER: RGB = (150, 120, 88)
HEADER_BG: RGB = (58, 70, 40)
HEADER_INK: RGB = (250, 244, 225)
WHITE: RGB = (255, 255, 255)
ACCENT: RGB = (236, 150, 30)
TURN_BG: RGB = (252, 232, 170)

MEADOW: RGB = (172, 212, 112)
MEADOW_DARK: RGB = (132, 170, 80)
FOREST: RGB = (42, 104, 52)
FOREST_DARK: RGB = (24, 70, 32)
CLEARING: RGB = (190, 222, 130)
RIVER: RGB = (58, 128, 216)
RIVER_DARK: RGB = (28, 74, 150)
LAKE: RGB = (70, 146, 230)
GRID: RGB = (96, 112, 64)
SPOT_BG: RGB = (255, 249, 232)
SPOT_EDGE: RGB = (226, 132, 20)
EMPTY_DOT: RGB = (214, 202, 178)

ANIMAL_COLORS: Mapping[str, RGB] = {
    "deer": (190, 132, 62),
    "mammoth": (118, 96, 84),
    "aurochs": (52, 40, 34),
    "tiger": (246, 140, 24),
}
GOLD: RGB = (246, 204, 40)
GOLD_DARK: RGB = (150, 112, 10)
MUSHROOM: RGB = (214, 46, 40)
FIRE: RGB = (240, 96, 24)
FIRE_CORE: RGB = (252, 214, 60)
STONE: RGB = (214, 210, 200)

# Player colours avoid the greens and blues of the map, and are far apart from each
# other; light ones get a dark outline, dark ones a white one.
PLAYER_COLORS: tuple[RGB, ...] = (
    (222, 40, 44),
    (250, 206, 28),
    (150, 68, 212),
    (34, 34, 40),
    (250, 250, 250),
)

FIGURE_KINDS = ("gatherer", "fisher", "hunter", "hut")
ROTATION_LABELS = ("0°", "90°", "180°", "270°")

# ------------------------------------------------------------------- tile geometry
#
# Unit coordinates: (0, 0) is a tile's north-west corner, (1, 1) its south-east one.
# Sides run clockwise (N west->east, E north->south, S east->west, W south->north),
# as the segments X1, X, X2 of a river side do.

_START: Mapping[str, Pt] = {"N": (0, 0), "E": (1, 0), "S": (1, 1), "W": (0, 1)}
_END: Mapping[str, Pt] = {"N": (1, 0), "E": (1, 1), "S": (0, 1), "W": (0, 0)}
_INWARD: Mapping[str, Pt] = {"N": (0, 1), "E": (-1, 0), "S": (0, -1), "W": (1, 0)}
FOREST_DEPTH = 0.3
RIVER_WIDTH = 0.1
ICON_STEP = 0.22


def _along(side: str, t: float, depth: float) -> Pt:
    """The point ``t`` of the way along ``side`` (clockwise), ``depth`` inside the tile."""
    (x0, y0), (x1, y1), (ix, iy) = _START[side], _END[side], _INWARD[side]
    return (x0 + (x1 - x0) * t + ix * depth, y0 + (y1 - y0) * t + iy * depth)


def _segment_point(segment: str) -> Pt:
    """A point of the meadow or forest just inside a border segment."""
    side, index = segment[0], segment[1:]
    if index == "1":
        return _along(side, 0.2, 0.14)
    if index == "2":
        return _along(side, 0.8, 0.14)
    return _along(side, 0.5, 0.22)


def _mean(points: Sequence[Pt]) -> Pt:
    return (sum(p[0] for p in points) / len(points), sum(p[1] for p in points) / len(points))


def _clamp(p: Pt, lo: float = 0.13, hi: float = 0.87) -> Pt:
    return (min(hi, max(lo, p[0])), min(hi, max(lo, p[1])))


def _bezier(a: Pt, c: Pt, b: Pt, steps: int = 14) -> tuple[Pt, ...]:
    """A quadratic Bézier curve from ``a`` to ``b`` pulled towards ``c``."""
    out = []
    for i in range(steps + 1):
        t = i / steps
        u = 1 - t
        out.append((u * u * a[0] + 2 * u * t * c[0] + t * t * b[0],
                    u * u * a[1] + 2 * u * t * c[1] + t * t * b[1]))
    return tuple(out)


def _halfway(points: Sequence[Pt]) -> Pt:
    """The point half-way along a polyline."""
    lengths = [math.dist(a, b) for a, b in pairwise(points)]
    half = sum(lengths) / 2
    for (a, b), length in zip(pairwise(points), lengths, strict=True):
        if half <= length and length > 0:
            t = half / length
            return (a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t)
        half -= length
    return points[-1]


@dataclass(frozen=True, slots=True)
class TileLayout:
    """Where everything of one tile in one orientation is drawn, in unit coordinates.

    ``anchors`` maps ``(feature kind, index)`` (kinds ``forest``, ``river``, ``meadow``,
    ``lake``; the index into the oriented tile's list) to the point a figure stands on.
    """

    forests: tuple[tuple[tuple[Pt, ...], ...], ...]
    clearings: tuple[tuple[Pt, float], ...]
    rivers: tuple[tuple[Pt, ...], ...]
    springs: tuple[Pt, ...]
    lakes: tuple[tuple[Pt, float, int], ...]
    icons: tuple[tuple[str, Pt], ...]
    specials: tuple[tuple[str, Pt], ...]
    anchors: Mapping[tuple[str, int], Pt]


def _forest_polygons(segments: Sequence[str]) -> tuple[tuple[Pt, ...], ...]:
    """A band along each forest side; several sides are joined through the centre."""
    polys: list[tuple[Pt, ...]] = []
    d = FOREST_DEPTH
    for side in SIDES:
        if side in segments:
            polys.append((_START[side], _END[side], _along(side, 1 - d, d), _along(side, d, d)))
    if len(polys) > 1:
        lo, hi = d, 1 - d
        polys.append(((lo, lo), (hi, lo), (hi, hi), (lo, hi)))
    return tuple(polys)


def _lake_centres(tile: Tile) -> dict[str, Pt]:
    """Each lake is pulled from the centre towards the sides whose rivers end in it."""
    out: dict[str, Pt] = {}
    pull = 0.2 if len(tile.lakes) > 1 else 0.12
    for lake in tile.lakes:
        dirs = [
            (_along(side, 0.5, 0)[0] - 0.5, _along(side, 0.5, 0)[1] - 0.5)
            for river in tile.rivers if lake.id in river.lakes
            for side in river.sides
        ]
        vx, vy = _mean(dirs) if dirs else (0.0, 0.0)
        norm = math.hypot(vx, vy)
        out[lake.id] = (0.5, 0.5) if norm < 1e-6 else (0.5 + pull * vx / norm,
                                                          0.5 + pull * vy / norm)
    return out


def _icon_row(kinds: Sequence[str], centre: Pt) -> list[tuple[str, Pt]]:
    """Icons side by side, centred on ``centre`` and kept inside the tile."""
    if not kinds:
        return []
    width = ICON_STEP * (len(kinds) - 1)
    x0 = min(0.88 - width, max(0.12, centre[0] - width / 2))
    y = min(0.88, max(0.12, centre[1]))
    return [(kind, (x0 + i * ICON_STEP, y)) for i, kind in enumerate(kinds)]


@lru_cache(maxsize=512)
def tile_layout(tile_id: str, rotation: int) -> TileLayout:
    """The drawing plan of a tile as it lies (``rotation`` quarter turns clockwise)."""
    tile = oriented(all_tiles()[tile_id], rotation % 4)
    anchors: dict[tuple[str, int], Pt] = {}
    icons: list[tuple[str, Pt]] = []
    lake_at = _lake_centres(tile)
    big = "big_lake" in tile.specials

    lake_radius = 0.22 if big else (0.13 if len(tile.lakes) > 1 else 0.15)

    def away_from_lakes(p: Pt) -> Pt:
        # Icons and figures of land features keep off the ponds (and their numbers).
        for lx, ly in lake_at.values():
            dx, dy = p[0] - lx, p[1] - ly
            dist = math.hypot(dx, dy)
            need = lake_radius + 0.12
            if 1e-6 < dist < need:
                p = (lx + dx / dist * need, ly + dy / dist * need)
        return p

    def place_icons(key: tuple[str, int], anchor: Pt, kinds: list[str]) -> None:
        # With icons, the icons sit a little below the anchor and a figure above it.
        anchor = away_from_lakes(anchor)
        if kinds:
            icons.extend(_icon_row(kinds, (anchor[0], anchor[1] + 0.1)))
            anchor = (anchor[0], anchor[1] - 0.12)
        anchors[key] = _clamp(anchor)

    forests = []
    for i, forest in enumerate(tile.forests):
        polys = _forest_polygons(forest.segments)
        forests.append(polys)
        sides = [_along(s, 0.5, FOREST_DEPTH / 2) for s in forest.segments]
        anchor = _mean(sides)
        if len(sides) > 1 and any(not m.segments for m in tile.meadows):
            # The middle is a clearing: stand in the band farthest from the ponds.
            ponds = list(lake_at.values()) or [(0.5, 0.5)]
            anchor = max(sides, key=lambda p: min(math.dist(p, q) for q in ponds))
        elif len(sides) > 1 and math.dist(anchor, (0.5, 0.5)) < 0.2:
            anchor = (0.5, 0.5)
        place_icons(("forest", i), anchor,
                    ["gold"] * forest.gold + ["mushroom"] * forest.mushrooms)

    clearings: list[tuple[Pt, float]] = []
    for i, meadow in enumerate(tile.meadows):
        kinds = [kind for kind, n in meadow.animals for _ in range(n)]
        if meadow.segments:
            anchor = _mean([_segment_point(s) for s in meadow.segments])
        else:
            clearings.append(((0.5, 0.5), 0.3))
            anchor = (0.5, 0.5)
            if lake_at:
                # Beside the lake drawn in the clearing, on the side away from it.
                lx, ly = _mean(list(lake_at.values()))
                dx, dy = 0.5 - lx, 0.5 - ly
                norm = math.hypot(dx, dy)
                anchor = ((0.5 + 0.2 * dx / norm, 0.5 + 0.2 * dy / norm) if norm > 1e-6
                          else (0.5, 0.72))
        place_icons(("meadow", i), anchor, kinds)

    rivers: list[tuple[Pt, ...]] = []
    springs: list[Pt] = []
    for i, river in enumerate(tile.rivers):
        river_sides = river.sides
        points: list[Pt] = []
        for end in river.ends:
            if end in SIDES:
                points.append(_along(end, 0.5, 0))
            elif end.startswith(LAKE_PREFIX):
                points.append(lake_at.get(end[len(LAKE_PREFIX):], (0.5, 0.5)))
            else:  # a spring: a short way in from the river's side
                spring = _along(river_sides[0], 0.5, 0.36) if river_sides else (0.5, 0.5)
                points.append(spring)
                springs.append(spring)
        a, b = points[0], points[-1]
        path = _bezier(a, (0.5, 0.5), b) if len(river_sides) == 2 else (a, b)
        rivers.append(path)
        anchors[("river", i)] = _clamp(_halfway(path))

    lakes: list[tuple[Pt, float, int]] = []
    for i, lake in enumerate(tile.lakes):
        centre = lake_at[lake.id]
        radius = lake_radius
        lakes.append((centre, radius, lake.fish))
        # A figure on a lake stands on its north-east shore, leaving the fish readable.
        anchors[("lake", i)] = _clamp((centre[0] + radius * 0.8, centre[1] - radius * 0.8))

    # Specials go to the corner farthest from everything else drawn on the tile.
    taken = [*anchors.values(), *(p for _, p in icons), *(c for c, _, _ in lakes),
             *(p for path in rivers for p in path)]
    specials: list[tuple[str, Pt]] = []
    for special in tile.specials:
        if special not in ("fire", "shrine", "volcano"):
            continue  # mushrooms, aurochs and big lakes are drawn as features already
        corners: list[Pt] = [(0.17, 0.17), (0.83, 0.17), (0.83, 0.83), (0.17, 0.83)]
        best = max(corners, key=lambda c: min((math.dist(c, t) for t in taken), default=1.0))
        specials.append((special, best))
        taken.append(best)

    return TileLayout(
        forests=tuple(forests),
        clearings=tuple(clearings),
        rivers=tuple(rivers),
        springs=tuple(springs),
        lakes=tuple(lakes),
        icons=tuple(icons),
        specials=tuple(specials),
        anchors=anchors,
    )


# ------------------------------------------------------------------------ icons


def _outline_for(color: RGB) -> RGB:
    """White around dark colours, ink around light ones."""
    r, g, b = color
    return INK if 0.3 * r + 0.59 * g + 0.11 * b > 150 else WHITE


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
    edge = _outline_for(color)
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


# --------------------------------------------------------------------------- tiles


def _draw_tile(d: Draw, layout: TileLayout, x0: float, y0: float, s: float,
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
    _draw_tile(ImageDraw.Draw(im), tile_layout(tile_id, rotation), 0, 0, big, lang)
    return im.resize((size, size), Image.Resampling.LANCZOS)


# ---------------------------------------------------------------------- view reading


def _int(value: Any, default: int = 0) -> int:
    try:
        return int(value)
    except (TypeError, ValueError):
        return default


def _entries(view: Mapping[str, Any], key: str) -> list[Mapping[str, Any]]:
    """The dict entries of a list in the view (a missing or malformed list: none)."""
    items = view.get(key)
    if not isinstance(items, list | tuple):
        return []
    return [item for item in items if isinstance(item, Mapping)]


def _placed_now(view: Mapping[str, Any]) -> Mapping[str, Any] | None:
    """The tile laid this turn: in the figure step the engine lists it last in ``tiles``."""
    tiles = _entries(view, "tiles")
    if view.get("step") != "figure" or not tiles or not _known(tiles[-1].get("tile")):
        return None
    return tiles[-1]


def _player_color(seat: int) -> RGB:
    return PLAYER_COLORS[seat % len(PLAYER_COLORS)]


def _name(names: Sequence[str], seat: int, lang: str) -> str:
    """The seat's display name; a placeholder when missing or nothing drawable."""
    raw = names[seat] if 0 <= seat < len(names) and isinstance(names[seat], str) else ""
    return raw if safe_text(raw) else label("player", lang, seat + 1)


def _known(tile_id: Any) -> bool:
    return isinstance(tile_id, str) and tile_id in all_tiles()


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


# ----------------------------------------------------------------------- sections


def _text(d: Draw, xy: Pt, text: str, fnt: Font, fill: RGB, anchor: str = "la") -> float:
    d.text(xy, text, font=fnt, fill=fill, anchor=anchor)
    return fnt.getlength(text)


def _header(d: Draw, view: Mapping[str, Any], names: Sequence[str], lang: str,
            width: int) -> None:
    d.rectangle((0, 0, width, HEADER_H), fill=HEADER_BG)
    y = HEADER_H / 2
    bold, regular = font(26, True), font(22)
    x = MARGIN + 4.0
    x += _text(d, (x, y), label("title", lang), bold, HEADER_INK, "lm") + 24
    left = label("tiles_left", lang, _int(view.get("tiles_left")))
    bonus = _int(view.get("bonus_left"))
    if bonus:
        left += " · " + label("bonus_left", lang, bonus)
    right = width - MARGIN - 4
    left_w = regular.getlength(left)
    _text(d, (right - left_w, y), left, regular, HEADER_INK, "lm")
    room = right - left_w - 24 - x
    if view.get("step") == "over":
        text = label("over", lang)
        reason = view.get("end_reason")
        if isinstance(reason, str) and reason:
            text += ": " + label(f"end.{reason}", lang)
        _text(d, (x, y), fit_text(text, bold, room), bold, ACCENT, "lm")
        return
    turn = _int(view.get("turn"))
    tag_w = _text(d, (x, y), label("turn", lang), regular, HEADER_INK, "lm")
    color = _player_color(turn)
    d.ellipse((x + tag_w + 10, y - 12, x + tag_w + 34, y + 12), fill=color,
              outline=_outline_for(color), width=2)
    name = fit_text(_name(names, turn, lang), bold, max(20.0, room - tag_w - 46))
    _text(d, (x + tag_w + 44, y), name, bold, HEADER_INK, "lm")


def _draw_map(im: Image.Image, d: Draw, view: Mapping[str, Any], frame: MapFrame,
              left: int, top: int, lang: str) -> None:
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
    for entry in _entries(view, "tiles"):
        tile_id = str(entry.get("tile"))
        if not _known(tile_id):
            continue
        pos = (_int(entry.get("x")), _int(entry.get("y")))
        rotation = _int(entry.get("rotation")) % 4
        placed[pos] = (tile_id, rotation)
        im.paste(tile_image(tile_id, rotation, cell, lang), corner(*pos))
    line = max(1, cell // 60)
    for pos in placed:
        x, y = corner(*pos)
        d.rectangle((x, y, x + cell - 1, y + cell - 1), outline=GRID, width=line)
    # While a figure is being chosen, the tile just laid is framed.
    now = _placed_now(view)
    if now is not None:
        x, y = corner(_int(now.get("x")), _int(now.get("y")))
        d.rectangle((x, y, x + cell - 1, y + cell - 1), outline=SPOT_EDGE,
                    width=max(3, cell // 20))

    # Spots: empty cells with a big number.
    number_font = font(max(14, round(cell * 0.5)), True)
    edge = max(2, cell // 24)
    inset = max(2, cell // 16)
    for spot in _entries(view, "spots"):
        pos = (_int(spot.get("x")), _int(spot.get("y")))
        if pos in placed:
            continue
        x, y = corner(*pos)
        d.rounded_rectangle((x + inset, y + inset, x + cell - inset, y + cell - inset),
                            radius=cell // 8, fill=SPOT_BG, outline=SPOT_EDGE, width=edge)
        text = str(_int(spot.get("n")))
        fnt = fitting_font(text, cell - 4 * inset, round(number_font.size), True, 10)
        d.text((x + cell / 2, y + cell / 2), text, font=fnt, fill=INK, anchor="mm")

    # Figures, on the anchor of their feature.
    size = min(42.0, max(14.0, cell * 0.34))
    for fig in _entries(view, "figures"):
        pos = (_int(fig.get("x")), _int(fig.get("y")))
        if pos not in placed:
            continue
        layout = tile_layout(*placed[pos])
        key = (str(fig.get("feature", "")), _int(fig.get("index")))
        ux, uy = layout.anchors.get(key, (0.5, 0.5))
        x, y = corner(*pos)
        kind = str(fig.get("kind", ""))
        figure_icon(d, kind if kind in FIGURE_KINDS else "gatherer", x + ux * cell,
                    y + uy * cell, size * (1.15 if kind == "hut" else 1.0),
                    _player_color(_int(fig.get("seat"))))


def _current(im: Image.Image, d: Draw, view: Mapping[str, Any], lang: str,
             box: Box) -> None:
    """The tile to place, in its four rotations."""
    current = view.get("current")
    if not isinstance(current, Mapping) or not _known(current.get("tile")):
        return
    tile_id = str(current["tile"])
    d.rounded_rectangle(box, radius=10, fill=PANEL, outline=BORDER, width=2)
    x0, y0, x1, _ = box
    title = label("current_bonus" if current.get("bonus") else "current", lang)
    _text(d, (x0 + 14, y0 + 10), fit_text(title, font(22, True), x1 - x0 - 28),
          font(22, True), INK)
    hint_key = {"spot": "pick_spot", "rotation": "pick_rotation",
                "figure": "pick_figure"}.get(str(view.get("step")))
    if hint_key:
        hint = label(hint_key, lang)
        _text(d, (x0 + 14, y0 + 40), fit_text(hint, font(18), x1 - x0 - 28), font(18), MUTED)
    # Rotations that fit none of the offered spots are faded out.
    allowed: set[int] = set()
    for spot in _entries(view, "spots"):
        rotations = spot.get("rotations")
        if isinstance(rotations, list):
            allowed.update(_int(r) % 4 for r in rotations)
    placed = _placed_now(view)
    if placed is not None and placed.get("tile") == tile_id:
        allowed = {_int(placed.get("rotation")) % 4}  # only the rotation it was laid in
    gap = min(22.0, ((x1 - x0) - 4 * STRIP_TILE) / 5)
    ty = y0 + 72
    for k in range(4):
        tx = round(x0 + gap + k * (STRIP_TILE + gap))
        picture = tile_image(tile_id, k, STRIP_TILE, lang)
        usable = not allowed or k in allowed
        if not usable:
            picture = Image.blend(picture, Image.new("RGB", picture.size, PANEL), 0.65)
        im.paste(picture, (tx, ty))
        d.rectangle((tx, ty, tx + STRIP_TILE - 1, ty + STRIP_TILE - 1),
                    outline=GRID if usable else MUTED, width=2)
        d.text((tx + STRIP_TILE / 2, ty + STRIP_TILE + 16), ROTATION_LABELS[k],
               font=font(22, True), fill=INK if usable else MUTED, anchor="mm")


def _players(d: Draw, view: Mapping[str, Any], names: Sequence[str], lang: str,
             box: Box) -> None:
    players = _entries(view, "players")
    d.rounded_rectangle(box, radius=10, fill=PANEL, outline=BORDER, width=2)
    x0, y0, x1, _ = box
    over = view.get("step") == "over"
    turn = None if over else _int(view.get("turn"))
    you = view.get("you")
    best = max((_int(p.get("score")) for p in players), default=0)
    name_font, num_font, small = font(22, True), font(22, True), font(18)
    y = y0 + 10
    for p in players:
        seat = _int(p.get("seat"))
        cy = y + PLAYER_ROW_H / 2
        if seat == turn:
            d.rounded_rectangle((x0 + 6, y, x1 - 6, y + PLAYER_ROW_H - 2), radius=8,
                                fill=TURN_BG)
            d.polygon([(x0 + 12, cy - 9), (x0 + 24, cy), (x0 + 12, cy + 9)], fill=INK)
        color = _player_color(seat)
        figure_icon(d, "gatherer", x0 + 44, cy, 30, color)
        # Right side, from the right edge: huts, figures, score.
        rx = x1 - 16.0
        for value, kind in ((_int(p.get("huts")), "hut"), (_int(p.get("members")), "gatherer")):
            rx -= _text(d, (rx, cy), str(value), num_font, INK, "rm") + 4
            figure_icon(d, kind, rx - 12, cy, 22, MUTED)
            rx -= 40
        score = _int(p.get("score"))
        score_text = f"{score} {label('points', lang)}"
        if over and players and score == best:
            score_text = "★ " + score_text
        rx -= _text(d, (rx, cy), score_text, num_font, INK, "rm") + 16
        name = _name(names, seat, lang)
        suffix = f" ({label('you', lang)})" if you is not None and _int(you, -1) == seat else ""
        suffix_w = small.getlength(suffix)
        nx = x0 + 68
        room = rx - nx - suffix_w
        shown = fit_text(name, name_font, max(20.0, room))
        nw = _text(d, (nx, cy), shown, name_font, INK, "lm")
        if suffix:
            _text(d, (nx + nw, cy), suffix, small, MUTED, "lm")
        y += PLAYER_ROW_H


def _legend_items(d: Draw, lang: str) -> list[tuple[str, Callable[[float, float], None]]]:
    def animal(kind: str) -> Callable[[float, float], None]:
        return lambda x, y: animal_icon(d, kind, x, y, 11, lang)

    def figure(kind: str) -> Callable[[float, float], None]:
        return lambda x, y: figure_icon(d, kind, x, y, 24, MUTED)

    items: list[tuple[str, Callable[[float, float], None]]] = [
        (label(f"animal.{kind}", lang), animal(kind))
        for kind in ("deer", "mammoth", "aurochs", "tiger")
    ]
    items += [
        (label("gold", lang), lambda x, y: gold_icon(d, x, y, 10)),
        (label("mushrooms", lang), lambda x, y: mushroom_icon(d, x, y, 11)),
        (label("lake", lang), lambda x, y: lake_icon(d, x, y, 13, 2)),
        (label("spring", lang), lambda x, y: spring_icon(d, x, y, 7)),
        (label("fire", lang), lambda x, y: fire_icon(d, x, y, 11)),
        (label("shrine", lang), lambda x, y: shrine_icon(d, x, y, 11)),
    ]
    items += [(label(f"figure.{kind}", lang), figure(kind)) for kind in FIGURE_KINDS]
    return items


def _legend_layout(lang: str, width: int) -> list[list[tuple[int, str]]]:
    """Items (index, text) per line, wrapped to ``width``."""
    fnt = font(18)
    lines: list[list[tuple[int, str]]] = [[]]
    x = 0.0
    texts = [text for text, _ in _legend_items(ImageDraw.Draw(Image.new("1", (1, 1))), lang)]
    for i, text in enumerate(texts):
        w = 30 + fnt.getlength(text) + 18
        if x + w > width and lines[-1]:
            lines.append([])
            x = 0.0
        lines[-1].append((i, text))
        x += w
    return lines


def _legend(d: Draw, lang: str, left: int, top: int, width: int) -> None:
    fnt = font(18)
    items = _legend_items(d, lang)
    for row, line in enumerate(_legend_layout(lang, width)):
        cy = top + row * LEGEND_ROW_H + LEGEND_ROW_H / 2
        x = float(left)
        for i, text in line:
            items[i][1](x + 13, cy)
            x += 30 + _text(d, (x + 30, cy), text, fnt, MUTED, "lm") + 18


# --------------------------------------------------------------------------- main


def render_hunters_gatherers(
    view: dict[str, Any], names: list[str], lang: str = "ru", focus: Prompt | None = None,
) -> bytes:
    """A PNG of the Hunters and Gatherers map, the tile to place and the players.

    ``view`` is the engine's view (plain or after a JSON round trip): placed tiles,
    numbered spots for the current tile, figures, players; ``names[seat]`` is each
    seat's display name (any text: missing, empty or undrawable names become
    "Player N"); ``lang`` is "ru" or "en" (anything else falls back to Russian).
    Unknown tile ids and malformed entries are skipped rather than failing.
    """
    cells: list[Pos] = []
    for entry in (*_entries(view, "tiles"), *_entries(view, "spots")):
        if "tile" not in entry or _known(entry.get("tile")):
            cells.append((_int(entry.get("x")), _int(entry.get("y"))))
    frame = map_frame(cells)
    width = max(MIN_WIDTH, frame.width + 2 * MARGIN)
    map_top = HEADER_H + GAP
    has_current = isinstance(view.get("current"), Mapping) and _known(
        view["current"].get("tile"))
    players_n = len(_entries(view, "players"))
    current_w = 4 * STRIP_TILE + 5 * 22
    current_h = 72 + STRIP_TILE + 40 if has_current else 0
    players_h = 20 + max(1, players_n) * PLAYER_ROW_H
    # The players go beside the tile to place when there is room for long names,
    # else under it.
    beside = has_current and width - 2 * MARGIN - current_w - GAP >= MIN_PLAYERS_W
    bottom_top = map_top + frame.height + GAP
    if beside:
        current_box = (MARGIN, bottom_top, MARGIN + current_w, bottom_top + current_h)
        players_top, players_left = bottom_top, MARGIN + current_w + GAP
        bottom_end = bottom_top + max(current_h, players_h)
    else:
        current_box = (MARGIN, bottom_top, width - MARGIN, bottom_top + current_h)
        players_top = bottom_top + (current_h + GAP if has_current else 0)
        players_left = MARGIN
        bottom_end = players_top + players_h
    legend_w = width - 2 * MARGIN
    legend_rows = len(_legend_layout(lang, legend_w))
    height = bottom_end + GAP + legend_rows * LEGEND_ROW_H + GAP

    im = Image.new("RGB", (width, height), BG)
    d = ImageDraw.Draw(im)
    _header(d, view, names, lang, width)
    _draw_map(im, d, view, frame, (width - frame.width) // 2, map_top, lang)
    if has_current:
        _current(im, d, view, lang, current_box)
    _players(d, view, names, lang,
             (players_left, players_top, width - MARGIN, players_top + players_h))
    _legend(d, lang, MARGIN, bottom_end + GAP, legend_w)

    out = io.BytesIO()
    # A 256-colour palette keeps the PNG small and quick to encode; the octree
    # quantizer is deterministic, so equal views still give equal bytes.
    small = im.quantize(colors=256, method=Image.Quantize.FASTOCTREE)
    small.save(out, format="PNG", compress_level=6)
    return out.getvalue()


# ------------------------------------------------------------------------ samples

SAMPLE_NAMES = ["Анна", "Bob the Builder", "Мария-Антуанетта Длиннофамильная", "Zoë 🔥",
                "‮evil\u0000name"]

_FIGURE_FOR = {"forest": ("gatherer",), "river": ("fisher", "hut"),
               "meadow": ("hunter",), "lake": ("fisher", "hut")}


def sample_view(players: int, seed: int, placed: int | None, figures: int = 0,
                spots: bool = True, step: str = "spot") -> dict[str, Any]:
    """A view as the engine will give it, made by random growth of the map.

    Starting from the start tile at (0, 0), up to ``placed`` land tiles (None: all of
    them) are drawn in a shuffled order and put on a random legal placement (a tile
    that fits nowhere is set aside); ``figures`` random features get a figure of a
    random player. With ``spots`` the next tile (a bonus tile when the deck is used
    up) is offered at every legal position, numbered from 1 in the engine's order.
    """
    rng = random.Random(seed)
    start = start_tile()
    board: dict[Pos, Placement] = {(0, 0): Placement(start, 0)}
    order: list[tuple[Pos, Placement]] = [((0, 0), board[(0, 0)])]
    deck = list(tiles_of("land"))
    rng.shuffle(deck)
    limit = len(deck) if placed is None else placed
    used = 0
    while deck and len(order) - 1 < limit:
        tile = deck.pop()
        used += 1
        options = legal_placements(board, tile)
        if not options:
            continue
        pos, rotation = rng.choice(options)
        board[pos] = Placement(tile, rotation)
        order.append((pos, board[pos]))
    bonus = list(tiles_of("bonus"))
    view_spots: list[dict[str, Any]] = []
    current: dict[str, Any] | None = None
    if spots:
        candidates = deck[::-1] + [t for t in bonus if t not in deck]
        for tile in candidates:
            options = legal_placements(board, tile)
            if options:
                by_pos: dict[Pos, list[int]] = {}
                for pos, rotation in options:
                    by_pos.setdefault(pos, []).append(rotation)
                view_spots = [{"n": n, "x": p[0], "y": p[1], "rotations": r}
                              for n, (p, r) in enumerate(by_pos.items(), 1)]
                current = {"tile": tile.id, "bonus": tile.kind == "bonus"}
                break
    view_tiles = [{"x": p[0], "y": p[1], "tile": pl.tile.id, "rotation": pl.rotation}
                  for p, pl in order]
    if step == "figure" and current is not None and view_spots:
        # As the engine does: the tile in hand lies on its chosen spot, no spots left.
        spot = view_spots[0]
        view_tiles.append({"x": spot["x"], "y": spot["y"], "tile": current["tile"],
                           "rotation": spot["rotations"][0]})
        view_spots = []
    view_figures: list[dict[str, Any]] = []
    for _ in range(figures):
        pos, placement = rng.choice(order)
        tile = placement.oriented
        kinds = [(k, i) for k, items in (("forest", tile.forests), ("river", tile.rivers),
                                         ("meadow", tile.meadows), ("lake", tile.lakes))
                 for i in range(len(items))]
        feature, index = rng.choice(kinds)
        view_figures.append({"x": pos[0], "y": pos[1], "kind": rng.choice(_FIGURE_FOR[feature]),
                             "feature": feature, "index": index, "seat": rng.randrange(players)})
    return {
        "game": "hunters_gatherers",
        "you": 0,
        "turn": rng.randrange(players),
        "step": step if current is not None else "over",
        "tiles_left": len(deck),
        "bonus_left": len(bonus),
        "tiles": view_tiles,
        "current": current,
        "spots": view_spots,
        "figures": view_figures,
        "players": [{"seat": s, "score": rng.randrange(0, 12 * (used // 10 + 1)),
                     "members": rng.randrange(0, 6), "huts": rng.randrange(0, 4)}
                    for s in range(players)],
        "end_reason": None if current is not None else "last_tile_placed",
    }


def write_samples(folder: Path) -> list[Path]:
    """Write start, middle and full maps (and a finished game), in both languages."""
    folder.mkdir(parents=True, exist_ok=True)
    cases = {
        "hg_start": sample_view(2, 1, 0),
        "hg_mid": sample_view(4, 7, 30, figures=14),
        "hg_full": sample_view(5, 3, None, figures=30),
        "hg_over": sample_view(3, 5, None, figures=20, spots=False),
    }
    # The rotation step: one spot left, where only some rotations fit.
    rotation = sample_view(3, 9, 12, figures=5, step="rotation")
    fewest = min(rotation["spots"], key=lambda spot: len(spot["rotations"]))
    rotation["spots"] = [fewest]
    cases["hg_rotation"] = rotation
    cases["hg_figure"] = sample_view(2, 13, 20, figures=6, step="figure")
    written = []
    for stem, view in cases.items():
        for lang in ("ru", "en"):
            path = folder / f"{stem}{'' if lang == 'ru' else '_en'}.png"
            path.write_bytes(render_hunters_gatherers(view, SAMPLE_NAMES, lang))
            written.append(path)
    return written


if __name__ == "__main__":
    for p in write_samples(Path(sys.argv[1] if len(sys.argv) > 1 else "out/samples")):
        print(p)
