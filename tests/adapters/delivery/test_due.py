"""The due loop (adapters/delivery/due.py)."""

from __future__ import annotations

import asyncio

import pytest
from redis.asyncio import Redis

from adapters.delivery.due import due_loop, into
from adapters.delivery.outbox import Outbox
from bot.ui.message import Message, Outgoing, ToChat


async def test_rounds_run_on_a_beat_until_stopped_and_a_failing_one_does_not_end_it(
    caplog: pytest.LogCaptureFixture,
) -> None:
    stop = asyncio.Event()
    rounds: list[int] = []

    async def round_() -> None:
        rounds.append(len(rounds))
        if len(rounds) == 2:
            raise RuntimeError("a store hiccup")
        if len(rounds) == 4:
            stop.set()

    await asyncio.wait_for(due_loop(round_, 0.001, stop, asyncio.Event()), 5.0)
    assert rounds == [0, 1, 2, 3]
    assert "due jobs failed" in caplog.text


async def test_a_stop_ends_the_wait_at_once() -> None:
    stop = asyncio.Event()

    async def round_() -> None:
        stop.set()

    await asyncio.wait_for(due_loop(round_, 3600.0, stop, asyncio.Event()), 1.0)


async def test_a_job_owed_at_once_wakes_the_loop_before_its_beat() -> None:
    """A round that leaves ``soon`` set (an AI's move due now) is followed by another at
    once; without it the loop would wait its hour-long beat."""
    stop, soon = asyncio.Event(), asyncio.Event()
    rounds: list[int] = []

    async def round_() -> None:
        rounds.append(len(rounds))
        if len(rounds) < 3:
            soon.set()
        else:
            stop.set()

    await asyncio.wait_for(due_loop(round_, 3600.0, stop, soon), 1.0)
    assert rounds == [0, 1, 2]


async def test_a_round_can_queue_into_an_outbox(redis_client: Redis, prefix: str) -> None:
    outbox = Outbox(redis_client, prefix, platform="mem")
    await into(outbox)([Outgoing(ToChat("mem:g"), Message("reminder"))])
    taken = await outbox.take(1_700_000_000.0)
    assert taken is not None and taken.item.message.text.plain() == "reminder"
