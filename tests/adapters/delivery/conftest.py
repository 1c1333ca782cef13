"""Fixtures for the delivery layer's tests: one Redis server for the session (embedded,
or ``REDIS_URL``); each test keeps to its own key prefix (``tests/adapters/conftest``)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from adapters.store.embedded import EmbeddedRedis
from adapters.store.testing import external_redis_url


@pytest.fixture(scope="session")
def redis_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """``REDIS_URL``, else one embedded server for the session (fsync per second: speed)."""
    external = external_redis_url()
    if external is not None:
        yield external
        return
    with EmbeddedRedis(tmp_path_factory.mktemp("delivery-redis"), fsync="everysec") as server:
        yield server.url
