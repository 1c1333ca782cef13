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
from adapters.store.game_store import DEFAULT_ARCHIVE_RETENTION, GameStore
from adapters.store.keys import DEFAULT_PREFIX
from adapters.store.migrations import MigrationRegistry
from adapters.store.once import OnceFlags
from adapters.store.prefs import Prefs


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

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> StoreSettings:
        """Read ``REDIS_URL``, ``CAMPFIRE_DATA_DIR``, ``CAMPFIRE_KEY_PREFIX``,
        ``CAMPFIRE_ARCHIVE_DAYS`` and ``CAMPFIRE_REDIS_FSYNC``; empty means unset."""
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
        )


@dataclass(frozen=True)
class Storage:
    """Everything kept in Redis, sharing one client (and one embedded server, if any)."""

    redis: Redis
    games: GameStore
    jobs: DueJobs
    once: OnceFlags
    prefs: Prefs
    #: The embedded server, or None when ``REDIS_URL`` is used.
    server: EmbeddedRedis | None


@asynccontextmanager
async def open_storage(
    settings: StoreSettings | None = None,
    *,
    migrations: MigrationRegistry | None = None,
) -> AsyncIterator[Storage]:
    """Connect (starting the embedded Redis if no URL is set) and close everything on exit.

    The first ping happens here, so a wrong ``REDIS_URL`` fails at startup with
    ``StoreUnavailable`` rather than at the first button press.
    """
    settings = settings or StoreSettings.from_env()
    server: EmbeddedRedis | None = None
    url = settings.redis_url
    if url is None:
        server = EmbeddedRedis(settings.data_dir, fsync=settings.fsync)
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
        )
        await games.ping()
        jobs = DueJobs(client, prefix=settings.key_prefix, lease=settings.job_lease)
        once = OnceFlags(client, prefix=settings.key_prefix)
        prefs = Prefs(client, prefix=settings.key_prefix)
        yield Storage(
            redis=client, games=games, jobs=jobs, once=once, prefs=prefs, server=server
        )
    finally:
        await client.aclose()
        if server is not None:
            await asyncio.to_thread(server.stop)
