"""Updates into the core, through python-telegram-bot and FakeTelegram: the core's
contract (acknowledging what was handed over, the time a typed move was sent), names
cleaned at the edge, and updates that are processed — not dropped — when they come
again after a failure, waiting for (or taking over from) a worker that holds them.

No test here measures time: a duplicate's wait runs on an injected pause, the core's
repair is run by hand (the due loop sleeps an hour), and everything else waits on facts.
"""

from __future__ import annotations

import contextlib
import json
import logging
from collections.abc import AsyncIterator
from datetime import timedelta
from typing import Any

import pytest

from adapters.delivery.outbox import Finish
from adapters.delivery.updates import ClaimState, UpdateClaim
from adapters.store import GameStore
from adapters.telegram.service import RunningTelegram
from bot.identity import NAME_LIMIT, clean_name, valid_unicode
from bot.storage.ports import ScriptPart
from bot.table.settings import meta_of
from bot.table.settle import reminder_job
from bot.ui.message import Outgoing, Reply
from tests.adapters.telegram.e2e_helpers import (
    GroupTable,
    StartBot,
    en,
    fail_first,
    free_port,
    move_buttons,
    players,
    settle,
    token_field,
    two_player_table,
    wait_until,
)
from tests.adapters.telegram.fake_api import FakeTelegram


def store_of(running: RunningTelegram) -> GameStore:
    store = running.app.sv.store
    assert isinstance(store, GameStore)
    return store


def version_on(table: GroupTable) -> set[str]:
    """The table versions the table message's move buttons were made for."""
    return {token_field(d, 2) for _, d in move_buttons(table.table_message)}


# --------------------------------------------------------------------------- names


def test_a_lone_surrogate_becomes_a_replacement_character() -> None:
    assert valid_unicode("Ann\ud800a") == "Ann\ufffda"
    # A pair that arrived as two halves is the character it stands for.
    assert valid_unicode("\ud83d\ude00") == "😀"
    assert valid_unicode("plain") == "plain"


def test_a_name_loses_controls_and_overrides_and_is_capped() -> None:
    assert clean_name("Anna\n\tB\u202eoris\x00", "#1") == "Anna Boris"
    assert clean_name("👨\u200d👩\u200d👧 Fam", "#1") == "👨\u200d👩\u200d👧 Fam"  # joiners stay
    assert clean_name("\x07\u2066 \n", "#7") == "#7"
    long = clean_name("x" * 300, "#1")
    assert len(long) == NAME_LIMIT and long.endswith("…")


async def test_a_name_with_a_lone_surrogate_plays_like_any_other(
    tg: FakeTelegram, start_bot: StartBot, caplog: pytest.LogCaptureFixture
) -> None:
    """Telegram's JSON may carry ``\\ud800``: the player still opens and joins a table,
    under the name with the broken part replaced, and nothing fails on the way."""
    odd = tg.add_user("Ann\ud800a", username="anna", last_name="\u202eK\x1b")
    boris = tg.add_user("Boris", username="boris")
    group = tg.add_group("Game night", members=[odd, boris])
    async with start_bot() as running:
        table = GroupTable(tg, running, group, [odd, boris])
        with caplog.at_level(logging.ERROR):
            await table.open_lobby("/new stone_age 2-2")
        record = await table.record()
        assert meta_of(record).names[f"tg:{odd.id}"] == "Ann\ufffda K"
        assert "Ann\ufffda K" in (table.table_message.text or "")
        assert [r for r in caplog.records if r.levelno >= logging.ERROR] == []
        assert tg.errors() == []


# --------------------------------------------------------------------------- the core's contract


