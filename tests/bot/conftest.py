"""Fixtures for the bot core: a Campfire over a real Redis store with a fake clock.

The store is an embedded Redis started once for the session (or ``REDIS_URL`` when it
is set); each test works under its own key prefix, so tests never see each other's
tables. Every app built by ``make_app`` in one test shares that prefix and the token
secret, like several workers of one deployment.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from pathlib import Path

import pytest
from redis.asyncio import Redis

from adapters.store.client import connect
from adapters.store.testing import delete_prefix, redis_for_tests, unique_prefix
from bot.app import Campfire
from tests.bot.helpers import Clock, Harness, build_app, storage_on

AppFactory = Callable[..., Awaitable[Campfire]]


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark every bot test that works on the core's Redis ``core_redis``: the test
    command runs those once more against a separate Redis server."""
    for item in items:
        if "core_redis_url" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.core_redis)


@pytest.fixture(scope="session")
def core_redis_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """One Redis for the whole session: embedded, or the server of REDIS_URL."""
    with redis_for_tests(tmp_path_factory.mktemp("core-redis")) as url:
        yield url


@pytest.fixture
def clock() -> Clock:
    """A fake clock the test advances by hand."""
    return Clock()


@pytest.fixture
def key_prefix() -> str:
    """This test's own key prefix."""
    return unique_prefix()


@pytest.fixture
async def make_app(
    core_redis_url: str, key_prefix: str, clock: Clock
) -> AsyncIterator[AppFactory]:
    """Build Campfire instances (each with its own Redis client) over this test's data."""
    clients: list[Redis] = []

    async def factory(
        *, pictures: bool = False, worker_id: str = "w1", bot_name: str | None = None,
        seed: int = 7, url: str | None = None,
    ) -> Campfire:
        client = connect(url or core_redis_url)
        clients.append(client)
        return build_app(storage_on(client, key_prefix), clock, pictures=pictures,
                         worker_id=worker_id, bot_name=bot_name, seed=seed)

    yield factory
    cleaner = connect(core_redis_url)
    try:
        await delete_prefix(cleaner, key_prefix)
    finally:
        await cleaner.aclose()
        for client in clients:
            await client.aclose()


@pytest.fixture
async def bot_app(make_app: AppFactory) -> Campfire:
    """The bot under test: real store, fake clock, no pictures."""
    return await make_app()


@pytest.fixture
def h(bot_app: Campfire, clock: Clock) -> Harness:
    """A chat harness around ``bot_app``."""
    return Harness(bot_app, clock)


@pytest.fixture
def embedded_dir(tmp_path: Path) -> Path:
    """A data dir for a test that runs (and stops) its own embedded Redis."""
    return tmp_path / "redis"


@pytest.fixture
async def raw_redis(core_redis_url: str) -> AsyncIterator[Redis]:
    """A plain client of the test Redis, for poking at keys directly."""
    client = connect(core_redis_url)
    yield client
    await client.aclose()
