"""Stone Age as a whole: replays from its seed, states stay small, the summary names the
seats asked (its random playouts are in ``tests/engine/test_fuzz.py``)."""

from __future__ import annotations

import random

import pytest

from engine.core.playout import random_playout
from engine.stone_age.game import GAME
from tests.engine.round_trip import replayed


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
