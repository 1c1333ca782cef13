"""The Telegram adapter end to end: python-telegram-bot ↔ FakeTelegram over real HTTP.

Our bot runs exactly as ``campfire telegram`` runs it (``running_telegram``: PTB
application, Redis outbox and sender, due-job loop, polling or webhook server); the
simulated users only type and tap what the fake shows them. Waiting is always on a
recorded fact (an answer, a message, an idle bot), never a fixed sleep; where time
matters (rate windows, Telegram's waits, reminders) the bot and the fake share a
``ManualClock`` that the test moves, and call times are asserted exactly.

Tests marked ``xfail(strict=True)`` describe how the adapter should behave and fail
today; each reason names the bug.
"""

from __future__ import annotations

import logging
import random
import re
from typing import Any, cast

import pytest
from aiohttp import ClientSession

from adapters.store import GameStore, StoreSettings
from adapters.telegram.menus import telegram_menus
from adapters.telegram.render import html, keyboard
from adapters.telegram.service import SECRET_HEADER, RunningTelegram, running_telegram
from adapters.telegram.settings import TelegramSettings
from bot.input import handlers
from bot.input.commands import COMMANDS
from bot.storage import TableStatus
from bot.table.settle import table_message
from bot.ui.message import Message
from tests.adapters.telegram.e2e_helpers import (
    BOT,
    EDIT_METHODS,
    SEND_METHODS,
    GroupTable,
    ManualClock,
    StartBot,
    all_callback_data,
    chat_calls,
    datas,
    drain,
    en,
    free_port,
    move_buttons,
    players,
    press,
    settle,
    token_field,
    two_player_table,
    updates_handled,
    wait_until,
)
from tests.adapters.telegram.fake_api import (
    FakeChat,
    FakeMessage,
    FakeTelegram,
    FakeUser,
    RateLimits,
)

#: Seeds ``sv.rng`` (seat order and game seed) so the full game is the same every run:
#: pressing the first button that moves on, it ends after about 770 presses.
GAME_RNG_SEED = 238
MAX_PRESSES = 2500
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def keyboard_rows(message: Message) -> list[list[tuple[str, str]]]:
    """The (label, token) rows Telegram shows for a message, as the adapter lays them out."""
    board = keyboard(message)
    rows = board["inline_keyboard"] if board else []
    return [[(b["text"], b["callback_data"]) for b in row] for row in rows]


def users(tg: FakeTelegram, *names: str, started: bool = False) -> list[FakeUser]:
    """Simulated users (English clients); ``started``: they have opened a chat with the bot."""
    return players(tg, *names, started=started)


def texts(messages: list[FakeMessage]) -> list[str]:
    """What messages say (text or caption)."""
    return [m.text or m.caption or "" for m in messages]


# --------------------------------------------------------------------------- a whole game


async def test_three_players_play_a_whole_game_by_buttons(
    tg: FakeTelegram, start_bot: StartBot
) -> None:
    """/new, Join ×2 and Start by buttons, then every move by the button of the player asked,
    taken from the table message or the player's private prompt, up to the results."""
    anna, boris, vera = users(tg, "Anna", "Boris", "Vera", started=True)
    group = tg.add_group("Game night", members=[anna, boris, vera])
    async with start_bot() as running:
        running.app.sv.rng = random.Random(GAME_RNG_SEED)
        table = GroupTable(tg, running, group, [anna, boris, vera])
        tid = await table.open()
        # Every other press is made from the player's private prompt where they have one.
        where = await table.play_through(MAX_PRESSES)
        presses = sum(where.values())

        # The results come as a new group message (it notifies); the table's own
        # message keeps no buttons.
        final = tg.messages_in(group)[-1]
        assert final.message_id != table.message_id
        lines = (final.text or "").splitlines()
        assert lines[0] == en("result.header", game="Stone Age", table=tid)
        ranked = [m for line in lines if (m := re.match(r"^(\d)\. (\w+) — (-?\d+) ", line))]
        assert [m[1] for m in ranked] == ["1", "2", "3"]
        assert {m[2] for m in ranked} == {"Anna", "Boris", "Vera"}
        assert any(line.startswith("🏆") for line in lines)
        assert final.buttons == [] and table.table_message.buttons == []
        # Every player hears their own result privately, in a new message.
        for user in (anna, boris, vera):
            last = tg.messages_in(user)[-1]
            assert f"#{tid} has ended" in (last.text or ""), last.text
            assert last.buttons == []
        record = await cast(GameStore, running.app.sv.store).get_archived(tid)
        assert record.status == TableStatus.FINISHED

        # Both ways of playing were used; every press got its answer; no call failed.
        assert where["group"] > 100 and where["dm"] > 100, where
        assert tg.unanswered_callbacks == []
        assert tg.errors() == []
        # One kept table message: the lobby and the start announcement were sent, every
        # move after that edited the table message in place, and the results came new.
        sends = chat_calls(tg, SEND_METHODS, group)
        edits = chat_calls(tg, EDIT_METHODS, group)
        assert len(sends) == 3, texts(tg.messages_in(group))
        assert len(edits) >= presses // 2
        assert {int(c.params["message_id"]) for c in edits} == {table.message_id}
        # callback_data fits Telegram's 64 bytes on every keyboard ever sent.
        sent_data = all_callback_data(tg)
        assert len(sent_data) > presses
        assert max(len(d.encode()) for d in sent_data) <= 64


# --------------------------------------------------------------------------- commands


