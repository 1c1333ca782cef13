"""Hunters and Gatherers as a whole: replays from its seed, and its player counts (its
random playouts are in ``tests/engine/test_fuzz.py``)."""

from __future__ import annotations

import pytest

from engine.hunters_gatherers.game import GAME
from tests.engine.round_trip import replayed


def test_same_seed_same_game() -> None:
    replayed(GAME, 3, 42)


def test_player_counts() -> None:
    assert (GAME.min_players, GAME.max_players) == (2, 5)
    with pytest.raises(Exception):  # noqa: B017 - IllegalMove for a bad count
        GAME.new(6, 0)
