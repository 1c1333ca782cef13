"""The map: positions, neighbours, matching across borders and legal placements.

Convention: a position is ``(x, y)`` with x growing to the east and y growing to the
south (screen order), so the northern neighbour of ``(x, y)`` is ``(x, y - 1)``. The
start tile lies at ``(0, 0)``.

Across a shared border, side X of tile A touches the opposite side Y of tile B. Their
edge types must be equal; for river sides the clockwise order of the three segments
reverses: A.X1 <-> B.Y2, A.X <-> B.Y, A.X2 <-> B.Y1.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import cache

from engine.hunters_gatherers.tiles import SIDES, Tile, oriented, rotate_edges

Pos = tuple[int, int]

OFFSETS: Mapping[str, Pos] = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}
OPPOSITE: Mapping[str, str] = {"N": "S", "E": "W", "S": "N", "W": "E"}
ROTATIONS: tuple[int, ...] = (0, 1, 2, 3)
ORIGIN: Pos = (0, 0)


@dataclass(frozen=True, slots=True)
class Placement:
    """A tile lying on the map, turned ``rotation`` quarter turns clockwise.

    ``edges`` (its edge letters N, E, S, W as it lies) and ``oriented`` (the tile with
    its segments named as it lies on the map) are worked out once, when it is made:
    every search of the map reads them.
    """

    tile: Tile
    rotation: int
    edges: str = field(init=False, repr=False, compare=False)
    oriented: Tile = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "edges", rotate_edges(self.tile.edges, self.rotation))
        object.__setattr__(self, "oriented", oriented(self.tile, self.rotation))


Board = Mapping[Pos, Placement]


OPPOSITE_INDEX = {side: SIDES.index(OPPOSITE[side]) for side in SIDES}


def opposite(side: str) -> str:
    """The side facing ``side`` across a border (N <-> S, E <-> W)."""
    return OPPOSITE[side]


def neighbour(pos: Pos, side: str) -> Pos:
    """The position next to ``pos`` across ``side``."""
    dx, dy = OFFSETS[side]
    return (pos[0] + dx, pos[1] + dy)


def neighbours(pos: Pos) -> list[tuple[str, Pos]]:
    """``(side, position)`` for the four edge-adjacent positions, in N, E, S, W order."""
    return [(side, neighbour(pos, side)) for side in SIDES]


def facing_segment(segment: str) -> str:
    """The segment of the neighbour that touches ``segment`` across its side.

    ``N1 -> S2``, ``N -> S``, ``N2 -> S1`` (the clockwise order reverses).
    """
    side = OPPOSITE[segment[0]]
    index = segment[1:]
    if index == "1":
        return side + "2"
    if index == "2":
        return side + "1"
    return side


def fits(board: Board, tile: Tile, pos: Pos, rotation: int) -> bool:
    """Whether ``tile`` turned ``rotation`` may go on the empty cell ``pos``.

    The cell must be empty and share at least one side with a placed tile, and every
    shared side must have the same edge type on both tiles. Edge types carry the whole
    segment structure (a river side is always meadow | river | meadow), so equal types
    mean all segments match.
    """
    if pos in board:
        return False
    edges = rotate_edges(tile.edges, rotation)
    touching = False
    for i, side in enumerate(SIDES):
        other = board.get(neighbour(pos, side))
        if other is None:
            continue
        touching = True
        if other.edges[SIDES.index(OPPOSITE[side])] != edges[i]:
            return False
    return touching


def frontier(board: Board) -> list[Pos]:
    """Empty positions sharing a side with a placed tile, sorted by (y, x)."""
    cells: set[Pos] = set()
    for pos in board:
        for _, near in neighbours(pos):
            if near not in board:
                cells.add(near)
    return sorted(cells, key=lambda p: (p[1], p[0]))


def legal_placements(
    board: Board, tile: Tile, cells: Iterable[Pos] | None = None
) -> list[tuple[Pos, int]]:
    """Every ``(position, rotation)`` where ``tile`` fits, by (y, x, rotation).

    Only the frontier (or the given ``cells``) is examined, so the cost is
    proportional to the map's perimeter. A tile whose turns look alike (e.g. all
    meadow) is listed once per rotation: the rotations are different placements.
    """
    found: list[tuple[Pos, int]] = []
    for pos in frontier(board) if cells is None else cells:
        if pos in board:
            continue
        # What each side needs ("." where there is no neighbour).
        need = "".join(
            "." if (other := board.get(neighbour(pos, side))) is None
            else other.edges[OPPOSITE_INDEX[side]]
            for side in SIDES
        )
        if need != "....":
            found.extend((pos, rotation) for rotation in rotations_fitting(need, tile.edges))
    return found


def facing_edges(board: Board, pos: Pos) -> str:
    """What lies across each side of ``pos``, in N, E, S, W order: the edge type (F, M,
    R) of the neighbour's facing side, or ``.`` where there is no neighbour."""
    x, y = pos
    get = board.get
    north, east, south, west = get((x, y - 1)), get((x + 1, y)), get((x, y + 1)), get((x - 1, y))
    return ("." if north is None else north.edges[2]) + ("." if east is None else east.edges[3]) \
        + ("." if south is None else south.edges[0]) + ("." if west is None else west.edges[1])


# A constant table, not state: pure, over at most 4^4 needs x 3^4 edge codes.
@cache
def rotations_fitting(need: str, edges: str) -> tuple[int, ...]:
    """Rotations of a tile with ``edges`` that meet ``need`` ("." = anything).

    There are few distinct needs and edge codes, so this is computed once per pair and
    placement search becomes look-ups.
    """
    return tuple(
        r for r in ROTATIONS
        if all(n == "." or n == e for n, e in zip(need, rotate_edges(edges, r), strict=True))
    )


class _Fitting(dict[str, tuple[int, ...]]):
    """``rotations_fitting(need, edges)`` by need, for one ``edges``, each need worked
    out when first asked for (a plain look-up after that)."""

    __slots__ = ("edges",)

    def __init__(self, edges: str) -> None:
        super().__init__()
        self.edges = edges

    def __missing__(self, need: str) -> tuple[int, ...]:
        found = self[need] = rotations_fitting(need, self.edges)
        return found


# A constant table, not state: one per edge code of the game's tiles (40 of them).
@cache
def fitting(edges: str) -> Mapping[str, tuple[int, ...]]:
    """``rotations_fitting(need, edges)`` by need, as a mapping: a dict look-up per
    cell, where the frontier is searched for a tile's spots."""
    return _Fitting(edges)


def can_place(board: Board, tile: Tile) -> bool:
    """Whether ``tile`` fits anywhere (a land tile that does not is set aside)."""
    return bool(legal_placements(board, tile))


def mismatches(board: Board) -> list[tuple[Pos, str]]:
    """``(position, side)`` of every shared side whose edge types differ (should be none)."""
    out: list[tuple[Pos, str]] = []
    for pos, placed in board.items():
        for i, side in enumerate(SIDES):
            other = board.get(neighbour(pos, side))
            if other is not None and other.edges[SIDES.index(OPPOSITE[side])] != placed.edges[i]:
                out.append((pos, side))
    return out


def is_connected(board: Board) -> bool:
    """Whether every placed tile is reachable from every other through shared sides."""
    if not board:
        return True
    start = next(iter(board))
    seen = {start}
    todo = [start]
    while todo:
        pos = todo.pop()
        for _, near in neighbours(pos):
            if near in board and near not in seen:
                seen.add(near)
                todo.append(near)
    return len(seen) == len(board)
