"""Where everything on a Hunters and Gatherers tile is drawn, in unit coordinates.

Drawn from the tile data alone, with plain shapes (no publisher art):

- meadow is the ground; each forest is a band along each of its sides, joined through
  the middle when it spans several sides; a clearing (a meadow touching no side) is a
  disc inside the forest;
- a river runs from the middle of each river side to its other end: the middle of
  another side (curving through the centre), a lake or a spring;
- animals, gold and mushrooms are icons in a row on their feature; fire, the shrine
  and the volcano go to the emptiest corner;
- every feature piece has an *anchor*, the point a figure (or a numbered mark) stands
  on, roughly the centroid of its part of the tile.

(0, 0) is a tile's north-west corner, (1, 1) its south-east one. Sides run clockwise
(N west->east, E north->south, S east->west, W south->north), as the segments X1, X,
X2 of a river side do.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import pairwise

from bot.games.hunters_gatherers.picture.style import Pt
from engine.hunters_gatherers.tiles import LAKE_PREFIX, SIDES, Tile, all_tiles, oriented

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