async def test_command_menus_and_command_forms(tg: FakeTelegram, start_bot: StartBot) -> None:
    """Menus for groups and private chats in ru and en; ``/cmd@bot`` in a group, ``/cmd``
    and bare words in private; a command for another bot is not ours."""
    (anna,) = users(tg, "Anna")
    group = tg.add_group("Game night", members=[anna])
    async with start_bot() as running:
        for scope in ("all_group_chats", "all_private_chats"):
            for lang in ("ru", "en"):
                menu = tg.my_commands(scope, lang)
                assert [name for name, _ in menu] == list(COMMANDS), (scope, lang)
                assert dict(menu)["help"] == dict(telegram_menus()[lang])["help"]
        assert tg.my_commands("all_group_chats", "ru") != tg.my_commands("all_group_chats", "en")

        async def answer(text: str, chat: FakeChat | None = None) -> str | None:
            """What the bot answers ``text`` in ``chat`` (None: Anna's private chat)."""
            where: FakeChat | FakeUser = anna if chat is None else chat
            before = len(tg.messages_in(where))
            tg.user_says(anna, chat, text)
            await settle(running, tg)
            new = tg.messages_in(where)[before:]
            assert len(new) <= 1, texts(new)
            return new[0].text if new else None

        help_header = en("help.header")
        assert (await answer(f"/help@{BOT}", group) or "").startswith(help_header)
        assert await answer(f"/games@{BOT}", group) == en("cmd.no_tables")
        assert await answer(f"/GAMES@{BOT.upper()}", group) == en("cmd.no_tables")
        assert await answer("/games") == en("cmd.no_tables")
        assert await answer(f"/mygames@{BOT}") == en("cmd.no_tables")
        assert (await answer("help") or "").startswith(help_header)
        assert (await answer("/start") or "").startswith(help_header)
        assert await answer("/games@some_other_bot") is None


async def test_a_table_in_a_forum_topic_talks_only_in_that_topic(
    tg: FakeTelegram, start_bot: StartBot
) -> None:
    anna, boris = users(tg, "Anna", "Boris")
    forum = tg.add_group("Board games", members=[anna, boris], forum=True)
    topic = tg.add_topic(forum, "Stone Age")
    other = tg.add_topic(forum, "Chatter")
    async with start_bot() as running:
        table = GroupTable(tg, running, forum, [anna, boris], thread=topic)
        tid = await table.open(f"/new@{BOT} stone_age 2-2")
        assert await table.play(3) == 3
        await table.say(anna, "/status")
        sends = chat_calls(tg, SEND_METHODS, forum)
        # lobby, start announcement, deep-link hints (nobody opened a DM), /status
        assert len(sends) >= 4
        assert all(c.params.get("message_thread_id") == topic for c in sends), \
            [(c.params.get("message_thread_id"), c.params.get("text")) for c in sends]
        assert any(f"?start=t{tid}" in t for t in texts(tg.messages_in(forum)))
        assert all(m.message_thread_id == topic for m in tg.messages_in(forum))

        # Another topic is another chat: no table there.
        tg.user_says(anna, forum, "/games", thread_id=other)
        await settle(running, tg)
        last = tg.last_message(forum)
        assert (last.text, last.message_thread_id) == (en("cmd.no_tables"), other)


async def play_after_migration(table: GroupTable, old: FakeChat, new: FakeChat) -> None:
    """The table now lives in ``new``: its message is there, with buttons that play, and
    /status there finds it; nothing more reaches the old group."""
    tg, running = table.tg, table.running
    await settle(running, tg)
    record = await table.record()
    assert record.chat_id == f"tg:{new.id}"
    assert await running.app.sv.store.tables_in_chat(f"tg:{old.id}") == []
    table.group = new
    table.message_id = next(m.message_id for m in reversed(tg.messages_in(new))
                            if m.from_bot and move_buttons(m))
    before = record.version
    assert await table.play(3) == 3
    assert (await table.record()).version == before + 3
    await table.say(table.players[0], "/status")  # finds the table in its new chat
    assert en("cmd.no_tables") not in texts(tg.messages_in(new))
    old_calls = chat_calls(tg, SEND_METHODS + EDIT_METHODS, old)
    sent_to_old = len(old_calls)
    await table.play(1)
    assert len(chat_calls(tg, SEND_METHODS + EDIT_METHODS, old)) == sent_to_old


async def test_a_group_upgraded_to_a_supergroup_keeps_its_game(
    tg: FakeTelegram, start_bot: StartBot
) -> None:
    anna, boris = users(tg, "Anna", "Boris", started=True)
    group = tg.add_group("Family", members=[anna, boris], supergroup=False)
    async with start_bot() as running:
        table = GroupTable(tg, running, group, [anna, boris])
        await table.open("/new stone_age 2-2")
        assert await table.play(2) == 2
        supergroup = tg.migrate_group(group)  # Telegram announces it in both chats
        await play_after_migration(table, group, supergroup)


async def test_a_missed_upgrade_notice_is_learnt_from_telegrams_refusal(
    tg: FakeTelegram, start_bot: StartBot
) -> None:
    """Without the service messages, the first message to the old id comes back with
    the new one: it is sent there, and the tables move."""
    anna, boris = users(tg, "Anna", "Boris", started=True)
    group = tg.add_group("Family", members=[anna, boris], supergroup=False)
    async with start_bot() as running:
        table = GroupTable(tg, running, group, [anna, boris])
        await table.open("/new stone_age 2-2")
        pending = len(tg.pending_updates)
        supergroup = tg.migrate_group(group)
        for update in tg.pending_updates[pending:]:
            tg.drop_update(update["update_id"])
        # A private-chat move: the table message in the old group is edited next.
        choice = table.next_press(from_dm=True)
        assert choice is not None
        await table.press(*choice)
        refused = [c for c in chat_calls(tg, EDIT_METHODS, group, ok=False) if not c.ok]
        assert refused, "the edit went to the old id first"
        await play_after_migration(table, group, supergroup)


# --------------------------------------------------------------------------- private messages


def dm_texts(tg: FakeTelegram, user: FakeUser) -> list[str]:
    return texts(tg.messages_in(user))


