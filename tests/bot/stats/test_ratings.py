"""Ratings from kept results (bot/stats/ratings.py): pure functions, no store."""

from __future__ import annotations

from datetime import UTC, datetime

from bot.stats.ratings import (
    EVERYWHERE,
    chat_scope,
    newcomer,
    rate,
    rated_as,
    rebuild,
    shown,
)
from bot.storage.results import KeptRating, KeptResult, KeptSeat

WHEN = datetime(2026, 12, 6, tzinfo=UTC)


def result(table: str, seats: list[tuple[str, int]], *, chat: str = "con:g1",
           rated: bool = True, game: str = "caverna") -> KeptResult:
    """A kept result of ``seats`` (user id, place): AI ids carry their level."""
    return KeptResult(
        table_id=table, game=game, chat_id=chat, opened_at=WHEN, ended_at=WHEN, reason="end",
        rated=rated, seats=tuple(
            KeptSeat(user_id=u, name=u.upper(), score=10 * (9 - p), place=p,
                     ai_level=u.split(":")[1] if u.startswith("ai:") else None)
            for u, p in seats))


def test_the_winner_rises_the_loser_falls_in_both_scopes() -> None:
    rated = rate(result("t1", [("anna", 1), ("boris", 2)]), 1, lambda key: None)
    for scope in (EVERYWHERE, chat_scope("con:g1")):
        anna, boris = rated.ratings[("caverna", scope, "anna")], \
            rated.ratings[("caverna", scope, "boris")]
        assert anna.mu > newcomer().mu > boris.mu
        assert (anna.games, anna.wins, boris.games, boris.wins) == (1, 1, 1, 0)
        assert anna.name == "ANNA"
    assert rated.steps[("caverna", "anna")].shown == shown(
        rated.ratings[("caverna", EVERYWHERE, "anna")])
    assert set(rated.steps) == {("caverna", "anna"), ("caverna", "boris")}


def test_an_aborted_game_changes_no_rating() -> None:
    assert not rate(result("t1", [("anna", 1), ("boris", 2)], rated=False), 1,
                    lambda key: None).ratings


def test_ai_seats_are_rated_as_their_level_once_per_table() -> None:
    game = result("t1", [("ai:strong:1", 1), ("anna", 2), ("ai:strong:3", 3)])
    assert rated_as(game.seats[0]) == rated_as(game.seats[2]) == "ai:strong"
    rated = rate(game, 1, lambda key: None)
    ai = rated.ratings[("caverna", EVERYWHERE, "ai:strong")]
    assert (ai.games, ai.wins, ai.name) == (1, 1, "")
    # The level keeps the mean of what its two seats earned (one won, one came last).
    alone_first = rate(result("t2", [("ai:strong:1", 1), ("anna", 2), ("x", 3)]), 1,
                       lambda key: None).ratings[("caverna", EVERYWHERE, "ai:strong")]
    alone_last = rate(result("t3", [("y", 1), ("anna", 2), ("ai:strong:3", 3)]), 1,
                      lambda key: None).ratings[("caverna", EVERYWHERE, "ai:strong")]
    assert alone_last.mu < ai.mu < alone_first.mu


def test_ratings_start_from_what_stood_before() -> None:
    strong = KeptRating(mu=40.0, sigma=2.0, games=30, wins=20, name="ANNA")
    before = {("caverna", EVERYWHERE, "anna"): strong}
    rated = rate(result("t1", [("boris", 1), ("anna", 2)]), 7, before.get)
    anna = rated.ratings[("caverna", EVERYWHERE, "anna")]
    assert anna.mu < strong.mu and anna.games == 31 and anna.wins == 20
    # Beating a strong player is worth more than beating a newcomer.
    upset = rated.ratings[("caverna", EVERYWHERE, "boris")].mu
    plain = rate(result("t2", [("boris", 1), ("carl", 2)]), 8, lambda key: None).ratings[
        ("caverna", EVERYWHERE, "boris")].mu
    assert upset > plain


def test_a_chat_counts_only_its_own_tables() -> None:
    done = rebuild([(1, result("t1", [("anna", 1), ("boris", 2)], chat="con:g1")),
                    (2, result("t2", [("boris", 1), ("anna", 2)], chat="con:g2"))])
    assert done.ratings[("caverna", chat_scope("con:g1"), "anna")].games == 1
    assert done.ratings[("caverna", chat_scope("con:g2"), "anna")].wins == 0
    assert done.ratings[("caverna", EVERYWHERE, "anna")].games == 2
    assert [s.seq for s in done.history[("caverna", "anna")]] == [1, 2]
    assert done.cursor == 2


def test_a_newcomer_is_shown_at_the_base() -> None:
    assert shown(newcomer()) == 1000
