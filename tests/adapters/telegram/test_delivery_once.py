"""Delivery at least once, without visible duplicates where Telegram allows, end to end:
faults injected in the fake Bot API (a call that took effect but answered with an
error) and in the bot between Telegram's answer and the outbox's ack, and the core's
repair after a crash re-deriving messages that went out already.

Telegram has no idempotency key: what the first try of a message did when its answer
was lost cannot be learnt. These tests pin down what the bot does about it: the same
message is never delivered twice once acknowledged, and a message sent again because
its first try may have arrived goes silently, so nobody is notified twice.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest

from adapters.delivery.outbox import LEASE_S
from adapters.store import GameStore
from adapters.telegram.service import RunningTelegram
from bot.ui.message import Reply
from tests.adapters.telegram.e2e_helpers import (
    EDIT_METHODS,
    SEND_METHODS,
    GroupTable,
    ManualClock,
    StartBot,
    drain,
    en,
    fail_first,
    move_buttons,
    players,
    settle,
    two_player_table,
    wait_until,
)
from tests.adapters.telegram.fake_api import FakeMessage, FakeTelegram, FakeUser


def turns(tg: FakeTelegram, user: FakeUser, since: int) -> list[FakeMessage]:
    """The user's private messages with move buttons (their turns), after ``since``."""
    return [m for m in tg.messages_in(user)[since:] if move_buttons(m)]


async def to_the_handover(table: GroupTable) -> tuple[FakeUser, Any, str, FakeUser]:
    """Play until a press that passes the turn: the first player places people, which
    hands the turn to the other player, whose placement (the press returned) hands it
    back. Returns (mover, message, data, the other player)."""
    assert await table.play(1) == 1
    mover, message, data = table.next_press() or pytest.fail("nobody to press")
    other = next(u for u in table.seats if u is not mover)
    return mover, message, data, other


def work_calls(tg: FakeTelegram, since: int) -> list[str]:
    """Methods called after the first ``since`` calls, polling aside."""
    return [c.method for c in tg.calls[since:] if c.method != "getUpdates"]


async def test_a_message_whose_answer_was_lost_is_sent_again_silently(
    tg: FakeTelegram, start_bot: StartBot, manual_clock: ManualClock
) -> None:
    """Telegram delivered the message but answered 502: the bot cannot tell it arrived,
    so it sends it again (at least once) — without a notification."""
    (anna,) = players(tg, "Anna")
    group = tg.add_group("Game night", members=[anna])
    async with start_bot(clock=manual_clock) as running:
        tg.fail_next("sendMessage", 502, after_effect=True, chat_id=group.id)
        tg.user_says(anna, group, "/games")
        await drain(running, tg, manual_clock, 1.0)
    sent = tg.messages_in(group)
    assert [m.text for m in sent] == [en("cmd.no_tables")] * 2
    assert [m.silent for m in sent] == [False, True]


async def test_a_sender_that_dies_before_the_ack_notifies_nobody_twice(
    tg: FakeTelegram, start_bot: StartBot, manual_clock: ManualClock,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Telegram accepted a batch (a table edit, the next player's turn), then the sender
    died before the outbox heard of it. When the lease runs out the batch is sent again:
    the edit changes nothing, the turn comes again silently."""
    async with two_player_table(tg, start_bot, started=True, clock=manual_clock) as table:
        running = table.running
        mover, message, data, other = await to_the_handover(table)
        before = len(tg.messages_in(other))
        deaths: list[Exception] = [RuntimeError("killed between Telegram's answer and the ack")]
        fail_first(monkeypatch, running.outbox, "done_many", deaths)
        query = tg.user_presses(mover, message, data)
        await wait_until(lambda: query.answered and turns(tg, other, before)
                         and not deaths, what="the first try")
        assert await running.outbox.pending() > 0  # nothing was acknowledged
        manual_clock.advance(LEASE_S + 1)
        await settle(running, tg)
    got = turns(tg, other, before)
    assert [m.text for m in got] == [got[0].text] * 2
    assert [m.silent for m in got] == [False, True]


async def owe_without_acknowledging(running: RunningTelegram,
                                    monkeypatch: pytest.MonkeyPatch) -> GameStore:
    """Whatever the tables owe is due at once, and the core is never told a reply was
    handed over: as if each worker died right after queueing."""
    store = running.app.sv.store
    assert isinstance(store, GameStore)
    store.owed_grace = timedelta(0)

    async def crashed(_reply: Reply) -> None:
        return None

    monkeypatch.setattr(running.app, "acknowledge", crashed)
    return store


async def test_a_repair_of_what_went_out_shows_nothing_twice(
    tg: FakeTelegram, start_bot: StartBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The worker queued a move's messages and died before telling the core; the core
    repairs the table (the table message, the next player's turn, again). Everything it
    re-derives went out already: no call reaches Telegram, and the table owes nothing."""
    async with two_player_table(tg, start_bot, started=True, due_every_s=3600) as table:
        running = table.running
        mover, message, data, other = await to_the_handover(table)
        store = await owe_without_acknowledging(running, monkeypatch)
        before = len(tg.messages_in(other))
        await table.press(mover, message, data)
        assert len(turns(tg, other, before)) == 1
        calls = len(tg.calls)
        await running.app.on_due(emit=running.inbound.queue)
        await settle(running, tg)
        assert work_calls(tg, calls) == []
        assert len(turns(tg, other, before)) == 1
        assert await store.claim_owed() == []


async def test_a_repair_of_what_never_went_out_delivers_it(
    tg: FakeTelegram, start_bot: StartBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The other side: the move's messages were lost before queueing (the worker died
    after the commit). The repair sends the table and the turn, notifying the player."""
    async with two_player_table(tg, start_bot, started=True, due_every_s=3600) as table:
        running = table.running
        mover, message, data, other = await to_the_handover(table)
        await owe_without_acknowledging(running, monkeypatch)
        outbox = running.outbox
        finish = outbox.finish_update

        async def lost(claim: Any, _items: Any) -> bool:
            return bool(await finish(claim, []))  # done, and its messages gone

        monkeypatch.setattr(outbox, "finish_update", lost)
        before = len(tg.messages_in(other))
        edits = table.table_message.edit_count
        await table.press(mover, message, data)
        assert turns(tg, other, before) == [] and table.table_message.edit_count == edits
        await running.app.on_due(emit=running.inbound.queue)
        await settle(running, tg)
        got = turns(tg, other, before)
        assert len(got) == 1 and not got[0].silent
        assert table.table_message.edit_count == edits + 1


async def test_status_asked_twice_comes_twice(tg: FakeTelegram, start_bot: StartBot) -> None:
    """A fresh message someone asks for is never taken for a repeat, though it reads
    like the one before: /status twice brings the table down twice."""
    async with two_player_table(tg, start_bot, started=True) as table:
        anna = table.players[0]
        group = table.group
        sends = len([c for c in tg.calls if c.method in SEND_METHODS])
        first = await table.say(anna, "/status")
        second = await table.say(anna, "/status")
        assert first.update_id != second.update_id
        new = [c for c in tg.calls if c.method in SEND_METHODS][sends:]
        assert len(new) == 2 and new[0].params["text"] == new[1].params["text"]
        live = [m for m in tg.messages_in(group) if move_buttons(m)]
        assert live == [tg.messages_in(group)[-1]]
        assert not any(c.method in EDIT_METHODS and not c.ok for c in tg.calls)
