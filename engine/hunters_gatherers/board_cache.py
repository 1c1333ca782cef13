"""Memos of what a map implies (board, features, frontier, legal spots), owned by a game.

Everything memoised here depends on the placed tiles alone, so every entry is keyed by
``board_key`` (the tiles' positions, ids and rotations): the cache is content-addressed
and can never hand one game another game's map, and games may share one cache. Each
memo is bounded and forgets its least recently used entry first.

A map's facts (``MapFacts``) are derived from those of the map one tile smaller when
the cache still holds them: the trial placement of the figure step is the next map, so
a game in progress works out each map once, a tile at a time.

The cache belongs to the ``HuntersGatherers`` game object and is passed explicitly to
the functions that need it; nothing is kept at module level. It is not thread-safe
(the bot drives games from one event loop).
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Hashable, Mapping
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from engine.hunters_gatherers.board import BoardKey, Spots, board_key
from engine.hunters_gatherers.features import Features, Node
from engine.hunters_gatherers.geometry import Placement, Pos
from engine.hunters_gatherers.map_facts import MapFacts
from engine.hunters_gatherers.state import HuntersGatherersState
from engine.hunters_gatherers.tiles import tile

if TYPE_CHECKING:
    from functools import _lru_cache_wrapper

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")

# How many entries each memo keeps. A game in progress needs only its current map
# (and the one before it); the margin covers many games played interleaved.
MAPS_KEPT = 64
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
    """Bounded memos of maps' facts and of legal spots, by board key.

    The facts of each map are an ``Lru`` (a map is derived from the one before it, which
    the memo must be asked for without computing it); the spots and their notes are
    ``functools.lru_cache`` wrappers made for this instance alone, as fast as a
    module-level cache. Values are shared between callers: never mutate a board, a
    ``Features`` (other than through its own lookups) or a spot list obtained here.
    """

    __slots__ = ("_maps", "_notes", "_spots")

    def __init__(self) -> None:
        self._maps: Lru[BoardKey, MapFacts] = Lru(MAPS_KEPT)
        # The same map is searched for many tiles (discards, bonus tiles, every prompt).
        self._spots: _lru_cache_wrapper[Spots] = lru_cache(maxsize=SPOTS_KEPT)(self._find_spots)
        self._notes: _lru_cache_wrapper[tuple[dict[str, Any], ...]] = lru_cache(
            maxsize=SPOTS_KEPT
        )(self._note_spots)

    # --- what the memos compute, by key -----------------------------------------------

    def _facts(self, key: BoardKey) -> MapFacts:
        found = self._maps.get(key)
        if found is None:
            smaller = self._maps.get(key[:-1]) if key else None
            found = self._maps.put(
                key, MapFacts.of(key) if smaller is None else smaller.extended(key[-1]))
        return found

    def _find_spots(self, key: BoardKey, tile_id: str) -> Spots:
        return self._facts(key).spots(tile(tile_id).edges)

    def _note_spots(self, key: BoardKey, tile_id: str) -> tuple[dict[str, Any], ...]:
        needs = self._facts(key).needs
        return tuple({"x": pos[0], "y": pos[1], "touch": needs[pos], "rotations": list(rots)}
                     for pos, rots in self._spots(key, tile_id))

    # --- by state -------------------------------------------------------------------

    def board(self, state: HuntersGatherersState) -> dict[Pos, Placement]:
        """The placed tiles by position (shared: do not modify)."""
        return self._facts(board_key(state)).board

    def features(self, state: HuntersGatherersState) -> Features:
        """The features of the placed tiles (shared: never call ``place`` on it)."""
        return self._facts(board_key(state)).features

    def features_with(
        self, state: HuntersGatherersState, pos: Pos, tile_id: str, rotation: int
    ) -> tuple[Features, list[Node]]:
        """The features with one more tile, and the features it completes (shared):
        the facts of the map that laying it makes."""
        facts = self._facts((*board_key(state), (pos[0], pos[1], tile_id, rotation)))
        return facts.features, facts.completed

    def needs(self, state: HuntersGatherersState) -> Mapping[Pos, str]:
        """The frontier: every empty cell next to a tile, with what lies across its
        sides (``geometry.facing_edges``; shared: do not modify)."""
        return self._facts(board_key(state)).needs

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
        return self._facts(board_key(state)).fits(tile(tile_id).edges)

    # --- upkeep ---------------------------------------------------------------------

    def sizes(self) -> dict[str, int]:
        """How many entries each memo holds now (never more than ``bounds``)."""
        return {
            "maps": len(self._maps),
            "spots": self._spots.cache_info().currsize,
            "spot_notes": self._notes.cache_info().currsize,
        }

    def bounds(self) -> dict[str, int]:
        """The most entries each memo may hold (same names as ``sizes``)."""
        return {"maps": MAPS_KEPT, "spots": SPOTS_KEPT, "spot_notes": SPOTS_KEPT}

    def clear(self) -> None:
        """Forget everything (answers stay the same, only slower until refilled)."""
        self._maps.clear()
        self._spots.cache_clear()
        self._notes.cache_clear()
