"""The map of a game state: placed tiles, their features, legal spots and figures.

This joins the stored state (tile ids, rotations, figures) to the geometry and
feature tables. Feature structures are rebuilt from the board rather than stored, so
the saved game holds only what a player could see on the table.

Everything here is a plain function of its arguments and keeps nothing between calls;
a game memoises the expensive parts (board, features, frontier, spots) in its own
``BoardCache`` (``board_cache``), keyed by ``board_key``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from operator import attrgetter

from engine.hunters_gatherers.features import Features, Node
from engine.hunters_gatherers.geometry import Placement, Pos, frontier, legal_placements
from engine.hunters_gatherers.state import FeatureKind, Figure, FigureKind, HuntersGatherersState
from engine.hunters_gatherers.tiles import Tile, tile

# Which feature each kind of figure stands on.
FEATURE_OF: dict[FigureKind, FeatureKind] = {
    "gatherer": "forest",
    "fisher": "river",
    "hunter": "meadow",
    "hut": "river",
}
MEMBER_KINDS: tuple[FigureKind, ...] = ("gatherer", "fisher", "hunter")

BoardKey = tuple[tuple[int, int, str, int], ...]
Spots = list[tuple[Pos, list[int]]]


# A placed tile's part of a board key (attrgetter: the key is made for every question).
_LAID = attrgetter("x", "y", "tile", "rotation")


def board_key(state: HuntersGatherersState) -> BoardKey:
    """A hashable summary of the placed tiles: everything the map depends on, for caching."""
    return tuple(map(_LAID, state.tiles))


def board_at(key: BoardKey) -> dict[Pos, Placement]:
    """The placed tiles by position, for a ``board_key``."""
    return {(x, y): Placement(tile(t), r) for x, y, t, r in key}


def board_of(state: HuntersGatherersState) -> dict[Pos, Placement]:
    """The placed tiles by position (built afresh; a game asks its ``BoardCache``)."""
    return board_at(board_key(state))


def group_spots(placements: Iterable[tuple[Pos, int]]) -> Spots:
    """``(position, rotation)`` pairs sorted by position, as positions with their rotations."""
    out: Spots = []
    for pos, rotation in placements:
        if out and out[-1][0] == pos:
            out[-1][1].append(rotation)
        else:
            out.append((pos, [rotation]))
    return out


def spots(state: HuntersGatherersState) -> Spots:
    """Where the tile in hand fits: positions by (y, x), each with its legal rotations.

    Computed afresh; a game asks its ``BoardCache``, which gives the same answer.
    """
    if state.current is None:
        return []
    board = board_of(state)
    return group_spots(legal_placements(board, tile(state.current), frontier(board)))


def node_of(figure: Figure) -> Node:
    """The feature piece a figure stands on."""
    return ((figure.x, figure.y), figure.feature, figure.index)


def member_root(features: Features, figure: Figure) -> Node:
    """The connected feature a tribe member belongs to."""
    return features.find(node_of(figure))


def pieces(placed: Tile, feature: FeatureKind) -> int:
    """How many pieces of that feature the (rotated) tile has."""
    if feature == "forest":
        return len(placed.forests)
    if feature == "river":
        return len(placed.rivers)
    if feature == "meadow":
        return len(placed.meadows)
    return len(placed.lakes)


def claim_root(features: Features, kind: FigureKind, node: Node) -> Node:
    """What a figure of ``kind`` on ``node`` claims: a hut its river system, a tribe
    member its connected feature."""
    return features.system_root(node) if kind == "hut" else features.find(node)


Claims = frozenset[tuple[FigureKind, Node]]


def taken(features: Features, figures: Sequence[Figure]) -> Claims:
    """``(kind, claimed root)`` of every figure on the map (see ``occupied``)."""
    return frozenset([(f.kind, claim_root(features, f.kind, node_of(f))) for f in figures])


def occupied(features: Features, claimed: Claims, kind: FigureKind, node: Node) -> bool:
    """Whether a figure of ``kind`` may not go on ``node`` because its feature is taken,
    ``claimed`` being what the figures on the map claim (``taken``).

    Tribe members block only tribe members of the same feature; huts block huts in
    the whole river system. Huts and fishermen ignore each other.
    """
    return (kind, claim_root(features, kind, node)) in claimed


def owners(features: Features, figures: list[Figure], kind: FigureKind, root: Node) -> list[int]:
    """The seats with most figures of ``kind`` on the feature ``root`` (ties share)."""
    counts: Counter[int] = Counter()
    for f in figures:
        if f.kind != kind:
            continue
        if claim_root(features, kind, node_of(f)) == root:
            counts[f.seat] += 1
    if not counts:
        return []
    top = max(counts.values())
    return sorted(seat for seat, n in counts.items() if n == top)


def special_positions(state: HuntersGatherersState, special: str) -> list[Pos]:
    """Positions of placed tiles that carry a special feature (fire, shrine…)."""
    return [(t.x, t.y) for t in state.tiles if special in tile(t.tile).specials]