async def test_your_turn_arrives_privately_and_can_be_played_there(
    tg: FakeTelegram, start_bot: StartBot
) -> None:
    async with two_player_table(tg, start_bot, started=True) as table:
        tid = table.table_id
        first = table.seats[0]
        prompt = table.dm_prompt(first)
        assert prompt is not None
        assert (prompt.text or "").startswith(f"🔔 Stone Age #{tid}: your turn!")
        assert move_buttons(prompt)
        assert len(chat_calls(tg, ("sendMessage",), first)) == 2  # /start's help, the turn
        before = (await table.record()).version

        data = move_buttons(prompt)[0][1]
        query = await table.press(first, prompt, data)
        assert query.answer is not None and not query.answer.show_alert
        record = await table.record()
        assert record.version == before + 1 and record.seats[0] == f"tg:{first.id}"
        # The group's table message moved on too: its buttons carry the new version.
        assert {token_field(d, 2) for _, d in move_buttons(table.table_message)} == \
            {str(record.version)}


async def test_board_and_turn_typed_in_a_group_go_privately_and_the_group_hears_so(
    tg: FakeTelegram, start_bot: StartBot
) -> None:
    """Telegram cannot show a message to one member of a group: a private part goes as
    a DM, and the group gets the core's note saying where it went (once each)."""
    async with two_player_table(tg, start_bot, started=True) as table:
        group = table.group
        running = table.running
        tid = table.table_id
        first = table.seats[0]
        for typed, said in (("/board", en("cmd.board_sent")),
                            ("/turn", en("cmd.turn_sent", table=tid))):
            in_group, in_dm = len(tg.messages_in(group)), len(tg.messages_in(first))
            tg.user_says(first, group, typed)
            await settle(running, tg)
            group_lines = [m.text for m in tg.messages_in(group)[in_group:]]
            assert group_lines == [said], typed
            assert len(tg.messages_in(first)) == in_dm + 1, typed


async def play_until_second_turn(table: GroupTable, user: FakeUser) -> None:
    """Play from private prompts until ``user``'s turn comes round a second time."""
    # "done", or with two players "done, and you are next" (the same words first).
    done = en("turn.done", game="Stone Age", table=table.table_id).split(",")[0]
    seen_done = False
    for _ in range(40):
        prompt = table.dm_prompt(user)
        seen_done = seen_done or any(t.startswith(done) for t in dm_texts(table.tg, user))
        if seen_done and prompt is not None:
            return
        assert await table.play(1, from_dm=True) == 1
    raise AssertionError("the turn did not come back")


async def test_every_new_turn_is_a_new_private_message(
    tg: FakeTelegram, start_bot: StartBot
) -> None:
    async with two_player_table(tg, start_bot, started=True) as table:
        first = table.seats[0]
        await play_until_second_turn(table, first)
        your_turn = [c for c in chat_calls(tg, SEND_METHODS, first)
                     if "your turn!" in str(c.params.get("text"))]
        assert len(your_turn) == 2


#: A table whose players have opened the bot, reminded 2 s after a turn began, once.
REMINDED: dict[str, Any] = {"started": True, "options": "remind=2s repeat=1"}


def reminded(tg: FakeTelegram, user: FakeUser, mark: str) -> bool:
    """Has ``user`` privately been sent a message starting with ``mark``?"""
    return any(t.startswith(mark) for t in dm_texts(tg, user))


async def test_a_reminder_reaches_the_player(
    tg: FakeTelegram, start_bot: StartBot, manual_clock: ManualClock
) -> None:
    """remind=2s and a clock moved 1 s on, then 3 s: no reminder after 1 s; after 3 the
    player asked sees one privately, with buttons that work."""
    async with two_player_table(tg, start_bot, clock=manual_clock, **REMINDED) as table:
        running = table.running
        first = table.seats[0]
        mark = f"⏰ Reminder — Stone Age #{table.table_id} is waiting for you."
        manual_clock.advance(1.0)
        await settle(running, tg)
        assert not reminded(tg, first, mark)
        manual_clock.advance(2.0)
        await wait_until(lambda: reminded(tg, first, mark), 5.0, "the reminder")
        reminder = next(m for m in tg.messages_in(first) if (m.text or "").startswith(mark))
        assert move_buttons(reminder)
        assert not reminded(tg, table.seats[1], mark)
        before = (await table.record()).version
        query = await table.press(first, reminder, move_buttons(reminder)[0][1])
        assert query.answer is not None and not query.answer.show_alert
        assert (await table.record()).version == before + 1


async def test_a_reminder_is_a_new_private_message(
    tg: FakeTelegram, start_bot: StartBot, manual_clock: ManualClock
) -> None:
    async with two_player_table(tg, start_bot, clock=manual_clock, **REMINDED) as table:
        running = table.running
        first = table.seats[0]
        mark = f"⏰ Reminder — Stone Age #{table.table_id}"
        manual_clock.advance(3.0)
        await wait_until(lambda: reminded(tg, first, mark), 5.0, "the reminder")
        await settle(running, tg)
        sent = [c for c in chat_calls(tg, SEND_METHODS, first)
                if str(c.params.get("text")).startswith("⏰")]
        assert len(sent) == 1


