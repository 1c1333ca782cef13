"""Checking that an external Redis (``REDIS_URL``) keeps its data on disk.

A Redis started with its defaults in a container, or with ``--appendonly no --save ''``,
holds everything in memory only: a SIGKILL or restart of that server loses every game
and the button-signing secret (every button already sent stops working). So at start
the bot reads the server's persistence settings (``CONFIG GET appendonly``,
``appendfsync``, ``save``; ``INFO persistence``) and

- refuses to start when neither the AOF nor RDB snapshots are on, unless the operator
  says so (``CAMPFIRE_ALLOW_VOLATILE_REDIS=1``; then one loud warning);
- warns when only RDB snapshots are on (a crash loses what came after the last one),
  when the AOF is not fsynced, or when the last background save failed;
- warns and carries on when the server does not let it look (managed services often
  disable ``CONFIG``): persistence is then the operator's word.

The embedded Redis is never checked: its configuration is ours (AOF, fsync always).
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass, field, replace

from redis import exceptions as redis_errors
from redis.asyncio import Redis

from adapters.store.client import unavailable_on_outage
from bot.storage.errors import StoreError

log = logging.getLogger(__name__)

ALLOW_VOLATILE_ENV = "CAMPFIRE_ALLOW_VOLATILE_REDIS"


class VolatileRedis(StoreError):
    """The Redis of ``REDIS_URL`` keeps nothing on disk; its message is one line to print."""


@dataclass(frozen=True)
class Persistence:
    """What the server said about its persistence (None: it did not say)."""

    #: ``appendonly`` (CONFIG), else ``aof_enabled`` (INFO).
    aof: bool | None = None
    appendfsync: str | None = None
    #: ``save``: "" when RDB snapshots are off, e.g. "3600 1 300 100 60 10000".
    save: str | None = None
    rdb_last_bgsave_ok: bool | None = None
    aof_last_write_ok: bool | None = None
    rdb_last_save_time: int | None = None
    #: Why CONFIG could not be read (disabled, renamed, no permission), if it could not.
    config_refused: str | None = None
    #: The warnings logged for this server, in order.
    warnings: tuple[str, ...] = field(default=())

    @property
    def snapshots(self) -> bool | None:
        """True when RDB snapshots are configured (``save`` not empty)."""
        return None if self.save is None else bool(self.save.strip())

    @property
    def volatile(self) -> bool:
        """True only when the server said both AOF and snapshots are off."""
        return self.aof is False and self.snapshots is False


async def read_persistence(redis: Redis) -> Persistence:
    """Ask the server; CONFIG or INFO refused leaves the fields it would give as None."""
    aof: bool | None = None
    appendfsync: str | None = None
    save: str | None = None
    refused: str | None = None
    with unavailable_on_outage("read persistence settings"):
        try:
            appendonly = (await redis.config_get("appendonly")).get("appendonly")
            appendfsync = (await redis.config_get("appendfsync")).get("appendfsync")
            save = (await redis.config_get("save")).get("save")
            aof = None if appendonly is None else str(appendonly).lower() == "yes"
            save = None if save is None else str(save)
        except redis_errors.ResponseError as exc:  # unknown command, NOPERM, renamed
            refused = str(exc) or type(exc).__name__
            appendfsync = save = None
        try:
            info = await redis.info("persistence")
        except redis_errors.ResponseError:
            info = {}
    if aof is None and "aof_enabled" in info:
        aof = bool(int(info["aof_enabled"]))
    return Persistence(
        aof=aof,
        appendfsync=None if appendfsync is None else str(appendfsync),
        save=save,
        rdb_last_bgsave_ok=_status(info.get("rdb_last_bgsave_status")),
        aof_last_write_ok=_status(info.get("aof_last_write_status")),
        rdb_last_save_time=_int(info.get("rdb_last_save_time")),
        config_refused=refused,
    )


def refusal_line() -> str:
    """The one line said when the bot will not start on a server that keeps nothing."""
    return (
        "Campfire: the Redis at REDIS_URL keeps nothing on disk (appendonly no, save \"\"): "
        "one SIGKILL or restart of that server loses every game and the button secret "
        "(a Redis run like this lost a whole game that way); turn on persistence "
        f"(appendonly yes) or set {ALLOW_VOLATILE_ENV}=1 to run anyway."
    )


def assess(found: Persistence, *, allow_volatile: bool, now: float | None = None) -> Persistence:
    """Raise ``VolatileRedis`` for a server that keeps nothing (unless allowed); otherwise
    return ``found`` with the warnings that apply, each logged once."""
    if found.volatile and not allow_volatile:
        raise VolatileRedis(refusal_line())
    warnings: list[str] = []
    if found.volatile:
        warnings.append(
            f"!!! {ALLOW_VOLATILE_ENV} is set and the Redis at REDIS_URL keeps nothing on "
            "disk: a restart or kill of that server loses every game and the button secret !!!"
        )
    elif found.aof is None and found.snapshots is None:
        why = f" ({found.config_refused})" if found.config_refused else ""
        warnings.append(
            f"could not check the persistence of the Redis at REDIS_URL{why}; "
            "make sure it keeps its data (AOF or snapshots), or games are lost when it restarts"
        )
    elif not found.aof:
        if found.snapshots:
            age = ""
            if found.rdb_last_save_time:
                seconds = int((time.time() if now is None else now) - found.rdb_last_save_time)
                age = f", the last one {max(seconds, 0)} s ago"
            warnings.append(
                f"the Redis at REDIS_URL keeps RDB snapshots only (save {found.save}{age}): "
                "a crash loses the moves since the last snapshot; appendonly yes keeps each one"
            )
        elif found.config_refused:
            warnings.append(
                "the Redis at REDIS_URL has no AOF and would not show its snapshot settings "
                f"({found.config_refused}); make sure it keeps its data"
            )
    elif found.appendfsync == "no":
        warnings.append(
            "the Redis at REDIS_URL never fsyncs its AOF (appendfsync no): "
            "a machine crash can lose the last seconds of moves"
        )
    if found.snapshots and found.rdb_last_bgsave_ok is False:
        warnings.append(
            "the last RDB snapshot of the Redis at REDIS_URL failed: it may refuse writes "
            "(MISCONF) until a snapshot succeeds"
        )
    if found.aof and found.aof_last_write_ok is False:
        warnings.append(
            "the last AOF write of the Redis at REDIS_URL failed: it refuses writes until "
            "the disk works again"
        )
    for text in warnings:
        log.warning("%s", text)
    return replace(found, warnings=tuple(warnings))


async def check_persistence(redis: Redis, *, allow_volatile: bool = False) -> Persistence:
    """Read the server's persistence and judge it (see the module's docstring)."""
    return assess(await read_persistence(redis), allow_volatile=allow_volatile)


def _status(value: object) -> bool | None:
    return None if value is None else str(value) == "ok"


def _int(value: object) -> int | None:
    try:
        return None if value is None else int(str(value))
    except ValueError:
        return None
