"""A picture that fails never freezes a chat (adapters/delivery/sender.py on Telegram's platform).

The fake Bot API fails every ``sendPhoto`` and ``editMessageMedia`` in one group, as a
Bot API server that is not Telegram's may (HTTP 500), or as Telegram does for a picture
it will not take (400), or by dropping the connection. The table's message then arrives
as text with its buttons, whatever else the chat is owed (deep-link hints, answers to
/rules and /status) is not held behind the picture, a whole game plays to its end, and
the final scores reach the group as a new message and each player privately. The
picture follows its text once the chat takes pictures again, or is dropped after its
tries; each failure is logged once, naming the method, the chat and the status.

Where time matters the bot and the fake share a ``ManualClock``; nothing here measures
time.
"""

from __future__ import annotations

import asyncio
import logging
import random
import re
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any, cast

import pytest

from adapters.store import GameStore
from bot.storage import TableStatus
from tests.adapters.telegram.e2e_helpers import (
    GroupTable,
    ManualClock,
    StartBot,
    chat_calls,
    datas,
    drain,
    en,
    move_buttons,
    players,
    settle,
    token_field,
    wait_until,
)
from tests.adapters.telegram.fake_api import (
    ALWAYS,
    NETWORK,
    FakeChat,
    FakeMessage,
    FakeTelegram,
)

PICTURE_METHODS = ("sendPhoto", "editMessageMedia")
MAX_PRESSES = 3000
#: The sender's picture settings in these tests (``TelegramSettings``).
ATTEMPTS = 3
LONGER_THAN_ANY_TEST_S = 24 * 3600.0
RETRY_S = 2.0
PAUSE_S = 120.0


@asynccontextmanager
async def picture_table(tg: FakeTelegram, start_bot: StartBot, manual_clock: ManualClock,
                        started: bool = True) -> AsyncIterator[GroupTable]:
    """Anna and Boris in "Game night" (``started``: with the bot opened) and a bot on
    the manual clock whose pictures are tried ATTEMPTS times, RETRY_S apart, then paused
    for PAUSE_S; the table is not opened yet."""
    anna, boris = players(tg, "Anna", "Boris", started=started)
    group = tg.add_group("Game night", members=[anna, boris])
    async with start_bot(clock=manual_clock, pictures=True, picture_attempts=ATTEMPTS,
                         picture_retry_s=RETRY_S, picture_pause_s=PAUSE_S) as running:
        yield GroupTable(tg, running, group, [anna, boris])


def fail_pictures(tg: FakeTelegram, group: FakeChat, code: int) -> None:
    """Every picture call in ``group`` fails from now on (``NETWORK``: no answer)."""
    for method in PICTURE_METHODS:
        if code == NETWORK:
            tg.drop_next(method, times=ALWAYS, chat_id=group.id)
        else:
            tg.fail_next(method, code, times=ALWAYS, chat_id=group.id)


def picture_calls(tg: FakeTelegram, group: FakeChat) -> list[Any]:
    """Every picture call aimed at ``group``, failed or not."""
    return chat_calls(tg, PICTURE_METHODS, group, ok=False)


def failure_lines(caplog: pytest.LogCaptureFixture, group: FakeChat) -> list[str]:
    """What the sender logged at WARNING or above about ``group``."""
    return [r.getMessage() for r in caplog.records
            if r.name.startswith(("adapters.telegram", "adapters.delivery"))
            and r.levelno >= logging.WARNING
            and f"tg:{group.id}" in r.getMessage()]


def texts(messages: list[FakeMessage]) -> list[str]:
    return [m.text or m.caption or "" for m in messages]


# --------------------------------------------------------------------------- whole games


GAME_TITLES = {"stone_age": "Stone Age",
               "hunters_gatherers": "Carcassonne: Hunters and Gatherers"}
#: Seeds of ``sv.rng``: the same seats and game every run.
GAME_SEEDS = {"stone_age": 238, "hunters_gatherers": 3}


