"""Fixtures: a GameStore on a fresh embedded Redis, or on REDIS_URL with a unique prefix."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from redis.asyncio import Redis

from adapters.store.due_jobs import DueJobs
from adapters.store.game_store import GameStore
from adapters.store.testing import redis_for_tests
from bot.storage.records import TableRecord


@pytest.fixture(scope="session")
def redis_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """One server for the session (embedded unless REDIS_URL is set); tests split by prefix."""
    with redis_for_tests(tmp_path_factory.mktemp("redis")) as url:
        yield url


@pytest.fixture
def store(redis_client: Redis, prefix: str) -> GameStore:
    """A GameStore isolated under the test's prefix."""
    return GameStore(redis_client, prefix=prefix)


@pytest.fixture
def jobs(redis_client: Redis, prefix: str) -> DueJobs:
    """A DueJobs queue isolated under the test's prefix."""
    return DueJobs(redis_client, prefix=prefix)


@pytest.fixture
def make_record() -> Callable[..., TableRecord]:
    """Build a lobby record with sensible defaults; keyword arguments override fields."""

    def build(table_id: str = "a7k2", **fields: Any) -> TableRecord:
        values: dict[str, Any] = {
            "table_id": table_id,
            "game": "stone_age",
            "chat_id": "tg:-1001",
            "creator_id": "tg:u1",
            "seats": ("tg:u1", "tg:u2"),
            "options": {"players": 2},
            "state": {"round": 1, "food": [5, 6]},
        }
        values.update(fields)
        return TableRecord(**values)

    return build


@pytest.fixture
def embedded_dir(tmp_path: Path) -> Path:
    """A fresh data dir for tests that run their own embedded server."""
    return tmp_path / "data"
