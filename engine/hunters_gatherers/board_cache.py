"""Memos of what a map implies (board, features, frontier, legal spots), owned by a game.

Everything memoised here depends on the placed tiles alone, so every entry is keyed by
``board_key`` (the tiles' positions, ids and rotations): the cache is content-addressed
and can never hand one game another game's map, and games may share one cache. Each
memo is bounded and forgets its least recently used entry first.

The cache belongs to the ``HuntersGatherers`` game object and is passed explicitly to
the functions that need it; nothing is kept at module level. It is not thread-safe
(the bot drives games from one event loop).
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Hashable
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from engine.hunters_gatherers.board import BoardKey, Spots, board_at, board_key, group_spots
from engine.hunters_gatherers.features import Features, Node
from engine.hunters_gatherers.geometry import (
    Placement,
    Pos,
    facing_edges,
    frontier,
    legal_placements,
)
from engine.hunters_gatherers.state import HuntersGatherersState
from engine.hunters_gatherers.tiles import tile

if TYPE_CHECKING:
    from functools import _lru_cache_wrapper

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")

# How many entries each memo keeps. A game in progress needs only its current board
# (and the one before it); the margin covers many games played interleaved.
BOARDS_KEPT = 64
FEATURES_KEPT = 64
FEATURES_WITH_KEPT = 16
FRONTIERS_KEPT = 64
SPOTS_KEPT = 64


class Lru(Generic[K, V]):
    """A map of at most ``kept`` entries that forgets the least recently used first."""

    __slots__ = ("_entries", "kept")

    def __init__(self, kept: int) -> None:
        if kept < 1:
            raise ValueError(f"an Lru must keep at least one entry, not {kept}")
        self.kept = kept
        self._entries: OrderedDict[K, V] = OrderedDict()

    def get(self, key: K) -> V | None:
        """The value kept for ``key`` (now the most recently used), or None."""
        found = self._entries.get(key)
        if found is not None:
            self._entries.move_to_end(key)
        return found

    def put(self, key: K, value: V) -> V:
        """Keep ``value`` for ``key`` as the most recently used; returns ``value``."""
        entries = self._entries
        entries[key] = value
        entries.move_to_end(key)
        while len(entries) > self.kept:
            entries.popitem(last=False)
        return value

    def __len__(self) -> int:
        """How many entries are kept now."""
        return len(self._entries)

    def __contains__(self, key: object) -> bool:
        """Whether ``key`` is kept (without making it the most recently used)."""
        return key in self._entries

    def clear(self) -> None:
        """Forget every entry."""
        self._entries.clear()


class BoardCache:
    """Bounded memos of boards, features, frontiers and legal spots, by board key.

    The pure memos (board, frontier, spots, features with one more tile) are
    ``functools.lru_cache`` wrappers made for this instance alone, as fast as a
    module-level cache; the features by board are an ``Lru`` because laying a tile
    also stores the features it produced. Values are shared between callers: never
    mutate a board, a ``Features`` (other than through its own lookups) or a spot list
    obtained here.
    """

    __slots__ = ("_board", "_features", "_features_with", "_frontier", "_notes", "_spots")

    def __init__(self) -> None:
        self._board: _lru_cache_wrapper[dict[Pos, Placement]] = lru_cache(
            maxsize=BOARDS_KEPT
        )(board_at)
        # Filled by ``remember_features`` after each tile is laid, so a game in
        # progress never rebuilds its features from scratch.
        self._features: Lru[BoardKey, Features] = Lru(FEATURES_KEPT)
        self._features_with: _lru_cache_wrapper[tuple[Features, list[Node]]] = lru_cache(
            maxsize=FEATURES_WITH_KEPT
        )(self._place)
        # The same map is searched for many tiles (discards, bonus tiles, every prompt).
        self._frontier: _lru_cache_wrapper[tuple[Pos, ...]] = lru_cache(
            maxsize=FRONTIERS_KEPT
        )(self._find_frontier)
        self._spots: _lru_cache_wrapper[Spots] = lru_cache(maxsize=SPOTS_KEPT)(self._find_spots)
        self._notes: _lru_cache_wrapper[tuple[dict[str, Any], ...]] = lru_cache(
            maxsize=SPOTS_KEPT
        )(self._note_spots)

    # --- what the memos compute, by key -----------------------------------------------

    def _features_at(self, key: BoardKey) -> Features:
        found = self._features.get(key)
        if found is None:
            found = self._features.put(key, Features.from_board(self._board(key)))
        return found

    def _place(
        self, key: BoardKey, pos: Pos, tile_id: str, rotation: int
    ) -> tuple[Features, list[Node]]:
        features = self._features_at(key).copy()
        completed = features.place(pos, Placement(tile(tile_id), rotation))
        return features, completed

    def _find_frontier(self, key: BoardKey) -> tuple[Pos, ...]:
        return tuple(frontier(self._board(key)))

    def _find_spots(self, key: BoardKey, tile_id: str) -> Spots:
        return group_spots(legal_placements(self._board(key), tile(tile_id), self._frontier(key)))

    def _note_spots(self, key: BoardKey, tile_id: str) -> tuple[dict[str, Any], ...]:
        board = self._board(key)
        return tuple({"x": pos[0], "y": pos[1], "touch": facing_edges(board, pos),
                      "rotations": list(rots)} for pos, rots in self._spots(key, tile_id))

    # --- by state -------------------------------------------------------------------

    def board(self, state: HuntersGatherersState) -> dict[Pos, Placement]:
        """The placed tiles by position (shared: do not modify)."""
        return self._board(board_key(state))

    def features(self, state: HuntersGatherersState) -> Features:
        """The features of the placed tiles (shared: never call ``place`` on it)."""
        return self._features_at(board_key(state))

    def features_with(
        self, state: HuntersGatherersState, pos: Pos, tile_id: str, rotation: int
    ) -> tuple[Features, list[Node]]:
        """The features with one more tile, and the features it completes (shared)."""
        return self._features_with(board_key(state), pos, tile_id, rotation)

    def remember_features(self, state: HuntersGatherersState, features: Features) -> None:
        """Record ``features`` as those of the state's current board (after laying a tile)."""
        self._features.put(board_key(state), features)

    def spots(self, state: HuntersGatherersState) -> Spots:
        """Where the tile in hand fits: positions by (y, x), each with its legal rotations.

        The same answer as ``board.spots``, memoised (shared: do not modify).
        """
        if state.current is None:
            return []
        return self._spots(board_key(state), state.current)

    def spot_notes(self, state: HuntersGatherersState) -> tuple[dict[str, Any], ...]:
        """Each spot of ``spots`` as the spot prompt's label describes it: ``x``, ``y``,
        ``touch`` (what lies across its sides, see ``geometry.facing_edges``) and the
        ``rotations`` that fit (memoised and shared: do not modify)."""
        if state.current is None:
            return ()
        return self._notes(board_key(state), state.current)

    def fits_somewhere(self, state: HuntersGatherersState, tile_id: str) -> bool:
        """Whether a tile could be laid on the state's current map."""
        key = board_key(state)
        return bool(legal_placements(self._board(key), tile(tile_id), self._frontier(key)))

    # --- upkeep ---------------------------------------------------------------------

    def sizes(self) -> dict[str, int]:
        """How many entries each memo holds now (never more than ``bounds``)."""
        return {
            "boards": self._board.cache_info().currsize,
            "features": len(self._features),
            "features_with": self._features_with.cache_info().currsize,
            "frontiers": self._frontier.cache_info().currsize,
            "spots": self._spots.cache_info().currsize,
            "spot_notes": self._notes.cache_info().currsize,
        }

    def bounds(self) -> dict[str, int]:
        """The most entries each memo may hold (same names as ``sizes``)."""
        return {
            "boards": BOARDS_KEPT,
            "features": FEATURES_KEPT,
            "features_with": FEATURES_WITH_KEPT,
            "frontiers": FRONTIERS_KEPT,
            "spots": SPOTS_KEPT,
            "spot_notes": SPOTS_KEPT,
        }

    def clear(self) -> None:
        """Forget everything (answers stay the same, only slower until refilled)."""
        self._board.cache_clear()
        self._features.clear()
        self._features_with.cache_clear()
        self._frontier.cache_clear()
        self._spots.cache_clear()
        self._notes.cache_clear()
