"""Connected features across the map: forests, rivers, meadows and river systems.

A *node* is one feature piece of one placed tile: ``(position, kind, index)`` where the
index is into that tile's ``forests``, ``rivers`` or ``meadows`` list (or, for lakes,
kind ``lake`` and the lake's position in ``lakes``). Pieces that touch across a border
(A.X1 <-> B.Y2, A.X <-> B.Y, A.X2 <-> B.Y1) are joined with a union-find; each group
keeps its totals and the number of its *open* border segments (facing an empty cell).

- A forest is complete when it has no open segment.
- A river (river pieces joined through river sides; lakes and springs end it) is
  complete when it has no open side: both ends at a spring or lake, or a loop.
- A river system (rivers joined through lakes too, for huts) stops only at springs
  and open sides.

The structure is rebuilt from the board (``Features.from_board``) or grown tile by
tile with ``place``; the result does not depend on the order of placement.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from types import MappingProxyType

from engine.hunters_gatherers.geometry import (
    OFFSETS,
    Board,
    Placement,
    Pos,
    facing_segment,
)
from engine.hunters_gatherers.tiles import Tile, iter_segments, segment_side

Node = tuple[Pos, str, int]


@dataclass(slots=True)
class Feature:
    """Totals of one connected feature (or river system).

    ``pieces`` counts the feature pieces (nodes) joined into it: a tile may carry several
    separate pieces of one kind (two forests, three rivers), and when one feature runs
    through two of them that tile counts twice here but once in ``tiles``. A river
    system counts its river pieces and lakes.
    """

    kind: str
    tiles: set[Pos] = field(default_factory=set)
    pieces: int = 1
    open_segments: int = 0
    gold: int = 0
    mushrooms: int = 0
    springs: int = 0
    lakes: dict[tuple[Pos, str], int] = field(default_factory=dict)
    # Animal counts by kind, an animal the feature has none of left out (a plain dict:
    # a feature is made for every piece of every tile laid, and a Counter costs more).
    animals: dict[str, int] = field(default_factory=dict)

    @property
    def fish(self) -> int:
        """Fish in its lakes (the end lakes of a river; every lake of a river system)."""
        return sum(self.lakes.values())

    @property
    def complete(self) -> bool:
        """No open border segment: a closed forest, a river ended at both ends or a loop."""
        return self.open_segments == 0


# A constant table, not state: one entry per oriented tile (the game's tiles x 4 turns).
@cache
def segment_owners(tile: Tile) -> Mapping[str, tuple[str, int]]:
    """For an oriented tile: border segment -> (feature kind, index)."""
    return MappingProxyType({seg: (kind, i) for seg, kind, i in iter_segments(tile)})


def _piece_nodes(pos: Pos, tile: Tile) -> list[Node]:
    """The nodes of every feature piece of ``tile`` at ``pos``: its forests, then its
    rivers, then its meadows, each in the tile's order."""
    return [(pos, kind, i) for kind, i in _plan(tile).pieces]


@dataclass(frozen=True, slots=True)
class _Plan:
    """What laying an oriented tile does, read off the tile once (``_plan``).

    ``pieces``: (kind, index) of every feature piece, in ``_piece_nodes`` order;
    ``forests``: (index, gold, mushrooms); ``meadows``: (index, animals);
    ``lakes``: (index, lake id, fish); ``rivers``: (index, springs, its lakes as
    (lake id, fish)); ``borders``: for every border segment (in ``segment_owners``
    order) the segment, its owner (kind, index), the offset (dx, dy) of the neighbour
    across it and the neighbour's segment it touches.
    """

    pieces: tuple[tuple[str, int], ...]
    forests: tuple[tuple[int, int, int], ...]
    meadows: tuple[tuple[int, dict[str, int]], ...]
    lakes: tuple[tuple[int, str, int], ...]
    rivers: tuple[tuple[int, int, tuple[tuple[str, int], ...]], ...]
    borders: tuple[tuple[str, str, int, int, int, str], ...]