async def play_to_the_end(table: GroupTable, title: str, rules_every: int = 150) -> int:
    """Every move by the button of the player asked (from the table message, else a
    private prompt) until nobody is asked; every ``rules_every`` presses someone types
    /rules in the group, and its answer must arrive. Returns the presses made."""
    tg, group = table.tg, table.group
    topics = f"{title} rules topics:"
    presses = 0
    while (choice := table.next_press()) is not None:
        assert presses < MAX_PRESSES, "the game did not end"
        query = await table.press(*choice)
        assert query.answer is not None and not query.answer.show_alert, query.answer
        presses += 1
        if presses % rules_every == 0:
            before = len(tg.messages_in(group))
            await table.say(table.players[0], "/rules")
            new = texts(tg.messages_in(group)[before:])
            assert any(t.startswith(topics) for t in new), new
    return presses


@pytest.mark.parametrize("code", [500, 400], ids=["http500", "http400"])
@pytest.mark.parametrize("game", ["stone_age", "hunters_gatherers"])
async def test_a_whole_game_plays_in_a_group_whose_pictures_always_fail(
    tg: FakeTelegram, start_bot: StartBot, caplog: pytest.LogCaptureFixture, game: str,
    code: int,
) -> None:
    anna, boris = players(tg, "Anna", "Boris")
    group = tg.add_group("Game night", members=[anna, boris])
    fail_pictures(tg, group, code)
    caplog.set_level(logging.INFO)
    # The chat's picture pause outlasts the game however slow the machine (the default,
    # two minutes, did not on a loaded one: a fourth try came after it).
    async with start_bot(pictures=True, picture_retry_s=0.01,
                         picture_pause_s=LONGER_THAN_ANY_TEST_S) as running:
        running.app.sv.rng = random.Random(GAME_SEEDS[game])
        table = GroupTable(tg, running, group, [anna, boris])
        tid = await table.open(f"/new {game} 2-2 en")
        # The table arrived as text, with the buttons of the player asked.
        start = table.table_message
        assert start.photo is None and (start.text or "").startswith(GAME_TITLES[game])
        buttons = move_buttons(start)
        assert buttons or table.dm_prompt(table.seats[0]) is not None
        # /status brings the table down as a new text message: play on from there.
        await table.say(anna, "/status")
        status = tg.last_message(group)
        assert status.photo is None and move_buttons(status) == buttons
        assert move_buttons(tg.message(group, start.message_id)) == []
        table.message_id = status.message_id
        presses = await play_to_the_end(table, GAME_TITLES[game])

        record = await cast(GameStore, running.app.sv.store).get_archived(tid)
        assert record.status == TableStatus.FINISHED
        # The final scores: a new message in the group (it notifies), and each player's
        # own result privately.
        final = tg.messages_in(group)[-1]
        assert final.message_id != table.message_id and not final.silent
        assert (final.text or "").startswith(
            en("result.header", game=GAME_TITLES[game], table=tid))
        assert any(line.startswith("🏆") for line in (final.text or "").splitlines())
        for user in (anna, boris):
            last = tg.messages_in(user)[-1]
            assert f"#{tid} has ended" in (last.text or ""), last.text
        await settle(running, tg)

    # No picture reached the group, and the pictures were tried a few times only:
    # a 500 a few times for the first picture, a 400 once; then the chat took text
    # until the pause is over (longer than this test).
    assert presses > 50
    assert all(m.photo is None for m in tg.messages_in(group))
    tried = picture_calls(tg, group)
    assert all(not c.ok for c in tried)
    assert len(tried) == (ATTEMPTS if code == 500 else 1), [c.method for c in tried]
    # Logged once, with method, chat and status: the first failure, and its outcome.
    lines = failure_lines(caplog, group)
    assert lines and all(str(code) in line for line in lines), lines
    assert len(lines) == (2 if code == 500 else 1), lines
    assert re.search(rf"sendPhoto for tg:{group.id} failed \({code}\b", lines[0]), lines


# --------------------------------------------------------------------------- step by step


