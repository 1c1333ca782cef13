"""Typed commands: listings, status, board, rules, language, help, and bad input."""

from __future__ import annotations

import random
import re

import pytest

from bot.identity import Chat, User
from bot.input.commands import COMMANDS
from bot.storage import TableStatus
from bot.table.settings import meta_of, options_of
from bot.ui.message import ToChat, ToUser
from tests.bot.conftest import AppFactory
from tests.bot.helpers import (
    ANNA,
    BORIS,
    CLARA,
    DAN,
    EVA,
    GROUP,
    GROUP2,
    Clock,
    Harness,
    dm,
    is_asked,
    plain,
    until_turn_of,
)

GROUP3 = Chat(id="con:g3")
GROUP4 = Chat(id="con:g4")


def listed_ids(text: str) -> list[str]:
    """Table ids in the order a listing shows them."""
    return re.findall(r"^#(\w+) ·", text, flags=re.MULTILINE)


GAME_LIST = (
    "caverna (Caverna: The Cave Farmers), "
    "carcassonne (Carcassonne: Hunters and Gatherers), stone age (Stone Age)"
)


def expects(h: Harness, setting: str, lang: str = "en") -> str:
    """What ``/new`` says a setting expects, with its example."""
    return h.t("new.expect", lang, form=h.t(f"new.setting.{setting}.form", lang),
               about=h.t(f"new.setting.{setting}.about", lang))


async def test_games_lists_this_chats_active_tables(h: Harness) -> None:
    assert plain((await h.text(ANNA, "/games")).answer) == h.t("cmd.no_tables")
    one = await h.new_table(ANNA, "en")
    two = await h.started(BORIS, CLARA)
    elsewhere = await h.new_table(DAN, "en", chat=GROUP2)
    text = plain((await h.text(EVA, "/games")).answer)
    assert listed_ids(text) == [one, two]
    assert f"#{one} · Stone Age · open · 1 players" in text
    assert f"#{two} · Stone Age · playing · 2 players" in text
    assert elsewhere not in text
    await h.text(ANNA, f"/cancel {one}")
    assert listed_ids(plain((await h.text(EVA, "/games")).answer)) == [two]


async def test_mygames_waiting_on_you_first_longest_waiting_first(
    h: Harness, clock: Clock
) -> None:
    rnd = random.Random(3)
    w1 = await h.new_table(ANNA, "en")  # opened first, started (and waiting) later
    await h.text(BORIS, "/join")
    lobby = await h.new_table(DAN, "en", chat=GROUP3)
    await h.text(ANNA, "/join", GROUP3)
    w2 = await h.started(CLARA, ANNA, chat=GROUP2)
    await until_turn_of(h, w2, ANNA, rnd)
    clock.advance(600)
    await h.text(ANNA, f"/start {w1}")
    await until_turn_of(h, w1, ANNA, rnd)
    not_mine = await h.started(EVA, ANNA, chat=GROUP4)
    for _ in range(50):  # Anna plays until the table waits on Eva
        if not await is_asked(h, not_mine, ANNA):
            break
        await h.play_one(not_mine, rnd)
    since = {t: meta_of(await h.get(t)).opened_at[str((await h.get(t)).seats.index(ANNA.id))]
             for t in (w1, w2)}
    assert since[w2] < since[w1]
    assert not await is_asked(h, not_mine, ANNA)

    reply = await h.text(ANNA, "mygames", dm(ANNA))
    text = plain(reply.answer)
    assert listed_ids(text) == [w2, w1, lobby, not_mine]
    lines = text.splitlines()
    mark = h.t("games.waiting_on_you")
    assert [mark in line for line in lines] == [True, True, False, False]
    # /games in a private chat lists the same tables (in the store's order).
    assert sorted(listed_ids(plain((await h.text(ANNA, "games", dm(ANNA))).answer))) == \
        sorted([w1, w2, lobby, not_mine])
    # Boris sits at one table only; the listing works from any chat.
    assert listed_ids(plain((await h.text(BORIS, "/mygames", GROUP2)).answer)) == [w1]


