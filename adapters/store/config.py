"""Choosing the Redis: ``REDIS_URL`` when set, otherwise the embedded server under ./data/."""

from __future__ import annotations

import asyncio
import os
from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path

from redis.asyncio import Redis

from adapters.store.client import connect
from adapters.store.due_jobs import DueJobs
from adapters.store.embedded import DEFAULT_DATA_DIR, EmbeddedRedis, FsyncPolicy
from adapters.store.game_store import (
    DEFAULT_ARCHIVE_RETENTION,
    DEFAULT_OWED_GRACE,
    DEFAULT_OWED_LEASE,
    GameStore,
)
from adapters.store.keys import DEFAULT_PREFIX
from adapters.store.migrations import MigrationRegistry
from adapters.store.once import OnceFlags
from adapters.store.persistence import ALLOW_VOLATILE_ENV, Persistence, check_persistence
from adapters.store.prefs import Prefs
from adapters.store.stats_store import StatsStore

_TRUE = ("1", "true", "yes", "on")


@dataclass(frozen=True)
class StoreSettings:
    """Where the data lives and how long archives are kept."""

    #: Any Redis (``redis://``, ``rediss://``, ``unix://``); None starts the embedded one.
    redis_url: str | None = None
    #: Data dir of the embedded Redis (ignored with ``redis_url``).
    data_dir: Path = DEFAULT_DATA_DIR
    key_prefix: str = DEFAULT_PREFIX
    archive_retention: timedelta = DEFAULT_ARCHIVE_RETENTION
    #: AOF fsync policy of the embedded Redis; an external server keeps its own.
    fsync: FsyncPolicy = "always"
    job_lease: timedelta = timedelta(minutes=5)
    #: Start even when the server of ``redis_url`` keeps nothing on disk (loudly).
    allow_volatile_redis: bool = False
    #: How long the writer of a table has to hand its follow-ups over before any
    #: worker repairs them (see ``GameStore.owed_grace``).
    owed_grace: timedelta = DEFAULT_OWED_GRACE
    #: How long a worker repairing a table holds it (a killed one lets it run out).
    owed_lease: timedelta = DEFAULT_OWED_LEASE

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> StoreSettings:
        """Read ``REDIS_URL``, ``CAMPFIRE_DATA_DIR``, ``CAMPFIRE_KEY_PREFIX``,
        ``CAMPFIRE_ARCHIVE_DAYS``, ``CAMPFIRE_REDIS_FSYNC``, ``CAMPFIRE_ALLOW_VOLATILE_REDIS``,
        ``CAMPFIRE_OWED_GRACE_S`` and ``CAMPFIRE_OWED_LEASE_S``; empty means unset."""
        env = os.environ if environ is None else environ
        fsync = env.get("CAMPFIRE_REDIS_FSYNC") or "always"
        if fsync not in ("always", "everysec"):
            raise ValueError(f"CAMPFIRE_REDIS_FSYNC must be always or everysec, not {fsync!r}")
        days = env.get("CAMPFIRE_ARCHIVE_DAYS")
        return cls(
            redis_url=env.get("REDIS_URL") or None,
            data_dir=Path(env.get("CAMPFIRE_DATA_DIR") or DEFAULT_DATA_DIR),
            key_prefix=env.get("CAMPFIRE_KEY_PREFIX") or DEFAULT_PREFIX,
            archive_retention=(timedelta(days=float(days)) if days else DEFAULT_ARCHIVE_RETENTION),
            fsync="everysec" if fsync == "everysec" else "always",
            allow_volatile_redis=(env.get(ALLOW_VOLATILE_ENV) or "").strip().lower() in _TRUE,
            owed_grace=_seconds(env, "CAMPFIRE_OWED_GRACE_S", DEFAULT_OWED_GRACE),
            owed_lease=_seconds(env, "CAMPFIRE_OWED_LEASE_S", DEFAULT_OWED_LEASE),
        )


def _seconds(env: Mapping[str, str], name: str, default: timedelta) -> timedelta:
    """A duration in seconds from the environment (tests shorten the repair delays)."""
    value = env.get(name)
    if not value:
        return default
    try:
        seconds = float(value)
    except ValueError:
        seconds = -1.0
    if not 0 <= seconds < 10**7:  # also refuses nan and inf
        raise ValueError(f"{name} must be a number of seconds >= 0, not {value!r}")
    return timedelta(seconds=seconds)


@dataclass(frozen=True)
class Storage:
    """Everything kept in Redis, sharing one client (and one embedded server, if any)."""

    redis: Redis
    games: GameStore
    jobs: DueJobs
    once: OnceFlags
    prefs: Prefs
    stats: StatsStore
    #: The embedded server, or None when ``REDIS_URL`` is used.
    server: EmbeddedRedis | None
    #: What the server of ``REDIS_URL`` said of its persistence (None: embedded).
    persistence: Persistence | None = None


@asynccontextmanager
async def open_storage(
    settings: StoreSettings | None = None,
    *,
    migrations: MigrationRegistry | None = None,
) -> AsyncIterator[Storage]:
    """Connect (starting the embedded Redis if no URL is set) and close everything on exit.

    The first ping happens here, so a wrong ``REDIS_URL`` fails at startup with
    ``StoreUnavailable`` rather than at the first button press. A server of
    ``REDIS_URL`` that keeps nothing on disk is refused with ``VolatileRedis`` unless
    ``settings.allow_volatile_redis`` (see ``adapters.store.persistence``). The embedded
    server is supervised: if it dies, it is started again on the same data.
    """
    settings = settings or StoreSettings.from_env()
    server: EmbeddedRedis | None = None
    url = settings.redis_url
    if url is None:
        server = EmbeddedRedis(settings.data_dir, fsync=settings.fsync, supervise=True)
        # Starting waits for the AOF to load, which may take a while: off the loop.
        await asyncio.to_thread(server.start)
        url = server.url
    client = connect(url)
    try:
        games = GameStore(
            client,
            prefix=settings.key_prefix,
            migrations=migrations,
            archive_retention=settings.archive_retention,
            owed_grace=settings.owed_grace,
            owed_lease=settings.owed_lease,
        )
        await games.ping()
        persistence = None
        if server is None:
            persistence = await check_persistence(
                client, allow_volatile=settings.allow_volatile_redis)
        jobs = DueJobs(client, prefix=settings.key_prefix, lease=settings.job_lease)
        once = OnceFlags(client, prefix=settings.key_prefix)
        prefs = Prefs(client, prefix=settings.key_prefix)
        yield Storage(
            redis=client, games=games, jobs=jobs, once=once, prefs=prefs,
            stats=StatsStore(client, prefix=settings.key_prefix), server=server,
            persistence=persistence,
        )
    finally:
        await client.aclose()
        if server is not None:
            await asyncio.to_thread(server.stop)