async def open_and_start(
    table: GroupTable, clock: ManualClock | None = None
) -> tuple[FakeMessage, list[FakeMessage]]:
    """Open a 2-player Stone Age lobby by buttons and press Start; returns the lobby
    message and the group's new messages once everything but the table's picture is
    through (the picture may still wait for the clock)."""
    tg, group, running = table.tg, table.group, table.running
    lobby = await table.open_lobby("/new stone_age 2-2 en")
    before = len(tg.messages_in(group))
    query = tg.user_presses(table.players[0], lobby, table.button(lobby, "start"))
    await wait_until(lambda: query.answered, 10.0, "the answer to Start")
    assert query.answer is not None and not query.answer.show_alert
    announce = await wait_until(
        lambda: next((m for m in tg.messages_in(group)[before:]
                      if (m.text or "").startswith("🎲")), None), 10.0, "the announcement")
    by_name = {u.first_name: u for u in table.players}
    order = sorted((int(n), name.strip())
                   for n, name in re.findall(r"^(\d+)\. (.+)$", announce.text or "", re.M))
    table.seats = [by_name[name] for _, name in order]
    if clock is None:
        await settle(running, tg)
    return lobby, tg.messages_in(group)[before:]


async def open_as_text(table: GroupTable) -> FakeMessage:
    """Open and start the table while its chat refuses pictures (a 400): the table's
    message (the lobby's) is text."""
    fail_pictures(table.tg, table.group, 400)
    lobby, _ = await open_and_start(table)
    table.message_id = lobby.message_id
    return lobby