# A constant table, not state: one entry per oriented tile (the game's tiles x 4 turns).
@cache
def _plan(tile: Tile) -> _Plan:
    return _Plan(
        pieces=tuple((kind, i) for kind, items in (
            ("forest", tile.forests), ("river", tile.rivers), ("meadow", tile.meadows),
        ) for i in range(len(items))),
        forests=tuple((i, f.gold, f.mushrooms) for i, f in enumerate(tile.forests)),
        meadows=tuple((i, dict(m.animals)) for i, m in enumerate(tile.meadows)),
        lakes=tuple((i, lake.id, lake.fish) for i, lake in enumerate(tile.lakes)),
        rivers=tuple((i, r.springs, tuple((lake_id, tile.lake(lake_id).fish)
                                          for lake_id in r.lakes))
                     for i, r in enumerate(tile.rivers)),
        borders=tuple((seg, kind, i, *OFFSETS[segment_side(seg)], facing_segment(seg))
                      for seg, (kind, i) in segment_owners(tile).items()),
    )


class Features:
    """Union-find of the features of a growing map.

    Copies share their totals (``Feature`` objects) until one of them changes a total:
    only the totals an instance made itself (its *owned* roots) are changed in place,
    any other is cloned first. So a copy costs a few dict copies, and laying a tile on
    a copy clones only the few features the tile touches.
    """

    def __init__(self) -> None:
        self.board: dict[Pos, Placement] = {}
        self._parent: dict[Node, Node] = {}
        self._data: dict[Node, Feature] = {}
        self._sys_parent: dict[Node, Node] = {}
        self._sys_data: dict[Node, Feature] = {}
        # Roots whose totals no other instance holds (safe to change in place).
        self._owned: set[Node] = set()
        self._sys_owned: set[Node] = set()

    @classmethod
    def from_board(cls, board: Board) -> Features:
        """The features of a whole board."""
        features = cls()
        for pos, placement in board.items():
            features.place(pos, placement)
        return features

    def copy(self) -> Features:
        """An independent copy: the totals are shared, so from now on neither this
        instance nor the copy changes one without cloning it first."""
        other = Features()
        other.board = dict(self.board)
        other._parent = dict(self._parent)
        other._data = dict(self._data)
        other._sys_parent = dict(self._sys_parent)
        other._sys_data = dict(self._sys_data)
        self._owned = set()
        self._sys_owned = set()
        return other

    # --- union-find ---------------------------------------------------------------

    @staticmethod
    def _find(parent: dict[Node, Node], node: Node) -> Node:
        root = node
        while parent[root] != root:
            root = parent[root]
        while parent[node] != root:
            parent[node], node = root, parent[node]
        return root

    @staticmethod
    def _writable(data: dict[Node, Feature], owned: set[Node], root: Node) -> Feature:
        """The totals of ``root``, cloned first unless this instance owns them."""
        found = data[root]
        if root not in owned:
            found = data[root] = _clone(found)
            owned.add(root)
        return found

    @classmethod
    def _union(
        cls, parent: dict[Node, Node], data: dict[Node, Feature], owned: set[Node],
        a: Node, b: Node,
    ) -> Node:
        ra, rb = cls._find(parent, a), cls._find(parent, b)
        if ra == rb:
            return ra
        if len(data[ra].tiles) < len(data[rb].tiles):
            ra, rb = rb, ra
        parent[rb] = ra
        _merge(cls._writable(data, owned, ra), data.pop(rb))
        owned.discard(rb)
        return ra

    def _open(self, node: Node, change: int) -> None:
        """Change the open segments of the feature holding ``node`` (a piece)."""
        self._writable(self._data, self._owned, self.find(node)).open_segments += change

    def _sys_open(self, node: Node, change: int) -> None:
        """Change the open segments of the river system holding ``node``."""
        root = self._find(self._sys_parent, node)
        self._writable(self._sys_data, self._sys_owned, root).open_segments += change

    def find(self, node: Node) -> Node:
        """The representative node of the feature holding ``node``."""
        return self._find(self._parent, node)

    def feature(self, node: Node) -> Feature:
        """The connected feature holding ``node`` (a forest, river or meadow piece)."""
        return self._data[self.find(node)]

    def system(self, node: Node) -> Feature:
        """The river system holding a river piece or lake node ``(pos, 'lake', index)``."""
        return self._sys_data[self._find(self._sys_parent, node)]

    def system_root(self, node: Node) -> Node:
        """The representative node of the river system holding a river piece or lake."""
        return self._find(self._sys_parent, node)

    def roots(self, kind: str) -> list[Node]:
        """Representative nodes of every feature of that kind."""
        return sorted(root for root, data in self._data.items() if data.kind == kind)

    def same(self, a: Node, b: Node) -> bool:
        """Whether two pieces belong to the same feature."""
        return self.find(a) == self.find(b)

    # --- growing the map ----------------------------------------------------------

    def place(self, pos: Pos, placement: Placement) -> list[Node]:
        """Add a tile; the roots of forests and rivers this tile has completed.

        The placement is not checked against the rules (see ``geometry.fits``).
        """
        if pos in self.board:
            raise ValueError(f"{pos} is already occupied")
        self.board[pos] = placement
        plan = _plan(placement.oriented)
        data, sys_data = self._data, self._sys_data
        nodes: list[Node] = [(pos, kind, i) for kind, i in plan.pieces]
        for node in nodes:
            self._parent[node] = node
            data[node] = Feature(kind=node[1], tiles={pos})
        self._owned.update(nodes)
        for i, gold, mushrooms in plan.forests:
            forest = data[(pos, "forest", i)]
            forest.gold, forest.mushrooms = gold, mushrooms
        for i, animals in plan.meadows:
            data[(pos, "meadow", i)].animals.update(animals)
        lake_nodes: dict[str, Node] = {}
        for i, lake_id, fish in plan.lakes:
            lake_node: Node = (pos, "lake", i)
            lake_nodes[lake_id] = lake_node
            self._sys_parent[lake_node] = lake_node
            sys_data[lake_node] = Feature(kind="system", tiles={pos}, lakes={(pos, lake_id): fish})
            self._sys_owned.add(lake_node)
        for i, springs, lakes in plan.rivers:
            river_node: Node = (pos, "river", i)
            river = data[river_node]
            river.springs = springs
            for lake_id, fish in lakes:
                river.lakes[(pos, lake_id)] = fish
            self._sys_parent[river_node] = river_node
            sys_data[river_node] = Feature(kind="system", tiles={pos}, springs=springs)
            self._sys_owned.add(river_node)
            for lake_id, _ in lakes:
                self._union(self._sys_parent, sys_data, self._sys_owned,
                            river_node, lake_nodes[lake_id])

        x, y = pos
        board = self.board
        # Open segments only ever add up, so each piece of the new tile counts its change
        # (+1 for a side facing an empty cell, -1 for a neighbour's side it closes) and
        # the sum goes once to the feature the piece ends up in, after the joins.
        changes: dict[Node, int] = {}
        for seg, kind, i, dx, dy, facing in plan.borders:
            node = (pos, kind, i)
            near = (x + dx, y + dy)
            other = board.get(near)
            if other is None:
                changes[node] = changes.get(node, 0) + 1
                continue
            other_kind, other_i = segment_owners(other.oriented)[facing]
            if other_kind != kind:
                raise ValueError(f"{pos} {seg} meets a {other_kind} at {near}")
            changes[node] = changes.get(node, 0) - 1
            other_node: Node = (near, other_kind, other_i)
            self._union(self._parent, data, self._owned, node, other_node)
            if kind == "river":
                self._union(self._sys_parent, sys_data, self._sys_owned, node, other_node)
        for node, change in changes.items():
            if change:
                self._open(node, change)
                if node[1] == "river":
                    self._sys_open(node, change)

        completed: list[Node] = []
        for node in nodes:
            root = self.find(node)
            found = data[root]
            if found.kind in ("forest", "river") and found.complete and root not in completed:
                completed.append(root)
        return completed

    def features_at(self, pos: Pos) -> list[Node]:
        """Roots of every feature with a piece on the tile at ``pos`` (no repeats)."""
        tile = self.board[pos].oriented
        out: list[Node] = []
        for node in _piece_nodes(pos, tile):
            root = self.find(node)
            if root not in out:
                out.append(root)
        return out


def _clone(data: Feature) -> Feature:
    return Feature(
        kind=data.kind,
        tiles=set(data.tiles),
        pieces=data.pieces,
        open_segments=data.open_segments,
        gold=data.gold,
        mushrooms=data.mushrooms,
        springs=data.springs,
        lakes=dict(data.lakes),
        animals=dict(data.animals),
    )


def _merge(into: Feature, other: Feature) -> None:
    """Join ``other``'s totals into ``into`` (lakes and their fish counted once)."""
    into.tiles |= other.tiles
    into.pieces += other.pieces
    into.open_segments += other.open_segments
    into.gold += other.gold
    into.mushrooms += other.mushrooms
    into.springs += other.springs
    into.lakes.update(other.lakes)
    animals = into.animals
    for kind, count in other.animals.items():
        animals[kind] = animals.get(kind, 0) + count