async def test_a_player_without_a_private_chat_gets_one_deep_link_then_the_prompt(
    tg: FakeTelegram, start_bot: StartBot
) -> None:
    """403 for a private message → one hint per player in the group with a deep link;
    opening the bot through it brings the player's open decision privately."""
    async with two_player_table(tg, start_bot) as table:
        anna, boris = table.players
        group = table.group
        running = table.running
        tid = table.table_id
        assert await table.play(6) == 6  # more private messages fail on the way
        link = f"https://t.me/{BOT}?start=t{tid}"
        hints = [t for t in texts(tg.messages_in(group)) if link in t]
        for user in (anna, boris):
            mine = [t for t in hints if t.startswith(f"{user.first_name}, ")]
            assert len(mine) == 1, hints
            assert mine[0] == en("tg.open_dm", name=user.first_name, link=link)
        assert chat_calls(tg, SEND_METHODS, anna, ok=False), "a private message was tried"

        choice = table.next_press()
        assert choice is not None
        current = choice[0]
        tg.user_starts_bot(current, f"t{tid}")
        await settle(running, tg)
        prompt = await wait_until(lambda: table.dm_prompt(current), 5.0, "the private prompt")
        assert f"#{tid}" in (prompt.text or "")
        before = (await table.record()).version
        query = await table.press(current, prompt, move_buttons(prompt)[0][1])
        assert query.answer is not None and not query.answer.show_alert
        assert (await table.record()).version == before + 1
        # Still one hint each.
        assert len([t for t in texts(tg.messages_in(group)) if link in t]) == 2


async def test_a_player_who_blocked_the_bot_is_tried_once_until_they_come_back(
    tg: FakeTelegram, start_bot: StartBot
) -> None:
    """Telegram's 403 "blocked by the user" closes the player's private line: nothing
    more is tried unasked (the game goes on in the group); starting the bot again
    opens it, and their prompts come privately once more."""
    async with two_player_table(tg, start_bot, started=True) as table:
        anna, boris = table.players
        await settle(table.running, tg)  # the answers to their /start went out
        tg.user_blocks_bot(anna)
        assert await table.play(30) == 30
        def refused(user: FakeUser) -> list[str]:
            return [c.method for c in tg.calls
                    if str(c.params.get("chat_id")) == str(user.id) and not c.ok]

        assert len(refused(anna)) == 1, refused(anna)
        assert refused(boris) == []
        delivered = len(chat_calls(tg, SEND_METHODS, anna))

        tg.user_starts_bot(anna)
        await settle(table.running, tg)
        assert await table.play(8) == 8
        assert len(chat_calls(tg, SEND_METHODS, anna)) > delivered
        assert len(refused(anna)) == 1


# --------------------------------------------------------------------------- safety


async def test_stale_foreign_and_forged_presses_are_refused_and_change_nothing(
    tg: FakeTelegram, start_bot: StartBot
) -> None:
    anna, boris, carl = users(tg, "Anna", "Boris", "Carl")
    group = tg.add_group("Game night", members=[anna, boris, carl])
    async with start_bot() as running:
        table = GroupTable(tg, running, group, [anna, boris])
        tid = await table.open("/new stone_age 2-2")
        current, waiting = table.seats
        original = table.table_message

        async def refused(user: FakeUser, message: FakeMessage, data: str, text: str,
                          strict: bool = True) -> None:
            before = await table.record()
            query = await press(running, tg, user, message, data, strict=strict)
            assert query.answer is not None
            assert (query.answer.show_alert, query.answer.text) == (True, text)
            after = await table.record()
            assert (after.version, after.state) == (before.version, before.state)

        old = [d for _, d in move_buttons(original)]
        assert len(old) > 1
        await refused(carl, original, old[0], en("press.not_a_player"))
        await refused(waiting, original, old[0],
                      en("press.not_your_button", name=current.first_name))
        # /status brings the table down as a new message that takes over its buttons.
        await table.say(current, "/status")
        status = tg.last_message(group)
        assert status.message_id != original.message_id
        assert [d for _, d in move_buttons(status)] == old
        assert move_buttons(tg.message(group, original.message_id)) == []
        table.message_id = status.message_id
        # A real move, then another button of the same, older choice is out of date.
        choice = table.next_press()
        assert choice is not None and choice[1] is status
        await table.press(*choice)
        other = next(d for d in old if d != choice[2])
        await refused(current, original, other, en("press.stale"), strict=False)
        # Forged data never reaches a table.
        data = move_buttons(table.table_message)[0][1]
        version = (await table.record()).version
        for forged in (f"m.{tid}.{version}.0.abcd.0.AAAAAAAAAA", "hello", "x" * 64,
                       data[:-1] + ("A" if data[-1] != "A" else "B"),
                       f"l.{tid}.start.{'0' * 10}"):
            await refused(current, table.table_message, forged, en("press.forged"),
                          strict=False)
        assert tg.unanswered_callbacks == []


# --------------------------------------------------------------------------- restart, dedupe


async def test_the_game_goes_on_after_a_restart(
    tg: FakeTelegram, start_bot: StartBot, own_store_settings: StoreSettings
) -> None:
    """Stop the bot mid-game (its embedded Redis too), press while it is down, start it
    again on the same data: the waiting press is applied, and the next one too."""
    async with two_player_table(tg, start_bot, store=own_store_settings) as table:
        running = table.running
        tid = table.table_id
        await table.play(3)
        version = (await table.record()).version

    choice = table.next_press()
    assert choice is not None
    query = tg.user_presses(*choice)  # nobody is polling now
    async with start_bot(store=own_store_settings) as running:
        table.running = running
        await wait_until(lambda: query.answered, 10.0, "the press made while down")
        await settle(running, tg)
        assert query.answer is not None and not query.answer.show_alert
        assert (await table.record()).version == version + 1
        assert await table.play(1) == 1
        record = await running.app.sv.store.get(tid)
        assert record.version == version + 2
        # Still the same table message, edited in place.
        assert {token_field(d, 2) for _, d in move_buttons(table.table_message)} == \
            {str(record.version)}
    assert tg.unanswered_callbacks == []


