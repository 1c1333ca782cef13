"""The map of a game state: placed tiles, their features, legal spots and figures.

This joins the stored state (tile ids, rotations, figures) to the geometry and
feature tables. Feature structures are rebuilt from the board rather than stored, so
the saved game holds only what a player could see on the table.
"""

from __future__ import annotations

from collections import Counter, OrderedDict
from functools import lru_cache

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


def board_key(state: HuntersGatherersState) -> BoardKey:
    """A hashable summary of the placed tiles, for caching."""
    return tuple((t.x, t.y, t.tile, t.rotation) for t in state.tiles)


def board_of(state: HuntersGatherersState) -> dict[Pos, Placement]:
    """The placed tiles by position."""
    return _board(board_key(state))


@lru_cache(maxsize=64)
def _board(key: BoardKey) -> dict[Pos, Placement]:
    return {(x, y): Placement(tile(t), r) for x, y, t, r in key}


# Features by board, most recent last. Filled by ``remember`` after each tile is laid,
# so a game in progress never rebuilds its features from scratch.
_FEATURES: OrderedDict[BoardKey, Features] = OrderedDict()
_FEATURES_KEPT = 64


def _features(key: BoardKey) -> Features:
    found = _FEATURES.get(key)
    if found is None:
        found = Features.from_board(_board(key))
        _remember(key, found)
    else:
        _FEATURES.move_to_end(key)
    return found


def _remember(key: BoardKey, features: Features) -> None:
    _FEATURES[key] = features
    while len(_FEATURES) > _FEATURES_KEPT:
        _FEATURES.popitem(last=False)


def remember_features(state: HuntersGatherersState, features: Features) -> None:
    """Record ``features`` as those of the state's current board (after laying a tile)."""
    _remember(board_key(state), features)


def features_of(state: HuntersGatherersState) -> Features:
    """The features of the placed tiles (shared and cached: never call ``place`` on it)."""
    return _features(board_key(state))


def features_with(
    state: HuntersGatherersState, pos: Pos, tile_id: str, rotation: int
) -> tuple[Features, list[Node]]:
    """The features with one more tile, and the features it completes (shared, cached)."""
    return _features_with(board_key(state), pos, tile_id, rotation)


@lru_cache(maxsize=16)
def _features_with(
    key: BoardKey, pos: Pos, tile_id: str, rotation: int
) -> tuple[Features, list[Node]]:
    features = _features(key).copy()
    completed = features.place(pos, Placement(tile(tile_id), rotation))
    return features, completed


def spots(state: HuntersGatherersState) -> list[tuple[Pos, list[int]]]:
    """Where the tile in hand fits: positions by (y, x), each with its legal rotations."""
    if state.current is None:
        return []
    return _spots(board_key(state), state.current)


@lru_cache(maxsize=64)
def _frontier(key: BoardKey) -> tuple[Pos, ...]:
    # The same map is searched for many tiles (discards, bonus tiles, every prompt).
    return tuple(frontier(_board(key)))


@lru_cache(maxsize=64)
def _spots(key: BoardKey, tile_id: str) -> list[tuple[Pos, list[int]]]:
    out: list[tuple[Pos, list[int]]] = []
    for pos, rotation in legal_placements(_board(key), tile(tile_id), _frontier(key)):
        if out and out[-1][0] == pos:
            out[-1][1].append(rotation)
        else:
            out.append((pos, [rotation]))
    return out


def fits_somewhere(state: HuntersGatherersState, tile_id: str) -> bool:
    """Whether a tile could be laid on the current map."""
    key = board_key(state)
    return bool(legal_placements(_board(key), tile(tile_id), _frontier(key)))


def node_of(figure: Figure) -> Node:
    """The feature piece a figure stands on."""
    return ((figure.x, figure.y), figure.feature, figure.index)


def member_root(features: Features, figure: Figure) -> Node:
    """The connected feature a tribe member belongs to."""
    return features.find(node_of(figure))


def hut_root(features: Features, figure: Figure) -> Node:
    """The river system a hut belongs to."""
    return features.system_root(node_of(figure))


def pieces(placed: Tile, feature: FeatureKind) -> int:
    """How many pieces of that feature the (rotated) tile has."""
    if feature == "forest":
        return len(placed.forests)
    if feature == "river":
        return len(placed.rivers)
    if feature == "meadow":
        return len(placed.meadows)
    return len(placed.lakes)


def occupied(features: Features, figures: list[Figure], kind: FigureKind, node: Node) -> bool:
    """Whether a figure of ``kind`` may not go on ``node`` because its feature is taken.

    Tribe members block only tribe members of the same feature; huts block huts in
    the whole river system. Huts and fishermen ignore each other.
    """
    if kind == "hut":
        root = features.system_root(node)
        return any(f.kind == "hut" and hut_root(features, f) == root for f in figures)
    root = features.find(node)
    return any(
        f.kind == kind and member_root(features, f) == root for f in figures
    )


def owners(features: Features, figures: list[Figure], kind: FigureKind, root: Node) -> list[int]:
    """The seats with most figures of ``kind`` on the feature ``root`` (ties share)."""
    counts: Counter[int] = Counter()
    for f in figures:
        if f.kind != kind:
            continue
        here = hut_root(features, f) if kind == "hut" else member_root(features, f)
        if here == root:
            counts[f.seat] += 1
    if not counts:
        return []
    top = max(counts.values())
    return sorted(seat for seat, n in counts.items() if n == top)


def special_positions(state: HuntersGatherersState, special: str) -> list[Pos]:
    """Positions of placed tiles that carry a special feature (fire, shrine…)."""
    return [(t.x, t.y) for t in state.tiles if special in tile(t.tile).specials]
