"""The embedded redis-server dies under a running console: the bot carries on.

A real ``campfire console`` process owns the data dir; the test SIGKILLs its
redis-server, waits (on conditions) until the supervisor has started a new one, and
plays on in the same console process: no move is refused, none is lost.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import time
from pathlib import Path

import redis
from console_harness import ConsoleProcess, Players, console_env, kill_leftover_redis, play

from adapters.store import EmbeddedRedis, StoreSettings, open_storage

SAFETY_S = 60.0


def server_pid(data_dir: Path) -> int | None:
    """The pid the running redis-server of ``data_dir`` wrote, if it is a live one."""
    try:
        pid = int((data_dir / "redis.pid").read_text().strip())
        stat = Path(f"/proc/{pid}/stat").read_text()
    except (OSError, ValueError):
        return None
    return None if stat.rsplit(")", 1)[-1].split()[0] in ("Z", "X") else pid


def wait_for_new_server(data_dir: Path, old: int) -> int:
    """Wait until a redis-server other than ``old`` serves ``data_dir`` (answers PING)."""
    socket = EmbeddedRedis(data_dir).socket_path
    deadline = time.monotonic() + SAFETY_S
    while True:
        pid = server_pid(data_dir)
        if pid is not None and pid != old:
            client = redis.Redis(unix_socket_path=str(socket), socket_timeout=1)
            with contextlib.suppress(redis.RedisError, OSError):
                if client.ping():
                    client.close()
                    return pid
            client.close()
        assert time.monotonic() < deadline, "the embedded redis-server was not restarted"
        time.sleep(0.02)


async def moves_in_log(data_dir: Path) -> int:
    """How many moves the only table's log holds (no process may own the dir)."""
    async with open_storage(StoreSettings(data_dir=data_dir)) as storage:
        (table,) = await storage.games.tables_in_chat("con:group")
        return sum(e.kind == "move" for e in await storage.games.action_log(table.table_id))


def test_console_carries_on_after_its_redis_is_killed(tmp_path: Path) -> None:
    data_dir = tmp_path / "data"
    console = ConsoleProcess(tmp_path, console_env(CAMPFIRE_DATA_DIR=str(data_dir)),
                             args=("--seed", "11", "--no-pictures"))
    try:
        players = Players(seed=4)
        console.step("anna: /new stone_age 2 en")
        console.step("boris: /join")
        players.feed(console.step("anna: /start"))
        made = len(list(play(console, players, 5)))

        for _ in range(2):
            old = server_pid(data_dir)
            assert old is not None
            os.kill(old, signal.SIGKILL)
            wait_for_new_server(data_dir, old)
            # The same console process: its next moves go through, none is refused.
            made += len(list(play(console, players, 5)))
        assert console.close() == 0, console.stderr()
        errors = console.stderr()
        assert "Traceback" not in errors
        assert errors.count("starting it again") == 2, errors
    finally:
        if console.proc.poll() is None:
            os.kill(console.proc.pid, signal.SIGKILL)
            console.close(timeout=5)
        kill_leftover_redis(data_dir)
    assert asyncio.run(moves_in_log(data_dir)) == made
