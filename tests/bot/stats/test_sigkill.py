"""A real SIGKILL between a table's final commit and its archiving: the result is kept
once, by the repair another worker makes (bot/stats/keeping.py)."""

from __future__ import annotations

import asyncio
import signal
import sys
from pathlib import Path

from adapters.store.client import connect
from bot.storage import TableStatus
from tests.bot.helpers import Clock, Harness, build_app, storage_on

ROOT = Path(__file__).resolve().parents[3]
GRACE = 60.0  # the store's default: how long a writer has to say it delivered


async def test_a_result_is_kept_once_after_a_sigkill_before_archiving(
        core_redis_url: str, key_prefix: str) -> None:
    # The recovering worker keeps time as the dead one did (the store's own clock too,
    # which says when an unconfirmed change falls overdue).
    clock = Clock()
    client = connect(core_redis_url)
    try:
        await recover_after_the_kill(
            Harness(build_app(storage_on(client, key_prefix, clock), clock,
                              worker_id="recovering"), clock), core_redis_url, key_prefix)
    finally:
        await client.aclose()


async def recover_after_the_kill(h: Harness, core_redis_url: str, key_prefix: str) -> None:
    """A child plays a table to its end and is killed; ``h`` then repairs it."""
    child = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "tests.bot.stats.sigkill_finisher", core_redis_url, key_prefix,
        cwd=ROOT, stdout=asyncio.subprocess.PIPE)
    assert child.stdout is not None
    table_id = (await asyncio.wait_for(child.stdout.readline(), 60)).decode().strip()
    assert await asyncio.wait_for(child.wait(), 300) == -signal.SIGKILL
    record = await h.get(table_id)
    assert record.status == TableStatus.FINISHED  # committed, never archived
    assert await h.sv.stats.results_after(0) == []
    h.clock.advance(GRACE + 1)
    await h.due()  # this worker repairs what the dead one owed
    h.clock.advance(GRACE + 1)
    await h.due()
    kept = await h.sv.stats.results_after(0)
    assert [(n, r.table_id, r.rated) for n, r in kept] == [(1, table_id, True)]
    assert (await h.store.get_archived(table_id)).status == TableStatus.FINISHED
    assert await h.sv.stats.rating_cursor() == 1
