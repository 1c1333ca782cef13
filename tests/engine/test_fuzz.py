"""Random legal playouts of every engine that carries a fuzz budget, with every invariant
checked after every action, and JSON round trips in the middle of random games.

One table, one row per game: its player counts, the ways its games may end, how many
games a run plays (and the environment variable that changes it), how far into a game
a round trip may cut, and its state budget where it has one.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.core.protocol import Game
from engine.hunters_gatherers.game import GAME as HUNTERS_GATHERERS
from engine.stone_age.game import GAME as STONE_AGE
from tests.engine.round_trip import (
    CHUNKS,
    assert_round_trip_continues,
    checked_playouts,
    chunk_seeds,
)


@dataclass(frozen=True)
class Fuzz:
    """How one game is fuzzed (see the module)."""

    game: Game[Any]
    players: tuple[int, int]
    endings: frozenset[str]
    games_env: str
    cut: int
    state_bytes: int | None = None

    @property
    def total(self) -> int:
        """Games per run: 1,000, or what the environment says (100 for a quick run)."""
        return int(os.environ.get(self.games_env, "1000"))


FUZZ: dict[str, Fuzz] = {
    "stone_age": Fuzz(STONE_AGE, (2, 4), frozenset({"cards_exhausted", "building_pile_empty"}),
                      "CAMPFIRE_FUZZ_GAMES", cut=1500),
    "hunters_gatherers": Fuzz(HUNTERS_GATHERERS, (2, 5),
                              frozenset({"last_tile_placed", "no_tile_fits"}),
                              "CAMPFIRE_HG_FUZZ_GAMES", cut=400, state_bytes=8192),
}


@pytest.mark.parametrize("name", FUZZ)
@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_random_games_keep_every_invariant(name: str, chunk: int) -> None:
    """Each game ends, breaks no invariant after any action, and scores add up."""
    fuzz = FUZZ[name]
    low, high = fuzz.players
    seeds = chunk_seeds(chunk, fuzz.total)
    runs = checked_playouts(fuzz.game, [(seed, low + seed % (high - low + 1)) for seed in seeds],
                            set(fuzz.endings))
    for run in runs:
        assert run.actions > 0
        if fuzz.state_bytes is not None:
            assert max(run.state_bytes) < fuzz.state_bytes


@pytest.mark.parametrize("name", FUZZ)
@settings(max_examples=25, deadline=None)
@given(data=st.data())
def test_json_round_trip_mid_game_continues_identically(name: str, data: st.DataObject) -> None:
    """A state saved to JSON at a random point and loaded again plays on exactly alike."""
    fuzz = FUZZ[name]
    seed = data.draw(st.integers(0, 10**9))
    players = data.draw(st.integers(*fuzz.players))
    cut = data.draw(st.integers(0, fuzz.cut))
    assert_round_trip_continues(fuzz.game, players, seed, cut)