async def test_an_update_delivered_twice_is_applied_once(
    tg: FakeTelegram, start_bot: StartBot
) -> None:
    async with two_player_table(tg, start_bot) as table:
        anna = table.players[0]
        group = table.group
        running = table.running
        tid = table.table_id
        store = running.app.sv.store
        before = await table.record()
        choice = table.next_press()
        assert choice is not None
        query = await table.press(*choice)
        logged = len(await store.action_log(tid))
        tg.redeliver(query.update_id)
        await wait_until(lambda: sum(1 for u in tg.delivered_updates
                                     if u["update_id"] == query.update_id) == 2)
        await settle(running, tg)
        after = await table.record()
        assert after.version == before.version + 1
        assert len(await store.action_log(tid)) == logged

        # A command delivered twice opens one table, not two.
        opened = tg.user_says(anna, group, "/new stone_age")
        await settle(running, tg)
        assert opened.update_id is not None
        tg.redeliver(opened.update_id)
        await wait_until(lambda: sum(1 for u in tg.delivered_updates
                                     if u["update_id"] == opened.update_id) == 2)
        await settle(running, tg)
        assert len(await store.tables_in_chat(f"tg:{group.id}")) == 2


# --------------------------------------------------------------------------- webhook


async def test_webhook_mode_checks_the_secret_and_plays(
    tg: FakeTelegram, start_bot: StartBot
) -> None:
    anna, boris = users(tg, "Anna", "Boris")
    group = tg.add_group("Game night", members=[anna, boris])
    port = free_port()
    url = f"http://127.0.0.1:{port}/tg"
    secret = "s3cret-Token_42"
    async with start_bot(webhook_url=url, webhook_secret=secret, listen="127.0.0.1",
                         port=port, webhook_connections=64) as running:
        assert tg.webhook is not None
        assert (tg.webhook.url, tg.webhook.secret_token) == (url, secret)
        assert tg.webhook.max_connections == 64
        assert running.webhook_port == port

        # Requests without the secret, or with a wrong one, are refused and do nothing.
        tg.user_says(anna, group, "/games")
        for wrong in ("", "not-the-secret"):
            (delivery,) = await tg.deliver_webhook(secret_token=wrong)
            assert delivery.status == 403
        async with ClientSession() as http:
            update = tg.pending_updates[0]
            async with http.post(url, json=update, headers={SECRET_HEADER: secret + "x"}) as r:
                assert r.status == 403
        assert tg.messages_in(group) == [] and len(tg.pending_updates) == 1
        # With the secret it is handled.
        (delivery,) = await tg.deliver_webhook()
        assert delivery.status == 200
        await settle(running, tg)
        assert texts(tg.messages_in(group)) == [en("cmd.no_tables")]

        # A game over the webhook: lobby, start and a move all apply.
        tg.auto_deliver_webhook = True
        table = GroupTable(tg, running, group, [anna, boris])
        await table.open("/new stone_age 2-2")
        before = (await table.record()).version
        assert await table.play(2) == 2
        assert (await table.record()).version == before + 2
        # Each press's messages were handed over and the core told so: nothing is owed.
        store = running.app.sv.store
        assert isinstance(store, GameStore)
        assert await store._redis.zcard(store.keys.owed()) == 0
    assert tg.calls_to("getUpdates") == []
    assert tg.unanswered_callbacks == []
    # Every press was answered in the webhook's response, not by a call of its own.
    answers = tg.calls_to("answerCallbackQuery")
    assert len(answers) >= 4  # join, start and the two moves
    assert {call.via for call in answers} == {"webhook_reply"}


async def test_two_workers_behind_a_load_balancer_play_one_game(
    tg: FakeTelegram, start_bot: StartBot
) -> None:
    """Two bot processes share Redis; webhook deliveries alternate between them at
    random, one update reaches both. Every move applies once, each chat's messages stay
    in order, and the table message ends showing the final state."""
    anna, boris = users(tg, "Anna", "Boris", started=True)
    group = tg.add_group("Game night", members=[anna, boris])
    ports = [free_port(), free_port()]
    urls = [f"http://127.0.0.1:{port}/tg" for port in ports]
    rnd = random.Random(5)
    async with start_bot(webhook_url=urls[0], webhook_secret="s1", listen="127.0.0.1",
                         port=ports[0]) as first, \
            start_bot(webhook_url=urls[1], webhook_secret="s1", listen="127.0.0.1",
                      port=ports[1]) as second:
        workers = [first, second]

        async def both_settled() -> None:
            for _ in range(2):  # an item one worker took may wake the other
                for running in workers:
                    await settle(running, tg)

        async def deliver() -> None:
            await tg.deliver_webhook(url=rnd.choice(urls))
            await both_settled()

        table = GroupTable(tg, first, group, [anna, boris])
        tg.user_says(anna, group, "/new stone_age 2-2")
        await deliver()
        lobby = tg.messages_in(group)[-1]
        table.message_id = lobby.message_id
        table.table_id = token_field(datas(lobby)[0], 1)
        tg.user_presses(boris, lobby, GroupTable.button(lobby, "join"))
        await deliver()
        tg.user_presses(anna, lobby, GroupTable.button(lobby, "start"))
        await deliver()
        announce = next(m for m in tg.messages_in(group) if (m.text or "").startswith("🎲"))
        by_name = {u.first_name: u for u in (anna, boris)}
        table.seats = [by_name[n.strip()] for _, n in sorted(
            (int(i), n) for i, n in re.findall(r"^(\d+)\. (.+)$", announce.text or "", re.M))]

        start = (await table.record()).version
        presses = 0
        for i in range(30):
            choice = table.next_press(from_dm=i % 2 == 1)
            assert choice is not None
            query = tg.user_presses(*choice)
            if i == 10:
                # Telegram (or the balancer) hands the same update to both workers.
                update_id = tg.pending_updates[0]["update_id"]
                await tg.deliver_webhook(url=urls[0])
                tg.redeliver(update_id)
                await tg.deliver_webhook(url=urls[1])
                await both_settled()
            else:
                await deliver()
            assert query.answer is not None and not query.answer.show_alert, query.answer
            presses += 1
        record = await table.record()
        assert record.version == start + presses
        # The table message shows the state the core holds now, buttons and all.
        expected = await table_message(first.app.sv, record)
        assert table.table_message.sent_text == html(expected.text)
        assert table.table_message.buttons == keyboard_rows(expected)
        # Each player's private messages came in order: the newest live prompt is theirs
        # now, and no older message still carries buttons.
        for user in (anna, boris):
            live = [m for m in tg.messages_in(user) if move_buttons(m)]
            assert len(live) <= 1
    assert tg.unanswered_callbacks == []


