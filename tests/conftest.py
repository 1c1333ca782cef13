"""Fixtures every test folder may use: hosting the tests' own games (``tests/tiny_game``);
the AI's thinking time for every bot the tests start; a Redis of one test's own, to
stop and start (``lone_redis``, ``lone_client``); skipping the tests marked
``interpreted`` while the engines run compiled (run-tests runs them on the source)."""

from __future__ import annotations

import os
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
from redis.asyncio import Redis

from adapters.store.client import connect
from adapters.store.embedded import EmbeddedRedis
from engine.compiled import active
from tests.tiny_game.hosting import GAMES, hosted

# A strong AI searches for its whole budget: whole games with strong AI seats through
# the app would take hours at the deployed 2 s a decision. Tests of the search itself
# cap it by iterations (tests/engine/ai); a test that reads this setting sets its own.
TEST_AI_BUDGET_S = 0.03
os.environ.setdefault("CAMPFIRE_AI_BUDGET_S", str(TEST_AI_BUDGET_S))


@pytest.fixture
def hosted_game(name: str) -> Iterator[str]:
    """The game ``name`` a test is parametrised with, hosted for the test when it is one
    of the tests' own games (registered before, and unregistered after, the test)."""
    with hosted(name):
        yield name


@pytest.fixture(params=sorted(GAMES))
def own_game(request: pytest.FixtureRequest) -> Iterator[str]:
    """Each of the tests' own games in turn (a parametrised fixture), hosted for the
    test."""
    name: str = request.param
    with hosted(name):
        yield name


@pytest.fixture
async def lone_redis(tmp_path: Path) -> AsyncIterator[EmbeddedRedis]:
    """An embedded Redis of this test alone, unsupervised: a test that stops it (an
    outage) has it down until it starts it again, on the same data."""
    redis = EmbeddedRedis(tmp_path / "redis")
    redis.start()
    try:
        yield redis
    finally:
        redis.stop()


@pytest.fixture
async def lone_client(lone_redis: EmbeddedRedis) -> AsyncIterator[Redis]:
    """A client of ``lone_redis``: it reconnects by itself once the server is back."""
    redis = connect(lone_redis.url)
    yield redis
    await redis.aclose()


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """While the engines run compiled, skip the tests that patch their modules
    (tests/engine/patching.py): run-tests runs them again on the source."""
    if not active():
        return
    skip = pytest.mark.skip(reason="patches an engine module; run with CAMPFIRE_ENGINES=python")
    for item in items:
        if item.get_closest_marker("interpreted"):
            item.add_marker(skip)
