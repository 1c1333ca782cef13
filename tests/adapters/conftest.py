"""Fixtures shared by the adapter tests: a key prefix of the test's own and a Redis
client on it. Each folder's ``redis_url`` fixture says which server."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
from redis.asyncio import Redis

from adapters.store.client import connect
from adapters.store.testing import delete_prefix, unique_prefix


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