# --------------------------------------------------------------------------- limits


#: A rate window in these tests: the bot and the fake share a ``ManualClock``, which
#: moves on by a window only when all the bot has left waits for the next one.
WINDOW_S = 30.0


async def test_a_burst_to_one_group_keeps_to_the_limit_and_loses_nothing(
    tg: FakeTelegram, start_bot: StartBot, manual_clock: ManualClock
) -> None:
    """12 answers at once to a group allowed 5 per window: 5 reach Telegram in the first
    window, 5 in the next, 2 in the third (none answered 429), all 12 arrive."""
    (anna,) = users(tg, "Anna")
    group = tg.add_group("Game night", members=[anna])
    tg.rate_limits = RateLimits(group_messages=5, group_window=WINDOW_S, global_messages=None)
    t0 = manual_clock()
    async with start_bot(clock=manual_clock, group_per_window=5,
                         group_window_s=WINDOW_S) as running:
        for _ in range(12):
            tg.user_says(anna, group, "/games")
        await drain(running, tg, manual_clock, WINDOW_S)
    sends = chat_calls(tg, SEND_METHODS, group, ok=False)
    assert tg.rate_limited == []
    assert all(c.ok for c in sends)
    assert [c.time - t0 for c in sends] == [0.0] * 5 + [WINDOW_S] * 5 + [2 * WINDOW_S] * 2
    assert texts(tg.messages_in(group)) == [en("cmd.no_tables")] * 12


async def test_table_updates_coalesce_under_the_limit_and_end_in_the_final_state(
    tg: FakeTelegram, start_bot: StartBot, manual_clock: ManualClock
) -> None:
    """Ten lobby changes within one window that allows 2 messages: the lobby message and
    one edit go, the other changes wait and go as one edit in the next window, showing
    the last state."""
    anna, boris, vera, gleb = users(tg, "Anna", "Boris", "Vera", "Gleb")
    group = tg.add_group("Game night", members=[anna, boris, vera, gleb])
    tg.rate_limits = RateLimits(group_messages=2, group_window=WINDOW_S, global_messages=None)
    t0 = manual_clock()
    async with start_bot(clock=manual_clock, group_per_window=2,
                         group_window_s=WINDOW_S) as running:
        table = GroupTable(tg, running, group, [anna])
        lobby = await table.open_lobby("/new stone_age 2-4")
        steps = [(boris, "join"), (vera, "join"), (gleb, "join"), (boris, "leave"),
                 (vera, "leave"), (boris, "join"), (gleb, "leave"), (vera, "join"),
                 (gleb, "join"), (vera, "leave")]
        for user, verb in steps:
            query = tg.user_presses(user, lobby, table.button(lobby, verb))
            await wait_until(lambda q=query: q.answered, 5.0, verb)  # type: ignore[misc]
            assert query.answer is not None and not query.answer.show_alert, query.answer
        await drain(running, tg, manual_clock, WINDOW_S)
        record = await table.record()
        assert list(record.seats) == [f"tg:{anna.id}", f"tg:{boris.id}", f"tg:{gleb.id}"]
        expected = await table_message(running.app.sv, record)
    assert table.table_message.sent_text == html(expected.text)
    assert table.table_message.buttons == keyboard_rows(expected)
    edits = chat_calls(tg, EDIT_METHODS, group, ok=False)
    assert tg.rate_limited == [] and all(c.ok for c in edits)
    calls = chat_calls(tg, SEND_METHODS + EDIT_METHODS, group, ok=False)
    assert [(c.method, c.time - t0) for c in calls] == [
        ("sendMessage", 0.0), ("editMessageText", 0.0), ("editMessageText", WINDOW_S)]


#: Telegram's wait in these tests, on the ``ManualClock`` (the bot's hold on the chat
#: also lasts about this long in real seconds, far longer than a test).
RETRY_AFTER_S = 300


async def test_retry_after_is_waited_out_and_the_message_arrives(
    tg: FakeTelegram, start_bot: StartBot, manual_clock: ManualClock
) -> None:
    (anna,) = users(tg, "Anna")
    group = tg.add_group("Game night", members=[anna])
    async with start_bot(clock=manual_clock) as running:
        tg.fail_next("sendMessage", 429, retry_after=RETRY_AFTER_S, chat_id=group.id)
        tg.user_says(anna, group, "/games")
        await drain(running, tg, manual_clock, RETRY_AFTER_S / 3)
    failed, sent = chat_calls(tg, ("sendMessage",), group, ok=False)
    assert (failed.error_code, failed.retry_after) == (429, RETRY_AFTER_S)
    # Not sent again before Telegram's wait was over (the clock moves in thirds of it).
    assert sent.ok and sent.time - failed.time == 4 * RETRY_AFTER_S / 3
    assert texts(tg.messages_in(group)) == [en("cmd.no_tables")]


async def test_a_bad_gateway_is_retried(tg: FakeTelegram, start_bot: StartBot) -> None:
    (anna,) = users(tg, "Anna")
    group = tg.add_group("Game night", members=[anna])
    async with start_bot() as running:
        tg.fail_next("sendMessage", 502, chat_id=group.id)
        tg.user_says(anna, group, "/games")
        await wait_until(lambda: tg.messages_in(group), 5.0, "the answer")
        await settle(running, tg)
    calls = chat_calls(tg, ("sendMessage",), group, ok=False)
    assert [c.error_code for c in calls] == [502, None]
    assert texts(tg.messages_in(group)) == [en("cmd.no_tables")]


