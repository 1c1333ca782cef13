"""Answers that used to mislead, each as a player met it."""

from __future__ import annotations

import pytest

import bot.games as games_pkg
from bot.games import alias_key
from bot.ui.message import ToUser
from tests.bot.helpers import ANNA, BORIS, CLARA, GROUP, Harness, User, plain


async def test_leave_during_a_game_says_how_to_stop_playing(h: Harness) -> None:
    table_id = await h.started(ANNA, BORIS)
    before = await h.snapshot(table_id)
    reply = await h.text(BORIS, "/leave")
    assert plain(reply.answer) == h.t("lobby.leave_running")
    assert "/vote" in plain(reply.answer) and "/abort" in plain(reply.answer)
    await h.assert_unchanged(table_id, before)


async def test_vote_with_a_word_it_does_not_know_shows_the_usage(h: Harness) -> None:
    await h.started(ANNA, BORIS)
    for text in ("/vote maybe", "/vote", "/vote wait now"):
        lines = plain((await h.text(BORIS, text)).answer).splitlines()
        assert lines[0] == "Usage: /vote [table] wait|easy|normal|strong|abort|agree|refuse", \
            text
        # Every word is explained, each AI level too.
        assert lines[1] == "table: Which table (when there are several)"
        assert lines[2].startswith("choice: wait — give the player another turn's time; ")
        assert "normal — an AI of middle strength plays their seat, each time the move " \
               "that looks best right away" in lines[2]


async def test_a_russian_table_takes_and_explains_its_own_vote_words(h: Harness) -> None:
    table_id = await h.started(ANNA, BORIS, options=("ru",))
    lines = plain((await h.text(BORIS, "/vote может")).answer).splitlines()
    assert lines[0] == \
        "Формат: /vote [стол] ждать|лёгкий|обычный|сильный|прервать|согласен|против"
    assert "сильный — за игрока ходит сильный ИИ, заглядывая дальше вперёд" in lines[2]
    # The Russian word is read like the English one (no vote is open: it says so).
    for word in ("ждать", "wait"):
        reply = await h.text(BORIS, f"/vote {table_id} {word}")
        assert plain(reply.answer) == h.t("vote.closed", "ru"), word


async def test_an_aborted_game_tells_the_players_there_are_no_results(h: Harness) -> None:
    table_id = await h.started(ANNA, BORIS)
    record = await h.get(table_id)
    asked = h.user_at(record, 0)
    reply = await h.text(ANNA, "/abort yes")
    dms = [plain(o.message.text) for o in reply.out if o.to == ToUser(asked.id)]
    assert dms == [h.t("turn.aborted", game="Stone Age", table=table_id)]
    assert all("table's chat" not in text for text in dms)


async def test_new_with_one_count_and_out_of_range_counts(h: Harness) -> None:
    reply = await h.text(ANNA, "/new stone_age 3 en")
    assert reply.out and "Players (1, 3–3)" in plain(reply.out[0].message.text)
    for arg in ("5", "1-4"):
        reply = await h.text(BORIS, f"/new stone_age {arg}")
        assert plain(reply.answer) == h.t("cmd.bad_seats", option=arg, min=2, max=4)


async def test_a_table_in_english_answers_in_english_in_a_russian_chat(h: Harness) -> None:
    await h.text(ANNA, "/language ru")
    table_id = await h.new_table(ANNA, "en")
    russian = User(id=BORIS.id, name=BORIS.name, lang="ru")
    reply = await h.text(russian, "/join")
    assert plain(reply.answer) == f"Boris joined table #{table_id}."
    reply = await h.text(russian, "/join")
    assert plain(reply.answer) == h.t("lobby.already_joined")


async def test_a_game_not_hosted_yet_is_named_as_such(
    h: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    announced = {alias_key(word): ("agricola", {"ru": "Агрикола", "en": "Agricola"})
                 for word in ("agricola", "агрикола")}
    monkeypatch.setattr(games_pkg, "_upcoming", lambda: announced)
    for text in ("/rules agricola", "/rules агрикола животные", "/new agricola",
                 "/new Агрикола 3"):
        answer = plain((await h.text(ANNA, text)).answer)
        assert answer.startswith("Agricola is not available yet."), text
        assert "stone age (Stone Age)" in answer
        assert "carcassonne (Carcassonne: Hunters and Gatherers)" in answer
    assert await h.store.tables_in_chat(GROUP.id) == []


async def test_rules_answer_from_the_game_played_here(h: Harness) -> None:
    await h.started(ANNA, BORIS, game="hunters_gatherers")
    answer = plain((await h.text(CLARA, "/rules тигр")).answer)
    assert "tiger" in answer.lower() or "тигр" in answer.lower()
    topics = plain((await h.text(CLARA, "/rules")).answer)
    assert topics.startswith("Carcassonne: Hunters and Gatherers rules topics:")
    # Naming another game still works.
    assert plain((await h.text(CLARA, "/rules stone age")).answer).startswith(
        "Stone Age rules topics:")


async def test_carcassonne_is_a_name_of_hunters_and_gatherers(h: Harness) -> None:
    answer = plain((await h.text(ANNA, "/rules carcassonne")).answer)
    assert answer.startswith("Carcassonne: Hunters and Gatherers rules topics:"), answer
    # The whole title, then what to look up.
    answer = plain((await h.text(ANNA, "/rules Carcassonne: Hunters and Gatherers tiger")).answer)
    assert "tiger" in answer.lower(), answer
    reply = await h.text(ANNA, "/new carcassonne 2 en")
    assert reply.out and "Carcassonne: Hunters and Gatherers" in plain(reply.out[0].message.text)