async def test_status_shows_whose_turn_and_scores(h: Harness) -> None:
    table_id = await h.started(ANNA, BORIS, CLARA)
    record = await h.get(table_id)
    first = h.user_at(record, 0)
    reply = await h.text(DAN, "/status")
    [item] = reply.out
    assert item.to == ToChat(GROUP.id)
    # The table itself comes down as a new message; the copy above loses its buttons.
    assert item.message.slot == f"table:{table_id}" and item.message.renew
    text = plain(item.message.text)
    names = [h.user_at(record, s).name for s in range(3)]
    assert f"Stone Age · #{table_id} · round 1" in text
    assert " · ".join(f"{n}: 0" for n in names) in text
    assert f"➡️ {first.name}, place your people (5 people left)." in text
    assert item.message.choices  # one player decides: their buttons are on the table
    # Privately, with the table named.
    reply = await h.text(BORIS, f"status {table_id}", dm(BORIS))
    [item] = reply.out
    assert item.to == ToUser(BORIS.id)
    assert f"{first.name}, place your people" in plain(item.message.text)


async def test_board_goes_privately(h: Harness) -> None:
    table_id = await h.started(ANNA, BORIS)
    reply = await h.text(BORIS, "/board")
    # Only Boris sees it: the reply's private part, nothing in the group. The note is
    # what a platform that sends it to his private chat says in the group.
    assert reply.answer is None and reply.out == [] and reply.private is not None
    assert plain(reply.private.note) == h.t("cmd.board_sent")
    assert reply.private.table == table_id
    message = reply.private.message
    assert plain(message.text) == f"Your board at #{table_id}.\nYour civilization cards: —"
    assert message.picture is None  # pictures are off in these tests
    # From the private chat: the same private part, with nothing to say elsewhere.
    reply = await h.text(BORIS, "board", dm(BORIS))
    assert reply.answer is None and reply.out == [] and reply.private is not None
    assert reply.private.note is None and plain(reply.private.message.text) == plain(message.text)
    # Not a player, or not running.
    assert plain((await h.text(DAN, "/board")).answer) == h.t("cmd.board_not_playing")
    lobby = await h.new_table(CLARA, "en", chat=GROUP2)
    assert plain((await h.text(CLARA, f"/board {lobby}", GROUP2)).answer) == \
        h.t("cmd.board_not_playing")


async def test_turn_resends_the_open_decision_privately(h: Harness) -> None:
    table_id = await h.started(ANNA, BORIS)
    record = await h.get(table_id)
    first, second = h.user_at(record, 0), h.user_at(record, 1)
    # Asked in the group: the decision is the asker's private part, with its buttons.
    reply = await h.text(first, "/turn")
    assert reply.out == [] and reply.answer is None and reply.private is not None
    assert reply.private.table == table_id
    assert plain(reply.private.note) == h.t("cmd.turn_sent", table=table_id)
    assert reply.private.message.slot == f"dm:{table_id}:0" and reply.private.message.choices
    # Asked in the private chat: the kept prompt message itself.
    reply = await h.text(first, "/turn", dm(first))
    [item] = reply.out
    assert item.to == ToUser(first.id) and reply.private is None
    assert item.message.slot == f"dm:{table_id}:0" and item.message.choices
    reply = await h.text(second, "/turn")
    assert reply.out == [] and reply.private is None
    assert plain(reply.answer) == h.t("cmd.not_your_turn_now", table=table_id)


