"""Whole games through the draft protocol object: every player count plays random legal
games to the end with invariants checked after every action, and passes the
conformance checks every hosted game passes."""

from __future__ import annotations

import pytest

from engine.caverna.draft_game import CAVERNA_DRAFT, new_game
from engine.core.conformance import conformance_playout
from engine.core.playout import random_playout
from engine.registry import games


@pytest.mark.parametrize("players", range(1, 8))
def test_random_games_end_with_invariants_kept(players: int) -> None:
    out = random_playout(CAVERNA_DRAFT, players, seed=players)
    assert out.error is None, out.error
    assert out.result is not None
    assert len(out.result.scores) == players
    for score in out.result.scores:
        assert score.total == sum(score.breakdown.values())


@pytest.mark.parametrize("players", [1, 2, 4, 7])
def test_random_games_conform(players: int) -> None:
    found = conformance_playout(CAVERNA_DRAFT, players, 1000 * players + 7)
    assert not found.problems, found.problems[:5]
    assert found.result is not None


def test_state_stays_small() -> None:
    out = random_playout(CAVERNA_DRAFT, 7, seed=3, check=False)
    assert out.error is None
    assert max(out.state_bytes) <= 16 * 1024


def test_new_games_replay_from_the_seed() -> None:
    assert new_game(5, 42).model_dump() == new_game(5, 42).model_dump()
    assert new_game(5, 42).cards != new_game(5, 43).cards or (
        new_game(5, 42).markers != new_game(5, 43).markers
    )


def test_the_draft_is_not_registered() -> None:
    assert "caverna" not in games()


def test_views_hide_the_face_down_cards_and_markers() -> None:
    state = new_game(4, 1)
    view = CAVERNA_DRAFT.view(state, 0)
    assert "cards" not in view and "markers" not in view and "rng" not in view
    assert view["cards_left"] == 11
