"""Memos of what a map implies (board, features, frontier, legal spots), owned by a game.

Everything memoised here depends on the placed tiles alone, so every entry is keyed by
``board_key`` (the tiles' positions, ids and rotations): the cache is content-addressed
and can never hand one game another game's map, and games may share one cache. Each
memo is bounded and forgets its least recently used entry first.

A map's facts (``MapFacts``, which memoise the legal spots of the tiles asked about)
are derived from those of the map one tile smaller when the cache still holds them: the
trial placement of the figure step is the next map, so a game in progress works out
each map once, a tile at a time. A state's tiles are a tuple of frozen tiles, so the
facts of a tuple seen lately are found by the tuple itself (``_by_tiles``), and a trial
placement by its map's facts and the tile laid (``_trials``), and the tuple a turn's
tiles grow into is known by the facts of its trial placement (``grown``): the board
key, which reads every tile and costs a hash of every tile to look up, is made and
looked up once per map.

The cache belongs to the ``HuntersGatherers`` game object and is passed explicitly to
the functions that need it; nothing is kept at module level. It is not thread-safe
(the bot drives games from one event loop).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.core.lru import Lru
from engine.hunters_gatherers.board import BoardKey, Spots, board_key
from engine.hunters_gatherers.features import Features
from engine.hunters_gatherers.geometry import Placement, Pos
from engine.hunters_gatherers.map_facts import Laid, MapFacts
from engine.hunters_gatherers.state import HuntersGatherersState, PlacedTile
from engine.hunters_gatherers.tiles import tile

# How many entries each memo keeps. A game in progress needs only its current map
# (and the one before it); the margin covers many games played interleaved.
MAPS_KEPT = 64
TILE_TUPLES_KEPT = 16
TRIALS_KEPT = 16


class BoardCache:
    """Bounded memos of maps' facts, by board key, and two small memos that find the
    facts without a board key (see the module).

    Values are shared between callers: never mutate a board, a ``Features`` (other
    than through its own lookups) or a spot list obtained here.
    """

    __slots__ = ("_by_tiles", "_maps", "_trials")

    def __init__(self) -> None:
        self._maps: Lru[BoardKey, MapFacts] = Lru(MAPS_KEPT)
        # By the id of a state's tiles tuple: that tuple (kept, so the id stays its own;
        # checked by identity), its board key and its facts.
        self._by_tiles: Lru[int, tuple[tuple[PlacedTile, ...], BoardKey, MapFacts]] = Lru(
            TILE_TUPLES_KEPT)
        # By the id of a map's facts and a tile laid on it: those facts (kept and checked
        # like the tuples), the board key and the facts of the map with that tile.
        self._trials: Lru[tuple[int, Laid], tuple[MapFacts, BoardKey, MapFacts]] = Lru(
            TRIALS_KEPT)

    # --- finding the facts ----------------------------------------------------------

    def _facts(self, key: BoardKey) -> MapFacts:
        found = self._maps.get(key)
        if found is None:
            smaller = self._maps.get(key[:-1]) if key else None
            found = self._maps.put(
                key, MapFacts.of(key) if smaller is None else smaller.extended(key[-1]))
        return found

    def _of_state(self, state: HuntersGatherersState) -> tuple[BoardKey, MapFacts]:
        """The board key and facts of the state's map."""
        tiles = state.tiles
        seen = self._by_tiles.get(id(tiles))
        if seen is not None and seen[0] is tiles:
            return seen[1], seen[2]
        key = board_key(state)
        facts = self._facts(key)
        if type(tiles) is tuple:  # only an immutable tuple is known by itself
            self._by_tiles.put(id(tiles), (tiles, key, facts))
        return key, facts

    def facts(self, state: HuntersGatherersState) -> MapFacts:
        """Everything the state's map implies (shared: do not modify)."""
        return self._of_state(state)[1]

    def _trial(self, state: HuntersGatherersState, laid: Laid) -> tuple[BoardKey, MapFacts]:
        """The board key and facts of the state's map with one more tile ``laid``."""
        key, facts = self._of_state(state)
        trial = self._trials.get((id(facts), laid))
        if trial is not None and trial[0] is facts:
            return trial[1], trial[2]
        bigger = (*key, laid)
        found = self._maps.get(bigger)
        if found is None:  # the smaller map's facts are at hand: grow them
            found = self._maps.put(bigger, facts.extended(laid))
        self._trials.put((id(facts), laid), (facts, bigger, found))
        return bigger, found

    def facts_with(self, state: HuntersGatherersState, laid: Laid) -> MapFacts:
        """The facts of the state's map with one more tile ``laid`` (shared)."""
        return self._trial(state, laid)[1]

    def grown(self, state: HuntersGatherersState, placed: PlacedTile
              ) -> tuple[PlacedTile, ...]:
        """The state's tiles with ``placed`` laid after them, as a new tuple whose facts
        (those of the trial placement) the cache knows by the tuple itself."""
        key, facts = self._trial(state, (placed.x, placed.y, placed.tile, placed.rotation))
        tiles = (*state.tiles, placed)
        self._by_tiles.put(id(tiles), (tiles, key, facts))
        return tiles

    # --- by state -------------------------------------------------------------------

    def board(self, state: HuntersGatherersState) -> dict[Pos, Placement]:
        """The placed tiles by position (shared: do not modify)."""
        return self.facts(state).board

    def features(self, state: HuntersGatherersState) -> Features:
        """The features of the placed tiles (shared: never call ``place`` on it)."""
        return self.facts(state).features

    def needs(self, state: HuntersGatherersState) -> Mapping[Pos, str]:
        """The frontier: every empty cell next to a tile, with what lies across its
        sides (``geometry.facing_edges``; shared: do not modify)."""
        return self.facts(state).needs

    def spots(self, state: HuntersGatherersState) -> Spots:
        """Where the tile in hand fits: positions by (y, x), each with its legal rotations.

        The same answer as ``board.spots``, memoised (shared: do not modify).
        """
        if state.current is None:
            return []
        return self.facts(state).spots(tile(state.current).edges)

    def spot_rotations(self, state: HuntersGatherersState) -> Mapping[Pos, list[int]]:
        """``spots`` by position (memoised and shared: do not modify)."""
        if state.current is None:
            return {}
        return self.facts(state).spot_rotations(tile(state.current).edges)

    def spot_notes(self, state: HuntersGatherersState) -> tuple[dict[str, Any], ...]:
        """Each spot of ``spots`` as the spot prompt's label describes it: ``x``, ``y``,
        ``at`` (its name in the game's scheme), ``touch`` (what lies across its sides,
        see ``geometry.facing_edges``) and the ``rotations`` that fit (memoised and
        shared: do not modify)."""
        if state.current is None:
            return ()
        return self.facts(state).spot_notes(tile(state.current).edges, state.names)

    def fits_somewhere(self, state: HuntersGatherersState, tile_id: str) -> bool:
        """Whether a tile could be laid on the state's current map."""
        return self.facts(state).fits(tile(tile_id).edges)

    # --- upkeep ---------------------------------------------------------------------

    def sizes(self) -> dict[str, int]:
        """How many entries each memo holds now (never more than ``bounds``)."""
        return {"maps": len(self._maps), "tile_tuples": len(self._by_tiles),
                "trials": len(self._trials)}

    def bounds(self) -> dict[str, int]:
        """The most entries each memo may hold (same names as ``sizes``)."""
        return {"maps": MAPS_KEPT, "tile_tuples": TILE_TUPLES_KEPT, "trials": TRIALS_KEPT}

    def clear(self) -> None:
        """Forget everything (answers stay the same, only slower until refilled)."""
        self._maps.clear()
        self._by_tiles.clear()
        self._trials.clear()