async def processed(running: RunningTelegram, tg: FakeTelegram) -> None:
    """Every update so far was handled (its answer may still wait in the outbox)."""
    for _ in range(2):
        await wait_until(lambda: updates_handled(running, tg), 5.0, "the update handled")


async def test_messages_to_a_chat_keep_their_order_under_the_limit(
    tg: FakeTelegram, start_bot: StartBot
) -> None:
    (anna,) = users(tg, "Anna")
    group = tg.add_group("Game night", members=[anna])
    async with start_bot(group_per_window=3, group_window_s=0.5) as running:
        opened: list[str] = []
        for _ in range(10):
            tg.user_says(anna, group, "/new stone_age")
            await processed(running, tg)
            tables = await running.app.sv.store.tables_in_chat(f"tg:{group.id}")
            (new,) = {t.table_id for t in tables} - set(opened)
            opened.append(new)
        await wait_until(lambda: len(tg.messages_in(group)) == 10, 10.0, "10 lobbies")
        await settle(running, tg)
    shown = [token_field(datas(m)[0], 1) for m in tg.messages_in(group)]
    assert shown == opened


async def test_a_retry_after_pauses_the_whole_chat(
    tg: FakeTelegram, start_bot: StartBot, manual_clock: ManualClock
) -> None:
    """A message queued for the chat after Telegram said wait goes after the wait too,
    and after the refused one."""
    (anna,) = users(tg, "Anna")
    group = tg.add_group("Game night", members=[anna])
    async with start_bot(clock=manual_clock) as running:
        tg.fail_next("sendMessage", 429, retry_after=RETRY_AFTER_S, chat_id=group.id)
        tg.user_says(anna, group, "/games")
        await wait_until(lambda: chat_calls(tg, ("sendMessage",), group, ok=False))
        tg.user_says(anna, group, "/help")
        await drain(running, tg, manual_clock, RETRY_AFTER_S / 3)
    failed, *sent = chat_calls(tg, ("sendMessage",), group, ok=False)
    assert failed.error_code == 429
    assert [c.time - failed.time for c in sent] == [4 * RETRY_AFTER_S / 3] * 2
    assert texts(tg.messages_in(group))[0] == en("cmd.no_tables")


async def test_topics_of_one_forum_share_the_group_limit(
    tg: FakeTelegram, start_bot: StartBot, manual_clock: ManualClock
) -> None:
    """Six answers in two topics of a forum allowed 3 per window: 3 in the first
    window, 3 in the next."""
    (anna,) = users(tg, "Anna")
    forum = tg.add_group("Board games", members=[anna], forum=True)
    topics = [tg.add_topic(forum, "One"), tg.add_topic(forum, "Two")]
    tg.rate_limits = RateLimits(group_messages=3, group_window=WINDOW_S, global_messages=None)
    t0 = manual_clock()
    async with start_bot(clock=manual_clock, group_per_window=3,
                         group_window_s=WINDOW_S) as running:
        for topic in topics * 3:
            tg.user_says(anna, forum, "/games", thread_id=topic)
        await drain(running, tg, manual_clock, WINDOW_S)
    assert tg.rate_limited == []
    times = [c.time - t0 for c in chat_calls(tg, SEND_METHODS, forum, ok=False)]
    assert times == [0.0] * 3 + [WINDOW_S] * 3
    assert len(tg.messages_in(forum)) == 6


# --------------------------------------------------------------------------- errors, logs


def boom_handler(*_: object) -> object:
    raise RuntimeError("boom in a handler")