async def test_a_failing_picture_holds_nothing_else_of_its_chat(
    tg: FakeTelegram, start_bot: StartBot, manual_clock: ManualClock,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """While the table's picture waits to be tried again (a 500, on the manual clock),
    the chat's other messages go: the start announcement, the deep-link hints for
    players the bot cannot reach, the answers to /rules. After three tries (2 s, then
    4 s apart) the table goes as text, with its buttons; meanwhile nobody waited."""
    caplog.set_level(logging.INFO)
    # No private chats: hints.
    async with picture_table(tg, start_bot, manual_clock, started=False) as table:
        anna = table.players[0]
        group = table.group
        running = table.running
        fail_pictures(tg, group, 500)
        lobby, _ = await open_and_start(table, manual_clock)
        t0 = manual_clock()
        await wait_until(lambda: picture_calls(tg, group), 10.0, "the first picture call")
        # The clock stands still: the picture waits, everything else arrives.
        tg.user_says(anna, group, "/rules")
        await wait_until(lambda: any(t.startswith("Stone Age rules topics:")
                                     for t in texts(tg.messages_in(group))), 10.0,
                         "the answer to /rules")
        link = f"?start=t{table.table_id}"
        await wait_until(lambda: sum(link in t for t in texts(tg.messages_in(group))) == 2,
                         10.0, "a deep-link hint for each player")
        for _ in range(1000):  # the bot's other work for the chat ends; a safety net only
            if await running.outbox.pending() == 1:
                break
            await asyncio.sleep(0.01)
        assert await running.outbox.pending() == 1  # the table's message, waiting
        assert move_buttons(tg.message(group, lobby.message_id)) == []  # still the lobby
        await drain(running, tg, manual_clock, RETRY_S)
        tried = picture_calls(tg, group)
        assert [(c.method, c.error_code, c.time - t0) for c in tried] == [
            ("sendPhoto", 500, 0.0), ("sendPhoto", 500, RETRY_S),
            ("sendPhoto", 500, 3 * RETRY_S)]
        # The table as text: the lobby's message, edited, with the buttons of the
        # player asked.
        table.message_id = lobby.message_id
        shown = table.table_message
        assert shown.photo is None and (shown.text or "").startswith("Stone Age")
        assert move_buttons(shown)
        # Playing on sends no picture while the chat's pictures are paused.
        assert await table.play(2) == 2
        assert len(picture_calls(tg, group)) == len(tried)
    lines = failure_lines(caplog, group)
    assert len(lines) == 2, lines
    assert f"sendPhoto for tg:{group.id} failed (500 Internal Server Error); trying" \
        " again" in lines[0]
    assert "sent as text" in lines[1] and "after 3 tries" in lines[1]


@pytest.mark.parametrize("code", [400, NETWORK], ids=["http400", "network"])
async def test_a_refused_or_unanswered_picture(
    tg: FakeTelegram, start_bot: StartBot, caplog: pytest.LogCaptureFixture, code: int,
) -> None:
    """A picture Telegram refuses (400) goes as text at once, tried once; a dropped
    connection is retried like a 500."""
    anna, boris = players(tg, "Anna", "Boris")
    group = tg.add_group("Game night", members=[anna, boris])
    caplog.set_level(logging.INFO)
    async with start_bot(pictures=True, picture_retry_s=0.01) as running:
        table = GroupTable(tg, running, group, [anna, boris])
        fail_pictures(tg, group, code)
        lobby, _ = await open_and_start(table)
        table.message_id = lobby.message_id
        assert table.table_message.photo is None and move_buttons(table.table_message)
        assert await table.play(3) == 3
    tried = picture_calls(tg, group)
    assert len(tried) == (1 if code == 400 else ATTEMPTS)
    lines = failure_lines(caplog, group)
    status = "400" if code == 400 else "network error"
    assert lines and all(status in line for line in lines), lines


async def test_the_picture_follows_when_the_chat_takes_pictures_again(
    tg: FakeTelegram, start_bot: StartBot, manual_clock: ManualClock,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """Once the pause is over the table's newest picture follows: a photo with the
    table's text and buttons replaces the text message (quietly), which keeps no
    buttons; the game then goes on in the photo."""
    caplog.set_level(logging.INFO)
    async with picture_table(tg, start_bot, manual_clock) as table:
        group = table.group
        running = table.running
        lobby = await open_as_text(table)
        assert table.table_message.photo is None
        assert await table.play(2) == 2
        assert await running.outbox.following() == 1
        tg.clear_failures()
        manual_clock.advance(PAUSE_S)
        photo_call = await wait_until(
            lambda: next((c for c in picture_calls(tg, group) if c.ok), None), 10.0,
            "the picture")
        await settle(running, tg)
        photo = tg.message(group, int(photo_call.result["message_id"]))
        assert photo.photo is not None and photo.silent
        version = (await table.record()).version
        assert {token_field(d, 2) for _, d in move_buttons(photo)} == {str(version)}
        assert move_buttons(tg.message(group, lobby.message_id)) == []
        assert await running.outbox.following() == 0
        # The game goes on in the photo, edited in place.
        table.message_id = photo.message_id
        assert await table.play(3) == 3
        edits = [c for c in chat_calls(tg, ("editMessageCaption", "editMessageMedia"), group)
                 if int(c.params["message_id"]) == photo.message_id]
        assert len(edits) >= 3 and table.table_message.photo is not None
    assert any(f"the picture for tg:{group.id} followed" in r.getMessage()
               for r in caplog.records)


async def test_a_photo_table_whose_new_picture_fails_becomes_a_text_message(
    tg: FakeTelegram, start_bot: StartBot,
) -> None:
    """The table is a photo; then its pictures fail (400). Its old picture must not stay
    under the new text and buttons (a map whose spots no longer match misleads): a text
    message takes its place, quietly, and the photo keeps no buttons."""
    anna, boris = players(tg, "Anna", "Boris")
    group = tg.add_group("Game night", members=[anna, boris])
    async with start_bot(pictures=True) as running:
        table = GroupTable(tg, running, group, [anna, boris])
        await table.open("/new stone_age 2-2 en")
        (photo_call,) = chat_calls(tg, ("sendPhoto",), group)
        photo_id = int(photo_call.result["message_id"])
        table.message_id = photo_id
        tg.fail_next("editMessageMedia", 400, times=ALWAYS, chat_id=group.id)
        for _ in range(20):  # until a move changes the picture; a safety net only
            if picture_calls(tg, group)[1:]:
                break
            assert await table.play(1) == 1
        (refused,) = picture_calls(tg, group)[1:]
        assert (refused.method, refused.error_code) == ("editMessageMedia", 400)
        text = tg.last_message(group)
        assert text.photo is None and text.silent and move_buttons(text)
        version = (await table.record()).version
        assert {token_field(d, 2) for _, d in move_buttons(text)} == {str(version)}
        assert move_buttons(tg.message(group, photo_id)) == []
        # The game goes on in the text message, edited in place.
        table.message_id = text.message_id
        assert await table.play(2) == 2
        assert tg.last_message(group).message_id == text.message_id


@pytest.mark.parametrize("code", [500, 400], ids=["http500", "http400"])
async def test_a_picture_that_never_goes_is_dropped_after_its_tries(
    tg: FakeTelegram, start_bot: StartBot, manual_clock: ManualClock,
    caplog: pytest.LogCaptureFixture, code: int,
) -> None:
    """The picture following its text is tried once per pause: after ``ATTEMPTS``
    failures (a 500) or at once when Telegram refuses it (a 400), it is dropped, and
    said so once; the table plays on as text."""
    caplog.set_level(logging.INFO)
    async with picture_table(tg, start_bot, manual_clock) as table:
        group = table.group
        running = table.running
        await open_as_text(table)
        assert await table.play(1) == 1
        tg.clear_failures()
        fail_pictures(tg, group, code)
        tries = ATTEMPTS if code == 500 else 1
        for n in range(1, tries + 1):
            assert await running.outbox.following() == 1
            manual_clock.advance(PAUSE_S)
            await wait_until(lambda n=n: len(picture_calls(tg, group)) == 1 + n,  # type: ignore[misc]
                             10.0, f"follow-up try {n}")
            await settle(running, tg)
        assert await running.outbox.following() == 0
        for _ in range(2):  # nothing is tried any more
            manual_clock.advance(PAUSE_S)
            await settle(running, tg)
        assert len(picture_calls(tg, group)) == 1 + tries
        # The pause is over: the next move tries its picture again, as boundedly, and
        # the table moves on as text.
        choice = table.next_press()
        assert choice is not None
        query = tg.user_presses(*choice)
        await wait_until(lambda: query.answered, 10.0, "the answer")
        await drain(running, tg, manual_clock, RETRY_S)
        assert len(picture_calls(tg, group)) == 1 + 2 * tries
        version = (await table.record()).version
        assert table.table_message.photo is None
        assert {token_field(d, 2) for _, d in move_buttons(table.table_message)} == \
            {str(version)}
    lines = [line for line in failure_lines(caplog, group) if "dropped" in line]
    said = f"dropped after {tries} {'try' if tries == 1 else 'tries'} ({code}"
    assert len(lines) == 1 and said in lines[0], lines
    assert all(m.photo is None for m in tg.messages_in(group))


async def test_a_board_asked_for_privately_comes_as_text_then_its_picture(
    tg: FakeTelegram, start_bot: StartBot, manual_clock: ManualClock,
) -> None:
    """/board privately when pictures fail there: the board's text at once; the picture
    follows later as a photo of its own, captioned with the text's first line."""
    async with picture_table(tg, start_bot, manual_clock) as table:
        anna = table.players[0]
        running = table.running
        await open_and_start(table)
        tg.fail_next("sendPhoto", 400, times=ALWAYS, chat_id=anna.id)
        before = len(tg.messages_in(anna))
        tg.user_says(anna, None, "/board")
        await settle(running, tg)
        board = tg.messages_in(anna)[before:]
        assert len(board) == 1 and board[0].photo is None
        first_line = (board[0].text or "").split("\n")[0]
        assert first_line == en("cmd.board", table=table.table_id)
        tg.clear_failures()
        manual_clock.advance(PAUSE_S)
        photo = await wait_until(lambda: next((m for m in tg.messages_in(anna)[before:]
                                               if m.photo is not None), None), 10.0,
                                 "the board's picture")
        assert photo.caption == first_line and photo.silent and datas(photo) == []
