"""Random legal playouts of Stone Age with every invariant checked after every action."""

from __future__ import annotations

import os
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.core.playout import random_playout
from engine.stone_age.game import GAME
from tests.engine.round_trip import (
    CHUNKS,
    assert_round_trip_continues,
    checked_playouts,
    chunk_seeds,
    replayed,
)

# 1,000 games per CI run, spread over 2, 3 and 4 players; more with CAMPFIRE_FUZZ_GAMES.
TOTAL_GAMES = int(os.environ.get("CAMPFIRE_FUZZ_GAMES", "1000"))


@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_random_games_keep_every_invariant(chunk: int) -> None:
    """Each game ends, breaks no invariant after any action, and scores add up."""
    seeds = chunk_seeds(chunk, TOTAL_GAMES)
    runs = checked_playouts(GAME, [(seed, 2 + seed % 3) for seed in seeds],
                            {"cards_exhausted", "building_pile_empty"})
    for run in runs:
        assert run.actions > 0



@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10**9), players=st.integers(2, 4), cut=st.integers(0, 1500))
def test_json_round_trip_mid_game_continues_identically(seed: int, players: int, cut: int) -> None:
    """A state saved to JSON at a random point and loaded again plays on exactly alike."""
    assert_round_trip_continues(GAME, players, seed, cut)


def test_same_seed_same_game() -> None:
    """A game replays exactly from its seed and the same choices."""
    a = replayed(GAME, 3, 42)
    c = random_playout(GAME, 3, 43, check=False)
    assert (c.result, c.actions) != (a.result, a.actions)


def test_state_stays_small() -> None:
    """Serialised states stay well under the 8 KB budget in 4-player games."""
    for seed in range(5):
        run = random_playout(GAME, 4, seed, check=False, sample_every=1)
        assert run.error is None
        assert max(run.state_bytes) < 8192


@pytest.mark.parametrize("seed", range(6))
def test_summary_names_exactly_the_seats_pending(seed: int) -> None:
    """``summary().deciding`` is read off the seats asked, not the built prompts: after
    every action of a random game it names the seats ``pending`` has prompts for."""
    rnd = random.Random(seed)
    state = GAME.new(2 + seed % 3, seed)
    while prompts := GAME.pending(state):
        assert GAME.summary(state).deciding == tuple(sorted({p.seat for p in prompts}))
        prompt = rnd.choice(prompts)
        GAME.apply(state, prompt.seat, rnd.choice(prompt.options).key)
    assert GAME.summary(state).deciding == ()