async def test_a_press_settles_its_table_in_the_step_that_queues_its_messages(
    tg: FakeTelegram, start_bot: StartBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The core's contract, kept in one step: the press's messages are queued, its
    update is marked done and its table stops owing follow-ups (the next turn's reminder
    scheduled) together, so no repair is ever due, and no acknowledgement is left."""
    async with two_player_table(tg, start_bot, started=True, due_every_s=3600) as table:
        running = table.running
        store = store_of(running)
        store.owed_grace = timedelta(0)  # whatever is owed is due at once
        jobs = running.app.sv.jobs
        outbox = running.outbox
        finish = outbox.finish_update
        seen: list[tuple[tuple[str | None, bool], bool, tuple[str | None, bool]]] = []
        acknowledged: list[Reply] = []

        async def owes() -> tuple[str | None, bool]:
            """The version the table owes follow-ups of, and whether it waits for repair
            (read as is: ``claim_owed`` would lease it)."""
            field = await store._redis.hget(store.keys.table(table.table_id), "owed")
            listed = await store._redis.zscore(store.keys.owed(), table.table_id)
            return field, listed is not None

        async def watched(claim: UpdateClaim, items: list[Outgoing],
                          settle: ScriptPart | None = None) -> Finish:
            before = await owes()
            queued = await finish(claim, items, settle)
            seen.append((before, await running.inbound.ledger.done(claim.update_id),
                         await owes()))
            return queued

        async def acknowledge(reply: Reply) -> None:
            acknowledged.append(reply)

        monkeypatch.setattr(outbox, "finish_update", watched)
        monkeypatch.setattr(running.app, "acknowledge", acknowledge)
        # Two placements, each handing the turn on: the first player's turn opens again.
        assert await table.play(2) == 2
        record = await table.record()
        [(owed_before, done, owed_after)] = seen[-1:]
        assert owed_before == (str(record.version), True)
        assert done and owed_after == (None, False)
        assert await store.claim_owed() == []
        assert [r for r in acknowledged if r.owed] == []
        [prompt] = running.app.sv.prompts(record)
        payload = (await jobs.payloads([reminder_job(table.table_id, prompt.seat)]))[
            reminder_job(table.table_id, prompt.seat)]
        assert payload is not None and payload["opened"] == record.version


async def test_a_typed_move_sent_before_the_seats_last_move_is_out_of_date(
    tg: FakeTelegram, start_bot: StartBot
) -> None:
    """The time Telegram says a typed move was sent reaches the core: written before
    the player's last move was saved, it is refused; written after, it applies."""
    async with two_player_table(tg, start_bot, started=True) as table:
        group = table.group
        running = table.running
        tid = table.table_id
        # Each placement hands the turn on: once both have placed, the first is asked again.
        assert await table.play(2) == 2
        record = await table.record()
        assert [p.seat for p in running.app.sv.prompts(record)] == [0]
        first = table.seats[0]
        acted = meta_of(record).acted_at["0"]
        before = len(tg.messages_in(group))
        tg.user_says(first, group, f"/move {tid} 1", date=int(acted) - 5)
        await settle(running, tg)
        assert [m.text for m in tg.messages_in(group)[before:]] == [en("press.stale")]
        assert (await table.record()).version == record.version
        tg.user_says(first, group, f"/move {tid} 1", date=int(acted) + 1)
        await settle(running, tg)
        assert (await table.record()).version > record.version


# --------------------------------------------------------------------------- redelivery


async def test_an_update_that_failed_is_handled_again_when_it_comes_again(
    tg: FakeTelegram, start_bot: StartBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The move is saved, then queueing its messages fails: the update is not marked
    done and its claim is given back. Telegram delivers it again: the presser's table
    shows the move, and the core's repair brings the next player their turn — once."""
    async with two_player_table(tg, start_bot, started=True, due_every_s=3600) as table:
        running = table.running
        # The first player places people; the press that fails is the second player's
        # placement, which hands the turn back to the first.
        assert await table.play(1) == 1
        store = store_of(running)
        store.owed_grace = timedelta(0)
        failures: list[Exception] = [RuntimeError("the worker fell over after the commit")]
        fail_first(monkeypatch, running.outbox, "finish_update", failures)
        mover, message, data = table.next_press() or pytest.fail("nobody to press")
        other = next(u for u in table.seats if u is not mover)
        before = (await table.record()).version
        dms = len(tg.messages_in(other))
        query = tg.user_presses(mover, message, data)
        await wait_until(lambda: query.answered)
        await settle(running, tg)
        assert failures == []
        saved = await table.record()
        assert saved.version == before + 1  # the move was saved...
        assert version_on(table) == {str(before)}  # ...and nobody saw it
        assert [p.seat for p in running.app.sv.prompts(saved)] == [table.seats.index(other)]
        ledger = running.inbound.ledger
        assert not await ledger.done(query.update_id)
        assert await ledger.held(query.update_id) is None

        tg.redeliver(query.update_id)
        await wait_until(lambda: version_on(table) == {str(before + 1)}, what="the table")
        await settle(running, tg)
        assert await ledger.done(query.update_id)
        assert (await table.record()).version == before + 1
        # The next player's turn was owed by the saved move: the repair delivers it.
        await running.app.on_due(emit=running.inbound.queue)
        await settle(running, tg)
        turns = [m for m in tg.messages_in(other)[dms:] if move_buttons(m)]
        assert len(turns) == 1 and not turns[0].silent
        await running.app.on_due(emit=running.inbound.queue)
        await settle(running, tg)
        assert len([m for m in tg.messages_in(other)[dms:] if move_buttons(m)]) == 1


def webhook_bot(start_bot: StartBot) -> Any:
    """Our bot in webhook mode: an update reaches it only when the test delivers it."""
    port = free_port()
    return start_bot(webhook_url=f"http://127.0.0.1:{port}/tg", webhook_secret="s",
                     listen="127.0.0.1", port=port)


@contextlib.asynccontextmanager
async def webhook_table(
    tg: FakeTelegram, start_bot: StartBot
) -> AsyncIterator[tuple[RunningTelegram, GroupTable]]:
    """Our bot behind a webhook (``webhook_bot``) with a two-player Stone Age table
    open in a group; from then on updates reach it only when the test delivers them."""
    anna, boris = players(tg, "Anna", "Boris")
    group = tg.add_group("Game night", members=[anna, boris])
    async with webhook_bot(start_bot) as running:
        tg.auto_deliver_webhook = True
        table = GroupTable(tg, running, group, [anna, boris])
        await table.open("/new stone_age 2-2")
        tg.auto_deliver_webhook = False
        yield running, table


class OtherWorker:
    """The pause of a duplicate update: records each wait; at the first, the worker
    that holds the update does ``then`` (finishes it, or dies and its claim runs out)."""

    def __init__(self, then: Any) -> None:
        self.then = then
        self.waits: list[float] = []

    async def __call__(self, seconds: float) -> None:
        self.waits.append(seconds)
        if len(self.waits) == 1:
            await self.then()


async def test_a_press_by_webhook_is_answered_in_the_webhooks_response(
    tg: FakeTelegram, start_bot: StartBot
) -> None:
    """A press that came by webhook gets its answer back in the HTTP response (no
    answerCallbackQuery call of its own), a notice included; by polling the answer is
    a call."""
    async with webhook_table(tg, start_bot) as (running, table):
        press = table.next_press() or pytest.fail("nobody to press")
        query = tg.user_presses(*press)
        (delivery,) = await tg.deliver_webhook()
        assert delivery.status == 200
        body = json.loads(delivery.response_body)
        assert body["method"] == "answerCallbackQuery"
        assert body["callback_query_id"] == query.id
        assert "show_alert" not in body
        assert query.answered and query.answer is not None
        # The same button again: the notice that the move is saved rides back too.
        await settle(running, tg)
        again = tg.user_presses(*press, strict=False)  # a button no longer shown
        (delivery,) = await tg.deliver_webhook()
        body = json.loads(delivery.response_body)
        assert body["callback_query_id"] == again.id
        assert body["text"] == en("press.already_saved")
        assert again.answer is not None and again.answer.text == body["text"]
        assert {c.via for c in tg.calls_to("answerCallbackQuery")} == {"webhook_reply"}
    calls = len(tg.calls_to("answerCallbackQuery"))
    async with start_bot() as running:
        table = GroupTable(tg, running, table.group, table.players)
        await table.open("/new stone_age 2-2")
        await table.press(*(table.next_press() or pytest.fail("nobody to press")))
        await settle(running, tg)
    polled = tg.calls_to("answerCallbackQuery")[calls:]
    assert polled and {c.via for c in polled} == {"http"}


@pytest.mark.parametrize("fate", ["finishes", "dies"])
async def test_a_duplicate_waits_for_the_worker_holding_it(
    tg: FakeTelegram, start_bot: StartBot, fate: str
) -> None:
    """An update arrives while another worker holds it. If that worker finishes it,
    this one skips it (the move is not made twice, nothing is sent from here); if that
    worker dies, its claim runs out and this one takes the update over and handles it."""
    async with webhook_table(tg, start_bot) as (running, table):
        ledger = running.inbound.ledger
        mover, message, data = table.next_press() or pytest.fail("nobody to press")
        before = (await table.record()).version
        query = tg.user_presses(mover, message, data)
        state, _, held = await ledger.claim(query.update_id, "w-dead:1")
        assert state is ClaimState.MINE

        async def finishes() -> None:
            assert await running.outbox.finish_update(held, [])

        async def dies() -> None:
            await running.outbox.r.delete(held.claim_key)  # its claim ran out

        other = OtherWorker(finishes if fate == "finishes" else dies)
        running.inbound.pause = other
        (delivery,) = await tg.deliver_webhook()
        assert delivery.status == 200
        if fate == "dies":
            await settle(running, tg)
        assert len(other.waits) == 1
        assert await ledger.done(query.update_id)
        record = await table.record()
        if fate == "finishes":
            assert record.version == before  # the other worker's business
            assert not query.answered
        else:
            assert record.version == before + 1
            assert query.answer is not None and not query.answer.show_alert
            assert version_on(table) == {str(record.version)}


async def test_a_moves_press_is_claimed_by_its_commit_without_a_claim_of_its_own(
    tg: FakeTelegram, start_bot: StartBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A move's press makes no claim round trip: its commit takes the update's claim
    (a press of the same button again, refused as already saved, has its claim taken
    by the queuing of that answer); both end done and answered. Everything else still
    claims first (here: /status)."""
    async with two_player_table(tg, start_bot, started=True) as table:
        anna = table.players[0]
        group = table.group
        running = table.running
        ledger = running.inbound.ledger
        claim = ledger.claim
        claimed: list[int] = []

        async def counted(update_id: int, token: str) -> Any:
            claimed.append(update_id)
            return await claim(update_id, token)

        monkeypatch.setattr(ledger, "claim", counted)
        mover, message, data = table.next_press() or pytest.fail("nobody to press")
        before = (await table.record()).version
        query = await table.press(mover, message, data)
        await settle(running, tg)
        assert (await table.record()).version == before + 1
        assert query.answer is not None and not query.answer.show_alert
        # Tapped again on a client that still shows the old keyboard.
        again = tg.user_presses(mover, message, data, strict=False)
        await settle(running, tg)
        assert (await table.record()).version == before + 1
        assert again.answer is not None and again.answer.text == en("press.already_saved")
        for update_id in (query.update_id, again.update_id):
            assert await ledger.done(update_id) and await ledger.held(update_id) is None
        assert claimed == []
        tg.user_says(anna, group, "/status")
        await settle(running, tg)
        assert len(claimed) == 1


async def test_a_refused_move_press_waits_for_the_worker_holding_it(
    tg: FakeTelegram, start_bot: StartBot
) -> None:
    """A move's press that is refused (it was made already) finds, when it queues its
    answer, that another worker holds the update: it waits for that worker, and sends
    nothing of its own once that one finished."""
    async with webhook_table(tg, start_bot) as (running, table):
        mover, message, data = table.next_press() or pytest.fail("nobody to press")
        tg.user_presses(mover, message, data)
        await tg.deliver_webhook()
        await settle(running, tg)
        version = (await table.record()).version
        ledger = running.inbound.ledger
        query = tg.user_presses(mover, message, data, strict=False)  # tapped again
        _, _, held = await ledger.claim(query.update_id, "w-other:1")

        async def finishes() -> None:
            assert await running.outbox.finish_update(held, [])

        other = OtherWorker(finishes)
        running.inbound.pause = other
        calls = len(tg.calls)
        (delivery,) = await tg.deliver_webhook()
        assert delivery.status == 200
        assert len(other.waits) == 1
        assert (await table.record()).version == version
        assert not query.answered
        assert [c.method for c in tg.calls[calls:] if c.method != "getUpdates"] == []


async def test_a_duplicate_of_a_finished_update_is_skipped_without_waiting(
    tg: FakeTelegram, start_bot: StartBot
) -> None:
    async with two_player_table(tg, start_bot, started=True) as table:
        running = table.running
        other = OtherWorker(lambda: pytest.fail("nothing to wait for"))
        running.inbound.pause = other
        query = await table.press(*(table.next_press() or pytest.fail("nobody to press")))
        version = (await table.record()).version
        calls = len(tg.calls)
        tg.redeliver(query.update_id)
        await wait_until(lambda: sum(1 for u in tg.delivered_updates
                                     if u["update_id"] == query.update_id) == 2)
        await settle(running, tg)
        assert other.waits == []
        assert (await table.record()).version == version
        assert [c.method for c in tg.calls[calls:] if c.method != "getUpdates"] == []


async def test_odd_names_open_and_join_a_table_under_their_cleaned_names(
    tg: FakeTelegram, start_bot: StartBot, caplog: pytest.LogCaptureFixture
) -> None:
    """Names are cleaned by the core, not by this edge: a lone surrogate, control
    characters and a 200-character name open and join a table, shown cleaned."""
    odd = tg.add_user("Ann\ud800a")
    controls = tg.add_user("Bo\x07ris\n\u202eK")
    long = tg.add_user("L" * 200)
    group = tg.add_group("Game\x00 night", members=[odd, controls, long])
    async with start_bot() as running:
        table = GroupTable(tg, running, group, [odd, controls, long])
        with caplog.at_level(logging.ERROR):
            await table.open_lobby("/new stone_age 3-3")
        names = meta_of(await table.record()).names
        cleaned = {odd.id: "Ann\ufffda", controls.id: "Bo ris K",
                   long.id: "L" * (NAME_LIMIT - 1) + "…"}
        assert {f"tg:{u}": name for u, name in cleaned.items()} == names
        shown = table.table_message.text or ""
        assert all(name in shown for name in cleaned.values()), shown
        assert [r for r in caplog.records if r.levelno >= logging.ERROR] == []
        assert tg.errors() == []
