"""Reminders: one private nudge per due time to the player who is asked, repeated a set
number of times, cancelled by acting, re-checked against the table, sent once across
workers and restarts."""

from __future__ import annotations

import asyncio
import random
from datetime import UTC, datetime

from bot.table.settings import meta_of
from bot.table.settle import reminder_job
from bot.ui.message import Outgoing, ToUser
from tests.bot.conftest import AppFactory
from tests.bot.helpers import (
    ANNA,
    BORIS,
    CLARA,
    DAN,
    EVA,
    GROUP2,
    Clock,
    Harness,
    plain,
)

HOUR = 3600.0


def reminders(out: list[Outgoing]) -> list[tuple[str, str]]:
    """(user id, table id) of every reminder in ``out``; nothing else may be in it."""
    found = []
    for item in out:
        assert isinstance(item.to, ToUser), item
        text = plain(item.message.text)
        assert text.startswith("⏰ Reminder — Stone Age #"), text
        table = text.split("#", 1)[1].split(" ", 1)[0]
        found.append((item.to.user_id, table))
    return found


async def test_reminder_reaches_the_asked_player_repeats_and_stops(
    h: Harness, clock: Clock
) -> None:
    table_id = await h.started(ANNA, BORIS, CLARA, options=("en", "remind=1h", "repeat=2"))
    record = await h.get(table_id)
    player = h.user_at(record, 0)
    out = await h.due_around(HOUR, 1)
    assert reminders(out) == [(player.id, table_id)]
    [item] = out
    assert item.message.slot == f"dm:{table_id}:0"
    assert "place your people" in plain(item.message.text)
    assert await h.due() == []  # once per due time
    clock.advance(HOUR)
    assert reminders(await h.due()) == [(player.id, table_id)]
    clock.advance(HOUR)
    assert await h.due() == []  # two reminders were asked for
    clock.advance(10 * HOUR)
    assert await h.due() == []
    # The reminder's buttons work.
    prompt = (await h.prompts(table_id))[0]
    reply = await h.press(player, h.move_tokens(item.message, prompt)[0])
    assert not reply.alert, plain(reply.answer)


async def test_acting_moves_or_cancels_the_reminder(h: Harness, clock: Clock) -> None:
    table_id = await h.started(ANNA, BORIS, CLARA, options=("en", "remind=1h"))
    record = await h.get(table_id)
    first = h.user_at(record, 0)
    clock.advance(HOUR / 2)
    # A first step of the turn: the turn goes on, its reminder counts from now. (A site
    # named alone, as logs from before did, asks the number of people in a second step.)
    assert not (await h.text(first, f"/move {table_id} at:forest")).alert
    assert (await h.prompts(table_id))[0].seat == 0
    clock.advance(HOUR / 2 + 60)
    assert await h.due() == []
    clock.advance(HOUR / 2)
    assert reminders(await h.due()) == [(first.id, table_id)]
    # The first player finishes the turn: no more reminders for them.
    rnd = random.Random(4)
    while (await h.prompts(table_id))[0].seat == 0:
        await h.play_one(table_id, rnd)
    second = h.user_at(record, (await h.prompts(table_id))[0].seat)
    assert second != first
    clock.advance(HOUR + 1)
    assert reminders(await h.due()) == [(second.id, table_id)]
    clock.advance(5 * HOUR)
    sent = reminders(await h.due())
    assert (first.id, table_id) not in sent


async def test_a_stale_reminder_job_sends_nothing(h: Harness, clock: Clock) -> None:
    table_id = await h.started(ANNA, BORIS, CLARA, options=("en", "remind=1h"))
    record = await h.get(table_id)
    first = h.user_at(record, 0)
    opened = meta_of(record).opened["0"]
    stale = {"kind": "remind", "table": table_id, "seat": 0, "opened": opened, "n": 1}
    # The first player takes a first step (a site named alone: the number comes next):
    # the prompt reopens at a newer version.
    assert not (await h.text(first, f"/move {table_id} at:forest")).alert
    assert meta_of(await h.get(table_id)).opened["0"] != opened
    due = datetime.fromtimestamp(clock() + 60, UTC)
    await h.sv.jobs.schedule("rem.stale-copy", due, stale)
    clock.advance(120)
    assert await h.due() == []  # the old prompt is gone
    clock.advance(HOUR)
    assert reminders(await h.due()) == [(first.id, table_id)]  # the live one, once
    # After the turn ended, a leftover job (a lost cancel) sends nothing either.
    rnd = random.Random(4)
    while (await h.prompts(table_id))[0].seat == 0:
        await h.play_one(table_id, rnd)
    await h.sv.jobs.schedule(reminder_job(table_id, 0),
                             datetime.fromtimestamp(clock() + 1, UTC), stale)
    clock.advance(2)
    assert await h.due() == []


async def test_two_workers_send_each_reminder_once(
    h: Harness, make_app: AppFactory, clock: Clock
) -> None:
    other = Harness(await make_app(worker_id="w2"), clock)
    tables = [await h.started(ANNA, BORIS, options=("en", "remind=1h")),
              await h.started(CLARA, DAN, options=("en", "remind=1h"), chat=GROUP2)]
    expected = []
    for table_id in tables:
        record = await h.get(table_id)
        expected.append((h.user_at(record, 0).id, table_id))
    for _ in range(3):  # three rounds of reminders (the default repeats)
        clock.advance(HOUR + 1)
        outs = await asyncio.gather(h.app.on_due(), other.app.on_due(),
                                    h.app.on_due(), other.app.on_due())
        sent = [r for out in outs for r in reminders(out)]
        assert sorted(sent) == sorted(expected)
    clock.advance(HOUR + 1)
    assert await asyncio.gather(h.app.on_due(), other.app.on_due()) == [[], []]


async def test_a_restarted_bot_still_sends_the_pending_reminder_once(
    h: Harness, make_app: AppFactory, clock: Clock
) -> None:
    table_id = await h.started(ANNA, EVA, options=("en", "remind=2h"))
    player = h.user_at(await h.get(table_id), 0)
    restarted = await make_app(worker_id="w-after-restart")  # new client, new process state
    clock.advance(2 * HOUR + 1)
    assert reminders(await restarted.on_due()) == [(player.id, table_id)]
    assert await restarted.on_due() == []
    assert await h.app.on_due() == []


async def test_repeat_zero_sends_no_reminder(h: Harness, clock: Clock) -> None:
    await h.started(ANNA, BORIS, options=("en", "remind=1h", "repeat=0"))
    clock.advance(HOUR + 1)
    assert await h.due() == []
