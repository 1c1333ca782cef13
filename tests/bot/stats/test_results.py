"""What is kept of a table that is over (bot/stats/results.py)."""

from __future__ import annotations

import random
from datetime import UTC, datetime

from bot.stats.results import ABORTED, kept_result, places
from bot.storage import TableStatus
from bot.table.turns import load_state
from engine.registry import get_game
from tests.bot.stats.finished import over_table

WHEN = datetime(2026, 12, 6, tzinfo=UTC)


def test_places_put_winners_first_then_scores_with_ties_sharing() -> None:
    assert places([30, 50, 50, 10], [1]) == [3, 1, 2, 4]
    # A tie on the top score that the game broke: its winner first, the other second.
    assert places([50, 50, 20], [0]) == [1, 2, 3]
    # A shared win, and two level behind it.
    assert places([40, 40, 10, 10], [0, 1]) == [1, 1, 3, 3]
    # No winner (a game ended early): by score alone.
    assert places([5, 9, 5], []) == [2, 1, 2]


def test_a_finished_table_is_kept_with_the_games_own_result() -> None:
    rnd = random.Random(4)
    record = over_table("k1", rnd, game="hunters_gatherers",
                        seats=("con:anna", "ai:strong:2", "con:boris"))
    game = get_game(record.game)
    state = load_state(game, record)
    result = game.result(state)
    assert result is not None
    kept = kept_result(record, state, WHEN)
    assert kept is not None and kept.rated and kept.reason == result.reason
    assert [s.score for s in kept.seats] == [
        next(x.total for x in result.scores if x.seat == i) for i in range(3)]
    assert {i for i, s in enumerate(kept.seats) if s.place == 1} == set(result.winners)
    assert [(s.user_id, s.name, s.ai_level) for s in kept.seats] == [
        ("con:anna", "Anna", None), ("ai:strong:2", "ai:strong:2", "strong"),
        ("con:boris", "Boris", None)]
    assert (kept.chat_id, kept.game, kept.ended_at, kept.opened_at) == (
        record.chat_id, record.game, WHEN, record.created_at)


def test_an_aborted_game_is_kept_unrated_and_a_cancelled_lobby_not_at_all() -> None:
    rnd = random.Random(5)
    record = over_table("k2", rnd, game="stone_age", seats=("con:anna", "con:boris"),
                        aborted=True)
    state = load_state(get_game(record.game), record)
    kept = kept_result(record, state, WHEN)
    assert kept is not None and not kept.rated and kept.reason == ABORTED
    lobby = record.model_copy(update={"seed": None})
    assert kept_result(lobby, state, WHEN) is None
    running = record.model_copy(update={"status": TableStatus.RUNNING})
    assert kept_result(running, state, WHEN) is None


def test_a_game_played_alone_is_kept_unrated() -> None:
    record = over_table("k3", random.Random(6), game="caverna", seats=("con:anna",))
    kept = kept_result(record, load_state(get_game(record.game), record), WHEN)
    assert kept is not None and not kept.rated and kept.seats[0].place == 1
