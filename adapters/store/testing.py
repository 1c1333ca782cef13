"""Helpers for tests of the store and of code built on it (no pytest import here).

``redis_for_tests`` gives a URL: the server of ``REDIS_URL`` when that is set
(so the whole suite can run against a real deployment), else a fresh embedded Redis
in the given directory. Tests then isolate themselves with ``unique_prefix`` and
clean up with ``delete_prefix``, which works the same on both.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from redis.asyncio import Redis

from adapters.store.embedded import EmbeddedRedis

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
