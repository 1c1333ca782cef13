"""What one map implies, worked out once: the tiles by position, their connected
features, what the last tile laid completed, and the frontier with what each of its
cells needs.

The facts of a map are derived from those of the map one tile smaller
(``MapFacts.extended``) when they are at hand — laying a tile changes only the features
it touches and the frontier round it — and built from the tiles otherwise
(``MapFacts.of``); both ways give the same facts, since the tiles are laid in the same
order. Facts are shared by everyone who asks about the same map: never change them.
"""

from __future__ import annotations

from bisect import bisect_left, insort
from collections.abc import Sequence
from operator import is_, itemgetter
from typing import Any

from engine.hunters_gatherers.board import BoardKey, Claims, Spots, taken
from engine.hunters_gatherers.coords import Naming
from engine.hunters_gatherers.features import Features, Node
from engine.hunters_gatherers.geometry import (
    Placement,
    Pos,
    facing_edges,
    fitting,
    frontier,
    neighbours,
)
from engine.hunters_gatherers.state import Figure
from engine.hunters_gatherers.tiles import tile

# One placed tile as a board key lists it: x, y, tile id, rotation.
Laid = tuple[int, int, str, int]

# The frontier's order everywhere (prompts, views): by row, then column.
_ROW_MAJOR = itemgetter(1, 0)


class MapFacts:
    """The facts of one map (see the module); read-only once made.

    ``board`` is the placed tiles by position (the features' own board), ``completed``
    the roots of the forests and rivers the last tile laid completed, and ``needs``
    every empty cell next to a tile with what lies across each of its sides (N, E, S, W:
    an edge type, or ``.`` where no tile is; ``geometry.facing_edges``).
    """

    __slots__ = ("_by_cell", "_cells", "_claims", "_distinct_needs", "_notes", "_spots",
                 "board", "completed", "features", "needs")

    def __init__(self, features: Features, completed: list[Node], needs: dict[Pos, str]) -> None:
        self.features = features
        self.board = features.board
        self.completed = completed
        self.needs = needs
        self._cells: tuple[Pos, ...] | None = None
        self._distinct_needs: frozenset[str] | None = None
        # Answers by the edges of the tile asked about (a map is asked about few tiles).
        self._spots: dict[str, Spots] = {}
        self._by_cell: dict[str, dict[Pos, list[int]]] = {}
        self._notes: dict[tuple[str, Naming], tuple[dict[str, Any], ...]] = {}
        # The figures last asked about (kept, so compared by identity) and their claims.
        self._claims: tuple[tuple[Figure, ...], Claims] | None = None

    @classmethod
    def of(cls, tiles: BoardKey) -> MapFacts:
        """The facts of the map of ``tiles``, laid in that order."""
        features = Features()
        completed: list[Node] = []
        for x, y, tile_id, rotation in tiles:
            completed = features.place((x, y), Placement(tile(tile_id), rotation))
        board = features.board
        return cls(features, completed, {cell: facing_edges(board, cell)
                                         for cell in frontier(board)})

    def extended(self, laid: Laid) -> MapFacts:
        """The facts of this map with one more tile ``laid`` (this map stays as it is)."""
        x, y, tile_id, rotation = laid
        pos = (x, y)
        features = self.features.copy()
        completed = features.place(pos, Placement(tile(tile_id), rotation))
        board = features.board
        needs = dict(self.needs)
        needs.pop(pos, None)
        cells = None if self._cells is None else list(self._cells)
        if cells is not None and pos in self.needs:
            del cells[bisect_left(cells, (pos[1], pos[0]), key=_ROW_MAJOR)]
        # Only the cells round the new tile gain a neighbour (or join the frontier).
        for _, near in neighbours(pos):
            if near not in board:
                if cells is not None and near not in needs:
                    insort(cells, near, key=_ROW_MAJOR)
                needs[near] = facing_edges(board, near)
        grown = MapFacts(features, completed, needs)
        if cells is not None:  # the frontier's order kept up, not sorted again
            grown._cells = tuple(cells)
        return grown

    @property
    def cells(self) -> tuple[Pos, ...]:
        """The frontier by row, then column (``geometry.frontier``'s order)."""
        if self._cells is None:
            self._cells = tuple(sorted(self.needs, key=_ROW_MAJOR))
        return self._cells

    def spots(self, edges: str) -> Spots:
        """Where a tile with ``edges`` fits: frontier cells in order, each with the
        rotations that fit there (``geometry.legal_placements``, grouped by cell;
        memoised and shared: do not modify)."""
        found = self._spots.get(edges)
        if found is None:
            needs, fits = self.needs, fitting(edges)
            found = self._spots[edges] = [(cell, list(rotations)) for cell in self.cells
                                          if (rotations := fits[needs[cell]])]
        return found

    def spot_rotations(self, edges: str) -> dict[Pos, list[int]]:
        """``spots(edges)`` by cell (memoised and shared: do not modify)."""
        found = self._by_cell.get(edges)
        if found is None:
            found = self._by_cell[edges] = dict(self.spots(edges))
        return found

    def spot_notes(self, edges: str, names: Naming) -> tuple[dict[str, Any], ...]:
        """Each spot of ``spots(edges)`` as the spot prompt's label describes it: ``x``,
        ``y``, ``at`` (its name in ``names``), ``touch`` (its need) and the ``rotations``
        that fit (the list of ``spots``; memoised and shared: do not modify)."""
        found = self._notes.get((edges, names))
        if found is None:
            needs, square_name = self.needs, names.square_name
            found = self._notes[(edges, names)] = tuple([
                {"x": pos[0], "y": pos[1], "touch": needs[pos], "rotations": rotations,
                 "at": square_name(pos)}
                for pos, rotations in self.spots(edges)])
        return found

    def fits(self, edges: str) -> bool:
        """Whether a tile with ``edges`` fits anywhere: cells with equal needs fit
        alike, so each distinct need is tried once."""
        fits = fitting(edges)
        return any(fits[need] for need in self.distinct_needs)

    def claims(self, figures: Sequence[Figure]) -> Claims:
        """What ``figures`` claim on this map (``board.taken``), memoised for the figures
        last asked about: a turn asks its trial map about the same figures again and
        again (whether a figure may go on the tile, where, whether the one chosen may).
        Figures are frozen, so the same ones in the same order claim the same."""
        last = self._claims
        if last is not None and len(last[0]) == len(figures) and all(
                map(is_, last[0], figures)):
            return last[1]
        found = taken(self.features, figures)
        self._claims = (tuple(figures), found)
        return found

    @property
    def distinct_needs(self) -> frozenset[str]:
        """Every need of the frontier once (cells with equal needs fit alike)."""
        if self._distinct_needs is None:
            self._distinct_needs = frozenset(self.needs.values())
        return self._distinct_needs
