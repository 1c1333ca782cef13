"""The embedded Redis: durability across SIGKILL, ownership, stale files, outages.

These tests always run their own embedded server (they kill and restart it), also
when REDIS_URL is set.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import sys
import time
from collections.abc import AsyncIterator, Callable
from pathlib import Path

import pytest

from adapters.store.client import connect
from adapters.store.embedded import DataDirLocked, EmbeddedRedis
from adapters.store.game_store import GameStore
from bot.storage.errors import DataDirInUse, StoreUnavailable
from bot.storage.records import Action, TableRecord, TableStatus
from tests.adapters.store.processes import alive

WRITER = Path(__file__).with_name("sigkill_writer.py")
#: How long a call to an unreachable store may take before the test calls it a hang.
SAFETY_S = 30.0
PREFIX = "campfire:"


async def run_writer_until_ready(data_dir: Path) -> tuple[asyncio.subprocess.Process, int]:
    """Start the writer child; return it and the pid of the redis-server it started."""
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        str(WRITER),
        str(data_dir),
        PREFIX,
        stdout=asyncio.subprocess.PIPE,
    )
    assert proc.stdout is not None
    line = await asyncio.wait_for(proc.stdout.readline(), timeout=30)
    assert line.startswith(b"READY "), line
    return proc, int(line.split()[1])


@contextlib.asynccontextmanager
async def store_on(server: EmbeddedRedis) -> AsyncIterator[GameStore]:
    """A GameStore on ``server`` whose client is closed afterwards."""
    client = connect(server.url)
    try:
        yield GameStore(client, prefix=PREFIX)
    finally:
        await client.aclose()


async def assert_writer_data(server: EmbeddedRedis) -> None:
    """The three moves of sigkill_writer.py are all there."""
    async with store_on(server) as store:
        table = await store.get("k1ll")
        assert table.version == 3
        assert table.state == {"moves": 3}
        assert [e.key for e in await store.action_log("k1ll")] == ["m1", "m2", "m3"]
        assert [t.table_id for t in await store.tables_in_chat("tg:-42")] == ["k1ll"]


async def test_data_survives_sigkill_of_owner(embedded_dir: Path) -> None:
    writer, orphan = await run_writer_until_ready(embedded_dir)
    server = EmbeddedRedis(embedded_dir)
    try:
        writer.kill()  # SIGKILL: no cleanup runs in the writer
        await writer.wait()
        assert alive(orphan)  # its redis-server outlives it ...
        server.start()  # ... and the next owner takes over from it
        assert not alive(orphan)
        assert server.pid != orphan
        await assert_writer_data(server)
    finally:
        server.stop()
        if alive(orphan):
            os.kill(orphan, signal.SIGKILL)


async def test_data_survives_sigkill_of_owner_and_server(embedded_dir: Path) -> None:
    """Like a power cut: nothing shuts down cleanly; the AOF alone brings the data back."""
    writer, redis_pid = await run_writer_until_ready(embedded_dir)
    server = EmbeddedRedis(embedded_dir)
    try:
        os.kill(redis_pid, signal.SIGKILL)
        writer.kill()
        await writer.wait()
        deadline = time.monotonic() + 5
        while alive(redis_pid) and time.monotonic() < deadline:
            await asyncio.sleep(0.01)
        # Both leave their socket and pid file behind; they must not block the start.
        assert server.socket_path.exists()
        assert server.pid_path.exists()
        server.start()
        await assert_writer_data(server)
    finally:
        server.stop()
        if alive(redis_pid):
            os.kill(redis_pid, signal.SIGKILL)


def test_durability_settings(embedded_dir: Path) -> None:
    import redis

    with EmbeddedRedis(embedded_dir) as server:
        client = redis.Redis(unix_socket_path=str(server.socket_path), decode_responses=True)
        try:
            assert client.config_get("appendonly") == {"appendonly": "yes"}
            assert client.config_get("appendfsync") == {"appendfsync": "always"}
            assert client.config_get("port") == {"port": "0"}
        finally:
            client.close()


def test_second_owner_of_a_data_dir_is_refused(embedded_dir: Path) -> None:
    first = EmbeddedRedis(embedded_dir)
    second = EmbeddedRedis(embedded_dir)
    with first:
        with pytest.raises(DataDirInUse, match=str(os.getpid())):
            second.start()
        assert first.running
    second.start()  # free again once the first owner stopped
    second.stop()


async def test_data_dir_of_another_live_process_is_refused_with_its_pid(
    embedded_dir: Path,
) -> None:
    """A second process is refused before it touches anything, told the owner's pid;
    the lock goes with its owner, even one killed by SIGKILL."""
    writer, redis_pid = await run_writer_until_ready(embedded_dir)
    server = EmbeddedRedis(embedded_dir)
    try:
        with pytest.raises(DataDirLocked) as refused:
            await asyncio.to_thread(server.start)
        assert isinstance(refused.value, DataDirInUse)
        assert refused.value.pid == writer.pid
        assert refused.value.data_dir == embedded_dir.resolve()
        assert str(writer.pid) in str(refused.value)
        # The owner's server and files are untouched, the refused object holds nothing.
        assert alive(redis_pid) and server.socket_path.exists()
        assert not server.running
        await assert_writer_data(EmbeddedRedis(embedded_dir))
        writer.kill()
        await writer.wait()
        await asyncio.to_thread(server.start)
        assert (embedded_dir / "embedded.lock").read_text() == f"{os.getpid()}\n"
    finally:
        if writer.returncode is None:
            writer.kill()
            await writer.wait()
        server.stop()
        if alive(redis_pid):
            os.kill(redis_pid, signal.SIGKILL)


def test_stale_socket_and_foreign_pid_do_not_block_start(embedded_dir: Path) -> None:
    embedded_dir.mkdir(parents=True)
    server = EmbeddedRedis(embedded_dir)
    server.socket_path.write_text("left over")
    # A pid file naming a live process that is not redis-server (pid reused after a
    # reboot): it must be ignored, certainly not killed.
    server.pid_path.write_text(f"{os.getpid()}\n")
    with server:
        assert server.running
    assert not server.socket_path.exists()


async def test_long_data_dir_path_gets_short_socket(tmp_path: Path) -> None:
    deep = tmp_path.joinpath(*(["long-directory-name"] * 6), "data")
    server = EmbeddedRedis(deep)
    assert len(str(server.socket_path)) <= 100
    with server:
        async with store_on(server) as store:
            await store.create(
                TableRecord(table_id="deep", game="caverna", chat_id="c", creator_id="u")
            )
    # The same path is derived again after a restart.
    with EmbeddedRedis(deep) as again:
        assert again.socket_path == server.socket_path
        async with store_on(again) as store:
            assert (await store.get("deep")).game == "caverna"


@pytest.mark.parametrize("outage", ["shutdown", "sigkill"])
async def test_outage_applies_nothing_and_play_resumes(
    embedded_dir: Path,
    outage: str,
    make_record: Callable[..., TableRecord],
) -> None:
    server = EmbeddedRedis(embedded_dir)
    server.start()
    client = connect(server.url)
    store = GameStore(client, prefix=PREFIX)
    try:
        record = await store.create(make_record(status=TableStatus.RUNNING))
        record = await store.commit(
            "a7k2", 0, record.model_copy(update={"state": {"n": 1}}), Action(key="one")
        )

        if outage == "shutdown":
            server.stop()
        else:
            pid = server.pid
            assert pid is not None
            os.kill(pid, signal.SIGKILL)
            server.stop()  # reaps the dead child and frees the data dir
        assert not server.running

        with pytest.raises(StoreUnavailable):
            # The timeout is a safety net only: the failure must come, not hang.
            await asyncio.wait_for(store.commit(
                "a7k2", 1, record.model_copy(update={"state": {"n": 2}}), Action(key="two")
            ), SAFETY_S)
        with pytest.raises(StoreUnavailable):
            await store.get("a7k2")
        with pytest.raises(StoreUnavailable):
            await store.create(make_record("b2b2"))
        with pytest.raises(StoreUnavailable):
            await store.tables_in_chat("tg:-1001")

        server.start()  # same data dir; the same client reconnects by itself
        loaded = await store.get("a7k2")
        assert loaded == record  # nothing of the failed writes landed, nothing was lost
        assert [e.key for e in await store.action_log("a7k2")] == ["one"]
        assert [t.table_id for t in await store.tables_in_chat("tg:-1001")] == ["a7k2"]
        again = await store.commit(
            "a7k2", 1, loaded.model_copy(update={"state": {"n": 2}}), Action(key="two")
        )
        assert again.version == 2
        assert [e.key for e in await store.action_log("a7k2")] == ["one", "two"]
    finally:
        await client.aclose()
        server.stop()


async def test_unreachable_redis_raises_store_unavailable() -> None:
    client = connect("redis://127.0.0.1:1/0", connect_timeout=0.5)
    store = GameStore(client)
    try:
        # The timeouts are a safety net only: the failures must come, not hang.
        with pytest.raises(StoreUnavailable):
            await asyncio.wait_for(store.get("a7k2"), SAFETY_S)
        with pytest.raises(StoreUnavailable):
            await asyncio.wait_for(store.ping(), SAFETY_S)
    finally:
        await client.aclose()
