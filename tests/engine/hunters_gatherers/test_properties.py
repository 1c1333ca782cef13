"""Random legal playouts with every invariant checked after every action."""

from __future__ import annotations

import os

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.hunters_gatherers.game import GAME
from tests.engine.round_trip import (
    CHUNKS,
    assert_round_trip_continues,
    checked_playouts,
    chunk_seeds,
    replayed,
)

# 1,000 games per run over 2-5 players, as the issue asks; CAMPFIRE_HG_FUZZ_GAMES
# changes the count (e.g. 100 for a quick local run).
TOTAL_GAMES = int(os.environ.get("CAMPFIRE_HG_FUZZ_GAMES", "1000"))


@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_random_games_keep_every_invariant(chunk: int) -> None:
    """Each game ends, breaks no invariant after any action, and scores add up."""
    seeds = chunk_seeds(chunk, TOTAL_GAMES)
    runs = checked_playouts(GAME, [(seed, 2 + seed % 4) for seed in seeds],
                            {"last_tile_placed", "no_tile_fits"})
    for run in runs:
        assert max(run.state_bytes) < 8192



@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 10**9), players=st.integers(2, 5), cut=st.integers(0, 400))
def test_json_round_trip_mid_game_continues_identically(seed: int, players: int, cut: int) -> None:
    """A state saved to JSON mid-game and loaded again plays on exactly alike."""
    assert_round_trip_continues(GAME, players, seed, cut)


def test_same_seed_same_game() -> None:
    replayed(GAME, 3, 42)


def test_player_counts() -> None:
    assert (GAME.min_players, GAME.max_players) == (2, 5)
    with pytest.raises(Exception):  # noqa: B017 - IllegalMove for a bad count
        GAME.new(6, 0)
