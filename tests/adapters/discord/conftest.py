"""Fixtures for the Discord tests: one embedded Redis per session (or ``REDIS_URL``),
each test on a key prefix of its own."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator

import pytest

from adapters.store import StoreSettings
from adapters.store.client import connect
from adapters.store.embedded import EmbeddedRedis
from adapters.store.testing import delete_prefix, external_redis_url, unique_prefix


@pytest.fixture(scope="session")
def redis_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """``REDIS_URL``, else one embedded server for the session."""
    external = external_redis_url()
    if external is not None:
        yield external
        return
    with EmbeddedRedis(tmp_path_factory.mktemp("dc-redis"), fsync="everysec") as server:
        yield server.url


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
