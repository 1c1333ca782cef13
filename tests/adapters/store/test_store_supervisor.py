"""The embedded Redis is supervised: killed under a running bot, it comes back on the
same data and the same client carries on.

These tests always run their own embedded server (they kill it), also when REDIS_URL
is set. Waits are on conditions, with a generous safety net.
"""

from __future__ import annotations

import asyncio
import logging
import os
import signal
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from adapters.store import EmbeddedRedis, StoreSettings, open_storage
from bot.storage.records import Action, TableRecord, TableStatus
from tests.adapters.store.processes import alive

SAFETY_S = 60.0


async def restarted(server: EmbeddedRedis, old_pid: int, restarts: int) -> int:
    """Wait until the supervisor has started a new server after ``old_pid`` died."""
    deadline = time.monotonic() + SAFETY_S
    while True:
        pid = server.pid
        if server.restarts > restarts and pid is not None and pid != old_pid:
            return pid
        assert time.monotonic() < deadline, f"not restarted:\n{server.log_tail()}"
        await asyncio.sleep(0.02)


async def test_killed_server_is_restarted_on_the_same_data(
    embedded_dir: Path, make_record: Callable[..., TableRecord]
) -> None:
    """SIGKILL the redis-server under open storage: it comes back with every write,
    and the same client reads and writes again without being reopened."""
    async with open_storage(StoreSettings(data_dir=embedded_dir)) as storage:
        server = storage.server
        assert server is not None and server.supervise
        games = storage.games
        record = await games.create(make_record(status=TableStatus.RUNNING))
        record = await games.commit(
            "a7k2", 0, record.model_copy(update={"state": {"n": 1}}), Action(key="one"))
        socket = server.socket_path

        for round_ in range(3):  # a server that keeps dying keeps being restarted
            old = server.pid
            assert old is not None
            os.kill(old, signal.SIGKILL)
            new = await restarted(server, old, round_)
            assert not alive(old) and alive(new)
            assert server.socket_path == socket and server.data_dir == embedded_dir.resolve()
            assert (embedded_dir / "redis.pid").read_text().strip() == str(new)

            loaded = await games.get("a7k2")
            assert loaded == record
            record = await games.commit(
                "a7k2", record.version,
                record.model_copy(update={"state": {"n": record.version + 1}}),
                Action(key=f"after-{round_}"))
        assert server.restarts == 3
        assert [e.key for e in await games.action_log("a7k2")] == \
            ["one", "after-0", "after-1", "after-2"]
        assert [t.table_id for t in await games.tables_in_chat("tg:-1001")] == ["a7k2"]

    # Stopped for good: the supervisor is gone, nothing serves the dir, and a later
    # owner finds every write in the AOF.
    assert not server.running
    assert server._supervisor is not None and not server._supervisor.is_alive()
    async with open_storage(StoreSettings(data_dir=embedded_dir)) as storage:
        assert (await storage.games.get("a7k2")).state == {"n": 4}


def test_stop_is_not_taken_for_a_death(
    embedded_dir: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """A clean stop() ends supervision: the data dir is free at once for another owner."""
    caplog.set_level(logging.WARNING, "adapters.store.embedded")
    server = EmbeddedRedis(embedded_dir, supervise=True)
    server.start()
    pid = server.pid
    assert pid is not None
    server.stop()
    assert server.restarts == 0 and not server.running and not alive(pid)
    assert not [r for r in caplog.records if r.name == "adapters.store.embedded"]
    assert server._supervisor is not None and not server._supervisor.is_alive()
    with EmbeddedRedis(embedded_dir) as other:  # the lock was released, no server left
        assert other.running


def test_unsupervised_server_stays_dead(embedded_dir: Path) -> None:
    """Without ``supervise`` (tests that simulate outages) nothing restarts the server."""
    server = EmbeddedRedis(embedded_dir)
    server.start()
    try:
        pid = server.pid
        assert pid is not None
        os.kill(pid, signal.SIGKILL)
        deadline = time.monotonic() + SAFETY_S
        while server.running:
            assert time.monotonic() < deadline
            time.sleep(0.01)
        assert server._supervisor is None and server.restarts == 0
    finally:
        server.stop()