async def test_a_failing_press_is_logged_and_its_button_still_answered(
    tg: FakeTelegram, start_bot: StartBot, monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    async with two_player_table(tg, start_bot) as table:
        choice = table.next_press()
        assert choice is not None
        before = (await table.record()).version

        async def broken(*_: object) -> object:
            raise RuntimeError("boom in a press")

        monkeypatch.setattr("bot.app.press", broken)
        with caplog.at_level(logging.ERROR):
            query = await table.press(*choice)
        assert query.answered  # no endless spinner
        assert (await table.record()).version == before
        assert any(r.exc_info and "boom in a press" in str(r.exc_info[1])
                   for r in caplog.records)


async def test_a_press_whose_answer_fails_still_moves_the_table_on(
    tg: FakeTelegram, start_bot: StartBot
) -> None:
    """The move is saved before the button is answered: if Telegram refuses the answer
    (a query that got too old, a dropped connection), the table still shows the move."""
    async with two_player_table(tg, start_bot) as table:
        choice = table.next_press()
        assert choice is not None
        before = (await table.record()).version
        edits = table.table_message.edit_count
        tg.fail_next("answerCallbackQuery", 400,
                     "Bad Request: query is too old and response timeout expired")
        tg.user_presses(*choice)
        await wait_until(lambda: table.table_message.edit_count > edits, 10.0, "the edit")
        record = await table.record()
        assert record.version == before + 1
        assert {token_field(d, 2) for _, d in move_buttons(table.table_message)} == \
            {str(record.version)}


async def test_a_failing_command_is_logged_with_context_and_answered_politely(
    tg: FakeTelegram, start_bot: StartBot, monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    async with two_player_table(tg, start_bot) as table:
        anna = table.players[0]
        group = table.group
        choice = table.next_press()
        assert choice is not None
        monkeypatch.setitem(handlers.HANDLERS, "games", boom_handler)

        async def broken(*_: object) -> object:
            raise RuntimeError("boom in a press")

        monkeypatch.setattr("bot.app.press", broken)
        before = len(tg.messages_in(group))
        with caplog.at_level(logging.ERROR):
            said = await table.say(anna, "/games")
            query = await table.press(*choice)
        logged = [r for r in caplog.records if r.exc_info and "boom" in str(r.exc_info[1])]
        assert len(logged) == 2
        command_log = next(r for r in logged if "handler" in str(r.exc_info and r.exc_info[1]))
        assert str(group.id) in command_log.getMessage()
        assert str(said.update_id) in command_log.getMessage()
        # A polite answer in the chat, and an alert on the button.
        assert len(tg.messages_in(group)) == before + 1
        assert query.answer is not None and query.answer.text and query.answer.show_alert


async def test_the_token_never_appears_in_logs(
    tg: FakeTelegram, start_bot: StartBot, caplog: pytest.LogCaptureFixture,
) -> None:
    """Everything logged at DEBUG (PTB, its HTTP clients, ours) while the bot polls,
    answers, edits, retries a 502 and meets a 403 shows no token."""
    caplog.set_level(logging.DEBUG)
    anna, boris = users(tg, "Anna", "Boris")
    group = tg.add_group("Game night", members=[anna, boris])
    async with start_bot() as running:
        for name in ("aiohttp", "httpx", "httpcore", "telegram", "adapters", "bot"):
            caplog.set_level(logging.DEBUG, logger=name)  # the bot set httpx to WARNING
        table = GroupTable(tg, running, group, [anna, boris])
        await table.open("/new stone_age 2-2")
        tg.fail_next("editMessageText", 502)
        await table.play(2)
        tg.fail_next("sendMessage", 400, "Bad Request: chat not found", chat_id=group.id)
        await table.say(anna, "/games")
    assert any("getUpdates" in r.getMessage() for r in caplog.records), "DEBUG was captured"
    # PTB logs each endpoint with its parameters at DEBUG; none of it carries the token.
    assert any(r.name.startswith("telegram") and "editMessageText" in r.getMessage()
               for r in caplog.records)
    assert tg.token not in caplog.text
    assert all(tg.token not in r.getMessage() for r in caplog.records)
    assert all(tg.token not in str(c.params) for c in tg.calls)


async def test_a_rejected_token_is_not_shown_in_the_error(
    tg: FakeTelegram, store_settings: StoreSettings
) -> None:
    wrong = "7000000001:AAWrongTokenForCampfireTests_98765432"
    settings = TelegramSettings(token=wrong, base_url=tg.base_url,
                                base_file_url=tg.base_file_url)
    with pytest.raises(Exception) as caught:
        async with running_telegram(settings, store_settings, pictures=False):
            pass
    chain = [caught.value, caught.value.__cause__, caught.value.__context__]
    assert all(wrong not in str(exc) for exc in chain if exc is not None)


async def test_a_mistyped_base_url_fails_without_showing_the_token(
    tg: FakeTelegram, store_settings: StoreSettings, caplog: pytest.LogCaptureFixture
) -> None:
    """``TELEGRAM_BASE_URL`` without its ``/bot`` suffix glues the token onto the port:
    the HTTP library's error quotes that URL. Neither the error, its chain, nor any
    log line (tracebacks included) may show the token."""
    base = tg.base_url.removesuffix("/bot")
    settings = TelegramSettings(token=tg.token, base_url=base,
                                base_file_url=tg.base_file_url)
    caplog.set_level(logging.DEBUG)
    with pytest.raises(RuntimeError) as caught:
        async with running_telegram(settings, store_settings, pictures=False):
            pass
    assert "TELEGRAM_BASE_URL" in str(caught.value)
    seen: list[BaseException] = []
    exc: BaseException | None = caught.value
    while exc is not None and exc not in seen:
        seen.append(exc)
        assert tg.token not in str(exc)
        exc = exc.__cause__ or exc.__context__
    for record in caplog.records:
        formatted = logging.Formatter().format(record)
        assert tg.token not in formatted, formatted


# --------------------------------------------------------------------------- pictures


async def test_the_table_is_a_photo_replaced_in_place(
    tg: FakeTelegram, start_bot: StartBot
) -> None:
    async with two_player_table(tg, start_bot, pictures=True) as table:
        group = table.group
        tid = table.table_id
        (photo_call,) = chat_calls(tg, ("sendPhoto",), group)
        photo_id = int(photo_call.result["message_id"])
        photo = tg.message(group, photo_id)
        assert photo.photo_bytes is not None and photo.photo_bytes.startswith(PNG_MAGIC)
        assert (photo.caption or "").startswith(f"Stone Age · #{tid}")
        first_picture = photo.photo_bytes
        table.message_id = photo_id
        assert await table.play(3) == 3
        media = chat_calls(tg, ("editMessageMedia",), group)
        assert media and {int(c.params["message_id"]) for c in media} == {photo_id}
        photo = tg.message(group, photo_id)
        assert photo.photo_bytes != first_picture
        assert photo.photo_bytes is not None and photo.photo_bytes.startswith(PNG_MAGIC)
        version = (await table.record()).version
        assert {token_field(d, 2) for _, d in move_buttons(photo)} == {str(version)}
        assert len(chat_calls(tg, ("sendPhoto",), group)) == 1
        assert [c for c in tg.errors() if c.error_code != 403] == []  # 403: no private chats


async def test_the_lobby_message_keeps_no_buttons_once_the_table_is_a_photo(
    tg: FakeTelegram, start_bot: StartBot
) -> None:
    anna, boris = users(tg, "Anna", "Boris")
    group = tg.add_group("Game night", members=[anna, boris])
    async with start_bot(pictures=True) as running:
        table = GroupTable(tg, running, group, [anna, boris])
        lobby_id = (await table.open_lobby("/new stone_age 2-2")).message_id
        start = table.button(tg.message(group, lobby_id), "start")
        await table.press(anna, tg.message(group, lobby_id), start)
        await settle(running, tg)
        assert tg.message(group, lobby_id).buttons == []
