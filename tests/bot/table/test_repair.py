"""Crash injection: the bot dies at a named point of the work a move owes, another
worker on the same Redis takes over, and nothing owed is lost.

A crash is an exception raised from ``Services.fault`` at the point named (after the
move's commit, after a reminder was handed over but before it was acknowledged,
between a final commit and archiving), or a reply whose messages were never
acknowledged (the adapter died before handing them over). The recovering worker only
runs its periodic ``on_due``; afterwards every open decision has been sent and has its
reminder, every finished table is archived, every autopilot seat has moved, and a
second round finds nothing more to send.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator, Callable, Mapping
from dataclasses import dataclass
from typing import Any

import pytest

from adapters.store.client import connect
from adapters.store.due_jobs import DEFAULT_LEASE
from bot.app import Campfire
from bot.storage import TableNotFound, TableRecord, TableStatus
from bot.table.settings import meta_of
from bot.table.settle import clock_job, reminder_job
from bot.table.thinking import Thinker
from bot.ui.message import Outgoing, ToUser
from tests.bot.helpers import (
    ANNA,
    BORIS,
    CLARA,
    GROUP,
    Clock,
    Harness,
    build_app,
    dm,
    plain,
    storage_on,
)
from tests.bot.table.test_undo import consent_needed

GRACE = 60.0  # the store's default: how long a writer has to say it delivered


class Crash(Exception):
    """The process dies here."""


@dataclass
class World:
    """Two workers of one deployment: one that crashes where told, one that recovers."""

    crashing: Harness
    recovering: Harness
    clock: Clock
    crash_at: set[str]

    async def recover(self) -> list[Outgoing]:
        """Time passes beyond the grace; the healthy worker runs its periodic work."""
        self.clock.advance(GRACE + 1)
        return await self.recovering.due()


@pytest.fixture
async def world(core_redis_url: str, key_prefix: str, clock: Clock) -> AsyncIterator[World]:
    clients = [connect(core_redis_url), connect(core_redis_url)]
    crash_at: set[str] = set()

    def fault(point: str) -> None:
        if point in crash_at:
            raise Crash(point)

    apps: list[Campfire] = []
    for i, client in enumerate(clients):
        app = build_app(storage_on(client, key_prefix, clock), clock, worker_id=f"w{i}")
        apps.append(app)
    apps[0].sv.fault = fault
    yield World(Harness(apps[0], clock), Harness(apps[1], clock), clock, crash_at)
    from adapters.store.testing import delete_prefix

    await delete_prefix(clients[0], key_prefix)
    for client in clients:
        await client.aclose()


async def _open_jobs_ok(h: Harness, record: TableRecord) -> None:
    """Every open decision not on autopilot has its reminder for the prompt now open."""
    meta = meta_of(record)
    for prompt in await h.prompts(record.table_id):
        if str(prompt.seat) in meta.autopilot:
            continue
        jobs = await h.sv.jobs.payloads([reminder_job(record.table_id, prompt.seat)])
        job = jobs[reminder_job(record.table_id, prompt.seat)]
        assert job is not None and job["opened"] == meta.opened[str(prompt.seat)], prompt.seat


async def _press_first(h: Harness, table_id: str) -> tuple[TableRecord, Callable[[], object]]:
    record = await h.get(table_id)
    prompt = (await h.prompts(table_id))[0]
    user = h.user_at(record, prompt.seat)
    token = h.move_tokens(h.dm_prompt(record, prompt.seat), prompt)[0]
    return record, lambda: h.app.on_press(dm(user), user, token)


async def test_crash_right_after_the_commit(world: World) -> None:
    h = world.crashing
    table_id = await h.started(ANNA, BORIS, CLARA)
    before, press = await _press_first(h, table_id)
    world.crash_at.add("after_commit")
    with pytest.raises(Crash):
        await press()
    record = await h.get(table_id)
    assert record.version == before.version + 1  # the move is saved, nothing followed
    out = await world.recover()
    asked = {p.seat for p in await h.prompts(table_id)}
    told = {o.to.user_id for o in out if isinstance(o.to, ToUser)}
    assert told == {record.seats[s] for s in asked}
    assert any(o.message.slot == f"table:{table_id}" for o in out)
    await _open_jobs_ok(h, await h.get(table_id))
    assert await world.recover() == []  # delivered once: nothing is owed any more


async def test_crash_before_the_messages_were_handed_over(world: World) -> None:
    h = world.crashing
    table_id = await h.started(ANNA, BORIS)
    _, press = await _press_first(h, table_id)
    reply = await press()  # the adapter dies before queueing: no acknowledge
    assert reply.out and reply.owed
    out = await world.recover()
    assert {o.message.slot for o in out} >= {f"table:{table_id}"}
    assert await world.recover() == []


async def test_an_acknowledged_move_is_not_repaired(world: World) -> None:
    h = world.crashing
    table_id = await h.started(ANNA, BORIS)
    record = await h.get(table_id)
    await h.play_one(table_id, random.Random(1))
    assert await world.recover() == []
    assert (await h.get(table_id)).version > record.version


async def test_crash_between_the_final_commit_and_archiving(world: World) -> None:
    h = world.crashing
    table_id = await h.started(ANNA, BORIS)
    rnd = random.Random(3)
    while True:
        record = await h.get(table_id)
        prompts = await h.prompts(table_id)
        prompt = rnd.choice(prompts)
        user = h.user_at(record, prompt.seat)
        token = rnd.choice(h.move_tokens(h.dm_prompt(record, prompt.seat), prompt))
        world.crash_at.add("before_archive")
        try:
            await h.press(user, token)
        except Crash:
            break
    record = await h.get(table_id)
    assert record.status == TableStatus.FINISHED  # saved, not archived
    out = await world.recover()
    with pytest.raises(TableNotFound):
        await h.get(table_id)
    assert (await h.store.get_archived(table_id)).status == TableStatus.FINISHED
    [final] = [o for o in out if o.message.slot == f"table:{table_id}"]
    assert "final scores" in plain(final.message.text)
    # Every player still hears their own result.
    told = {o.to.user_id for o in out if isinstance(o.to, ToUser)
            and o.message.slot == f"dm:{table_id}:{record.seats.index(o.to.user_id)}"}
    assert told == set(record.seats)
    assert await world.recover() == []
    # Its result was kept by the archiving, once, and rated.
    kept = [r for _, r in await h.sv.stats.results_after(0) if r.table_id == table_id]
    assert len(kept) == 1 and kept[0].rated
    assert [s.user_id for s in kept[0].seats] == list(record.seats)
    assert await h.sv.stats.rating_cursor() == 1


async def test_crash_between_keeping_a_result_and_rating_it(world: World) -> None:
    """The result is kept with the archive; the ratings catch up with the next table to
    end (here: the next /stats), each result rated once."""
    h = world.crashing
    rnd = random.Random(5)
    ended = []
    for crash in (True, False):
        table_id = await h.started(ANNA, BORIS)
        world.crash_at.clear()
        if crash:
            world.crash_at.add("before_rating")
        try:
            while True:
                await h.play_one(table_id, rnd)
        except Crash:
            assert crash
        except TableNotFound:
            assert not crash  # archived: the game is over
        ended.append(table_id)
        if crash:
            assert await h.sv.stats.rating_cursor() == 0
    assert [r.table_id for _, r in await h.sv.stats.results_after(0)] == ended
    assert await h.sv.stats.rating_cursor() == 2
    board = await h.sv.stats.leaderboard((await h.store.get_archived(ended[0])).game, "all")
    assert {p: r.games for p, r in board.items()} == {ANNA.id: 2, BORIS.id: 2}


async def test_crash_midway_through_a_reminder(world: World) -> None:
    h = world.crashing
    table_id = await h.started(ANNA, BORIS, options=("en", "remind=1h"))
    record = await h.get(table_id)
    first = h.user_at(record, 0)
    world.crash_at.add("mid_reminder")
    world.clock.advance(3600 + 1)
    with pytest.raises(Crash):
        await h.due()
    world.crash_at.clear()
    world.clock.advance(6 * 60)  # the crashed worker's claim runs out
    out = await world.recovering.due()
    reminders = [o for o in out if o.to == ToUser(first.id)]
    assert len(reminders) == 1 and "Reminder" in plain(reminders[0].message.text)
    world.clock.advance(60)
    assert [o for o in await world.recovering.due() if o.to == ToUser(first.id)] == []


async def test_an_autopilot_seat_moves_after_a_crash(world: World) -> None:
    h = world.crashing
    table_id = await h.started(ANNA, BORIS, options=("en", "clock=1/1/2", "remind=20"))
    world.clock.advance(3600 + 5)
    [vote] = await h.due()
    token = next(b.token for b in vote.message.all_buttons() if b.token.split(".")[3] == "easy")
    record = await h.get(table_id)
    late, other = record.seats[0], record.seats[1]
    voter = h.user_at(record, 1)
    # The vote that hands the seat to the autopilot commits, then the worker dies
    # before the autopilot has moved.
    world.crash_at.add("after_commit")
    with pytest.raises(Crash):
        await h.app.on_press(GROUP, voter, token)
    assert "0" in meta_of(await h.get(table_id)).autopilot
    assert any(p.seat == 0 for p in await h.prompts(table_id))  # stalled
    out = await world.recover()
    record = await h.get(table_id)
    meta = meta_of(record)
    assert "0" in meta.autopilot
    assert all(p.seat != 0 for p in await h.prompts(table_id))
    assert late != other and out
    assert await h.sv.jobs.payloads([clock_job(table_id, 0)]) == {clock_job(table_id, 0): None}


async def test_a_request_to_take_back_is_announced_after_a_crash(world: World) -> None:
    """The vote ``/undo`` opens is owed like a move's messages: a worker that dies
    before handing them over leaves them to the next."""
    h = world.crashing
    table_id = await h.started(ANNA, BORIS)
    rnd = random.Random(4)
    for _ in range(30):
        record = await h.get(table_id)
        if consent_needed(record):
            break
        await h.play_one(table_id, rnd)
    else:
        raise AssertionError("nobody decided after another")
    asker = h.user_at(record, next(iter(consent_needed(record))))
    reply = await h.app.on_text(GROUP, asker, "/undo")  # the adapter dies before queueing
    assert any(o.message.slot == f"vote:{table_id}" for o in reply.out) and reply.owed
    out = await world.recover()
    [vote] = [o for o in out if o.message.slot == f"vote:{table_id}"]
    assert [h.parse(b.token).fields[1] for b in vote.message.all_buttons()] == [
        "agree", "refuse"]
    assert await world.recover() == []


class StuckThinker(Thinker):
    """An AI that starts thinking and never finishes: the worker dies meanwhile."""

    def __init__(self) -> None:
        super().__init__(workers=0)
        self.thinking = asyncio.Event()

    async def decide(self, game: str, state: Mapping[str, Any], seat: int, level: str,
                     seed: str) -> str:
        self.thinking.set()
        await asyncio.Event().wait()
        raise AssertionError("never")


async def test_an_ai_move_owed_while_it_thought_arrives_after_the_crash(world: World) -> None:
    """Anna's move is saved and answered; the AI player after her starts thinking in the
    due job that owes its move, and the worker dies (its task is gone, the job stays
    claimed). Once the claim runs out, the other worker has the AI decide and move, and
    asks Anna again."""
    h = world.crashing
    h.auto_due = False  # the due round is run by hand below, to die in it
    reply = await h.text(ANNA, "/new stone_age 2 en ai=1")
    table_id = reply.out[0].message.slot.removeprefix("table:")  # type: ignore[union-attr]
    await h.press(ANNA, h.lobby_token(table_id, "start"), GROUP)
    await h.due()  # should the AI go first
    rnd = random.Random(1)
    stuck = StuckThinker()
    h.sv.thinker = stuck
    thinking = asyncio.create_task(stuck.thinking.wait())
    for _ in range(20):
        record = await h.get(table_id)
        [prompt] = await h.prompts(table_id)
        token = rnd.choice(h.move_tokens(h.dm_prompt(record, prompt.seat), prompt))
        answered = await h.press(ANNA, token)
        # Anna is answered before any AI thinks.
        assert not stuck.thinking.is_set() and not answered.alert
        running = asyncio.create_task(h.app.on_due())
        await asyncio.wait([running, thinking], return_when=asyncio.FIRST_COMPLETED)
        if stuck.thinking.is_set():
            break
        h.keep(running.result())  # Anna's turn went on: her next step
    else:
        raise AssertionError("the AI was never asked")
    running.cancel()  # the worker dies while the AI thinks
    with pytest.raises(asyncio.CancelledError):
        await running
    saved = await h.get(table_id)
    ai_seat = saved.seats.index("ai:normal:1")
    assert [p.seat for p in await h.prompts(table_id)] == [ai_seat]  # owed, not lost
    world.clock.advance(DEFAULT_LEASE.total_seconds())  # the dead worker's claim runs out
    out = await world.recover()
    log = await h.store.action_log(table_id)
    assert log[-1].version > saved.version and any(
        e.user_id == "autopilot" and e.version > saved.version for e in log)
    record = await h.get(table_id)
    assert all(p.seat != ai_seat for p in await h.prompts(table_id))
    # Anna is asked again, privately, after the AI's move.
    assert [record.seats[p.seat] for p in await h.prompts(table_id)] == [ANNA.id]
    assert any(o.to == ToUser(ANNA.id) and o.message.choices for o in out)