async def test_rules_with_words_and_without(h: Harness) -> None:
    # No game named and none played here: the bot asks which, naming every game.
    text = plain((await h.text(ANNA, "/rules")).answer)
    assert text.startswith("Which game?") and "stone age" in text and "carcassonne" in text
    await h.started(ANNA, BORIS)
    text = plain((await h.text(ANNA, "/rules")).answer)
    assert text.startswith("Stone Age rules topics:")
    assert "• Tools" in text and "• Buildings" in text
    text = plain((await h.text(ANNA, "/rules tools")).answer)
    assert text.startswith("Tools\n")
    text = plain((await h.text(ANNA, "/rules stone_age feeding hunger")).answer)
    assert text.startswith("Feeding and starvation\n")
    assert "10 points" in text
    text = plain((await h.text(ANNA, "/rules xyzzy qwerty")).answer)
    assert text == h.t("rules.nothing", query="xyzzy qwerty")


async def test_language_changes_the_chats_texts(h: Harness) -> None:
    reply = await h.text(ANNA, "/language ru")
    assert plain(reply.answer) == "Язык: русский."
    assert plain((await h.text(BORIS, "/help")).answer).startswith("Команды Campfire:")
    assert plain((await h.text(BORIS, "/frobnicate")).answer) == \
        h.t("cmd.unknown", "ru", command="frobnicate")
    table_id = await h.new_table(ANNA)  # no language given: the chat's
    assert f"стол #{table_id} открыт" in plain(h.table_message(table_id).text)
    # Another chat keeps its language.
    assert plain((await h.text(BORIS, "/help", GROUP2)).answer).startswith("Campfire commands:")
    assert plain((await h.text(ANNA, "/language en")).answer) == "Language set: English."
    # The chat's open table speaks Russian: what is said about its games follows it.
    assert plain((await h.text(BORIS, "/help")).answer).startswith("Команды Campfire:")
    await h.text(ANNA, f"/cancel {table_id}")
    assert plain((await h.text(BORIS, "/help")).answer).startswith("Campfire commands:")
    for bad in ("/language", "/language de", "/language ru en"):
        assert plain((await h.text(ANNA, bad)).answer).splitlines() == [
            "Usage: /language ru|en", "language: ru — Russian; en — English"]
    reply = await h.text(ANNA, "/language рус")
    assert plain(reply.answer) == "Язык: русский."


async def test_private_language_changes_a_players_private_messages(h: Harness) -> None:
    reply = await h.text(BORIS, "language ru", dm(BORIS))
    assert plain(reply.answer) == "Язык: русский."
    table_id = await h.started(ANNA, BORIS)  # the table itself speaks English
    await until_turn_of(h, table_id, BORIS, random.Random(1))
    record = await h.get(table_id)
    message = h.dm_prompt(record, record.seats.index(BORIS.id))
    assert f"Каменный век #{table_id}" in plain(message.text)
    assert "Stone Age" in plain(h.table_message(table_id).text)


async def test_help_lists_every_command(h: Harness) -> None:
    text = plain((await h.text(ANNA, "/help")).answer)
    lines = text.splitlines()
    assert lines[0] == "Campfire commands:"
    assert [line.split(" — ")[0].split()[0] for line in lines[1:]] == [f"/{c}" for c in COMMANDS]
    assert ("/vote [table] wait|easy|normal|strong|abort|agree|refuse — "
            "Vote after a time-out or on taking back") in lines
    assert "/board [table] — Your own board, sent privately" in lines
    assert "{" not in text and "}" not in text


