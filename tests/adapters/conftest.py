"""Fixtures shared by the adapter tests: one Redis server for the session (embedded, or
``REDIS_URL``), a key prefix of the test's own, a Redis client on it and storage settings
on it, and the delivery sender's hand-moved clock. A folder whose tests need another
server overrides ``redis_url``."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator

import pytest
from redis.asyncio import Redis

from adapters.store import StoreSettings
from adapters.store.client import connect
from adapters.store.embedded import EmbeddedRedis
from adapters.store.testing import delete_prefix, external_redis_url, unique_prefix
from tests.adapters.delivery.manual_clock import Clock


@pytest.fixture(scope="session")
def redis_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """``REDIS_URL``, else one embedded server for the session (fsync per second: speed)."""
    external = external_redis_url()
    if external is not None:
        yield external
        return
    with EmbeddedRedis(tmp_path_factory.mktemp("redis"), fsync="everysec") as server:
        yield server.url


@pytest.fixture
def prefix() -> str:
    """A key prefix of this test alone."""
    return unique_prefix()


@pytest.fixture
async def redis_client(redis_url: str, prefix: str) -> AsyncIterator[Redis]:
    """An asyncio client; the test's keys are deleted afterwards (matters on a shared Redis)."""
    client = connect(redis_url)
    yield client
    await delete_prefix(client, prefix)
    await client.aclose()


@pytest.fixture
async def store_settings(redis_url: str) -> AsyncIterator[StoreSettings]:
    """Storage of this test alone (a unique key prefix), deleted afterwards."""
    prefix = unique_prefix()
    yield StoreSettings(redis_url=redis_url, key_prefix=prefix)
    client = connect(redis_url)
    try:
        await delete_prefix(client, prefix)
    finally:
        await client.aclose()


@pytest.fixture
def clock() -> Clock:
    """The delivery sender's clock, moved by hand (from ``manual_clock.T0``)."""
    return Clock()