async def test_unknown_and_garbled_commands_are_answered(h: Harness) -> None:
    cases = {
        "/frobnicate": h.t("cmd.unknown", command="frobnicate"),
        "/new chess": h.t("cmd.unknown_game", game="chess", games=GAME_LIST),
        "/new stone_age 9": h.t("cmd.bad_seats", option="9", min=2, max=4),
        "/new stone_age 1-4": h.t("cmd.bad_seats", option="1-4", min=2, max=4),
        "/new stone_age 3-2": h.t("cmd.bad_seats", option="3-2", min=2, max=4),
        "/new stone_age remind=soon": h.t("cmd.bad_setting", option="remind=soon",
                                          expected=expects(h, "remind")),
        "/join": h.t("cmd.no_tables"),
        "/status": h.t("cmd.no_tables"),
        "/join zz99": h.t("cmd.no_such_table", table="zz99"),
        "/vote wait": h.t("cmd.no_tables"),
    }
    for text, expected in cases.items():
        reply = await h.text(ANNA, text)
        assert plain(reply.answer) == expected, text
        assert reply.out == []
    assert await h.store.tables_in_chat(GROUP.id) == []
    lines = plain((await h.text(ANNA, "/new")).answer).splitlines()
    assert lines[0] == "Usage: /new <game> [options]"
    assert lines[-2].startswith("Options, in any order: 3 or 2-4 (how many players); ")
    assert "remind=12h (how long a player has" in lines[-2]
    assert lines[-1] == f"Games: {GAME_LIST}"
    # In a private chat a bare word is a command.
    reply = await h.text(ANNA, "hello", dm(ANNA))
    assert plain(reply.answer) == h.t("cmd.unknown", command="hello")


async def test_garbled_moves_change_nothing(h: Harness) -> None:
    table_id = await h.started(ANNA, BORIS)
    record = await h.get(table_id)
    first, second = h.user_at(record, 0), h.user_at(record, 1)
    before = await h.snapshot(table_id)
    usage = ["Usage: /move [table] <choice>", "table: Which table (when there are several)",
             "choice: The option's number or key"]
    assert plain((await h.text(first, "/move")).answer).splitlines() == usage
    assert plain((await h.text(first, "/move a b")).answer).splitlines() == usage
    reply = await h.text(first, f"/move {table_id} 99")
    assert reply.alert and reply.answer
    reply = await h.text(first, "/move at:nowhere")
    assert reply.alert and reply.answer
    reply = await h.text(second, "/move 1")
    assert reply.alert and plain(reply.answer) == h.t("reason.not_your_turn")
    reply = await h.text(DAN, f"/move {table_id} 1")
    assert reply.alert and plain(reply.answer) == h.t("press.not_a_player")
    await h.assert_unchanged(table_id, before)
    # A good typed move, by number and by key.
    prompt = (await h.prompts(table_id))[0]
    reply = await h.text(first, "/move 2")
    assert not reply.alert
    assert (await h.store.action_log(table_id))[-1].key == prompt.keys()[1]
    # The number of people came with the site: the turn passed to the second player.
    prompt = (await h.prompts(table_id))[0]
    assert prompt.seat == 1
    reply = await h.text(second, f"move {table_id} {prompt.keys()[0]}", dm(second))
    assert not reply.alert
    log = await h.store.action_log(table_id)
    assert log[-1].key == prompt.keys()[0] and log[-1].user_id == second.id
    assert (await h.get(table_id)).version == before.version + 2


async def test_move_by_two_digit_option_number(h: Harness) -> None:
    table_id = await h.started(ANNA, BORIS)
    record = await h.get(table_id)
    prompt = (await h.prompts(table_id))[0]
    assert len(prompt.options) >= 12
    reply = await h.text(h.user_at(record, 0), "/move 12")
    assert reply.answer is None and not reply.alert, plain(reply.answer)
    assert (await h.store.action_log(table_id))[-1].key == prompt.keys()[11]


async def test_a_lone_slash_is_not_a_crash(h: Harness) -> None:
    for text in ("/", " / ", "/ "):
        reply = await h.text(ANNA, text)
        assert reply.out == []


@pytest.mark.parametrize(("option", "code"), [
    ("remind=0", "cmd.bad_duration"), ("clock=0/1/2", "cmd.bad_duration"),
    ("clock=99999999999/1/1", "cmd.bad_duration"), ("clock=1/99999999999/2", "cmd.bad_duration"),
    ("remind=91d", "cmd.bad_duration"), ("clock=2/1/1", "cmd.bad_clock"),
    ("repeat=99", "cmd.bad_setting"), ("remind=abc", "cmd.bad_setting"),
    ("clock=soon", "cmd.bad_setting"), ("quiet=1", "cmd.bad_setting"),
])
async def test_out_of_range_option_is_named_clearly(h: Harness, option: str, code: str) -> None:
    reply = await h.text(ANNA, f"/new stone_age {option}")
    setting = option.split("=")[0]
    # What the setting expects, with an example of it.
    assert plain(reply.answer) == h.t(code, option=option, expected=expects(h, setting))
    assert f"{h.t(f'new.setting.{setting}.form')}" in plain(reply.answer)
    assert await h.store.tables_in_chat(GROUP.id) == []


async def test_russian_settings_are_read_and_explained_in_russian(h: Harness) -> None:
    reply = await h.text(ANNA, "/new caverna напоминание=abc рус")
    assert plain(reply.answer) == h.t("cmd.bad_setting", "en", option="напоминание=abc",
                                      expected=expects(h, "remind"))
    russian = User(id=ANNA.id, name=ANNA.name, lang="ru")
    answer = plain((await h.text(russian, "/new caverna remind=abc")).answer)
    assert answer == "«remind=abc»: не понимаю значение. Нужно так: напоминание=12ч — через " \
                     "сколько напомнить игроку о ходе; единицы: с, м, ч, д."
    table_id = await h.new_table(ANNA, "напоминание=1,5ч", "повтор=2", "часы", "тихо", "рус")
    options = options_of(await h.get(table_id))
    assert (options.reminder_h, options.reminder_repeats, options.clock,
            options.notify_next, options.lang) == (1.5, 2, True, False, "ru")


async def test_commands_for_another_bot_are_ignored(make_app: AppFactory, clock: Clock) -> None:
    h = Harness(await make_app(bot_name="CampfireBot"), clock)
    for text in ("/help@OtherBot", "/new@OtherBot stone_age", "/join@SomeoneElse"):
        reply = await h.text(ANNA, text)
        assert reply.answer is None and reply.out == [] and not reply.alert
    assert await h.store.tables_in_chat(GROUP.id) == []
    for text in ("/help@CampfireBot", "/HELP@campfirebot", "/help"):
        assert plain((await h.text(ANNA, text)).answer).startswith("Campfire commands:")
    table_id = await h.new_table(ANNA, "en")
    reply = await h.text(BORIS, "/join@CampfireBot")
    assert plain(reply.answer) == f"Boris joined table #{table_id}."


async def test_plain_chatter_in_a_group_gets_no_answer(h: Harness) -> None:
    table_id = await h.started(ANNA, BORIS)
    before = await h.snapshot(table_id)
    for text in ("hello everyone", "help", "move 1", "see /help", "", "   "):
        reply = await h.text(BORIS, text)
        assert reply.answer is None and reply.out == [] and not reply.alert, text
    await h.assert_unchanged(table_id, before)
    assert (await h.get(table_id)).status == TableStatus.RUNNING


async def test_typed_move_before_the_start(h: Harness) -> None:
    table_id = await h.new_table(ANNA, "en")
    reply = await h.text(ANNA, f"/move {table_id} 1")
    assert reply.alert and plain(reply.answer) == h.t("press.not_started")


async def test_a_single_move_argument_is_the_move_even_if_it_looks_like_an_id(
        h: Harness) -> None:
    table_id = await h.started(ANNA, BORIS)
    record = await h.get(table_id)
    first = h.user_at(record, 0)
    reply = await h.text(first, "/move m13")  # looks like a table id: still the move
    assert plain(reply.answer) != h.t("cmd.no_such_table", table="m13")
    reply = await h.text(first, f"/move {table_id} 1")
    assert not reply.alert and (await h.get(table_id)).version == record.version + 1
