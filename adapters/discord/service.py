"""Running the Discord bot: settings, start-up, the due loop, graceful stop.

``DISCORD_TOKEN`` is required; ``DISCORD_SHARDS`` fixes the shard count (by default
Discord's recommendation) and ``DISCORD_SHARD_IDS`` (``0,1``) the shards this process
connects: with several workers on one Redis, each runs its own shards (a guild's
interactions reach one worker only), and any worker can serve any table. With
``TELEGRAM_TOKEN`` set too, the platform registry (``adapters.edge``) serves both from
one process on one core and one Redis. The token is redacted from every log record,
and a rejected token is reported without it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Callable, Mapping
from dataclasses import dataclass
from functools import partial
from typing import Annotated, Any

import aiohttp
import discord
from pydantic import field_validator
from pydantic_settings import NoDecode
from redis.asyncio import Redis

from adapters.delivery import due_loop
from adapters.discord.client import CampfireClient, DiscordOptions
from adapters.edge.logging_setup import redact_everywhere
from adapters.edge.settings import EnvModel
from adapters.runtime import Core
from bot.app import Campfire

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class DiscordSettings:
    """How to reach Discord."""

    token: str
    shard_count: int | None = None
    shard_ids: tuple[int, ...] | None = None
    due_every_s: float = 5.0
    # On SIGTERM/SIGINT: how long interactions under way may take to finish.
    shutdown_grace_s: float = 8.0

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> DiscordSettings:
        """Read ``DISCORD_TOKEN`` (required), ``DISCORD_SHARDS`` and ``DISCORD_SHARD_IDS``
        (``DiscordEnv``); ``ValueError`` naming the variable when one is wrong."""
        e = DiscordEnv.read(env)
        return cls(token=e.token, shard_count=e.shards, shard_ids=e.shard_ids)


class DiscordEnv(EnvModel, env_prefix="DISCORD_"):
    """The ``DISCORD_*`` variables (each field's, upper-cased, after the prefix); an
    empty one means Discord's recommendation (shards) or every shard (ids)."""

    token: str
    shards: int | None = None
    # Written as operators do, ``0,1`` (not JSON): parsed by ``_listed``.
    shard_ids: Annotated[tuple[int, ...] | None, NoDecode] = None

    @field_validator("shard_ids", mode="before")
    @classmethod
    def _listed(cls, value: object) -> object:
        if isinstance(value, str):
            return tuple(part.strip() for part in value.split(","))
        return value


@contextlib.asynccontextmanager
async def running_discord(settings: DiscordSettings, app: Campfire, redis: Redis,
                          key_prefix: str) -> AsyncIterator[CampfireClient]:
    """Log in, connect every shard, run the due loop; on exit stop them all."""
    redact_everywhere(settings.token)
    kwargs: dict[str, Any] = {}
    if settings.shard_count is not None:
        kwargs["shard_count"] = settings.shard_count
    if settings.shard_ids is not None:
        kwargs["shard_ids"] = list(settings.shard_ids)
    client = CampfireClient(app, redis, key_prefix, DiscordOptions(), **kwargs)
    failure: str | None = None
    try:
        await client.login(settings.token)
    except discord.LoginFailure:
        failure = "Discord rejected DISCORD_TOKEN"
    except discord.HTTPException as exc:
        failure = f"could not reach Discord (HTTP {exc.status})"
    except (aiohttp.ClientError, OSError) as exc:
        failure = f"could not reach Discord ({type(exc).__name__})"
    if failure is not None:
        await client.close()
        raise RuntimeError(failure)  # outside the handler: nothing quotes the token
    stop = asyncio.Event()
    tasks = [asyncio.create_task(client.connect(), name="discord gateway"),
             asyncio.create_task(due_loop(client.run_due, settings.due_every_s, stop,
                                          client.app.due_soon, partial(
                                              app.sv.metrics.beat,
                                              f"{client.platform.name} due loop")),
                                 name="discord due loop")]
    try:
        yield client
    finally:
        stop.set()
        await client.close()
        _, late = await asyncio.wait(tasks, timeout=settings.shutdown_grace_s)
        for task in late:
            task.cancel()


def starter() -> Callable[[Core], contextlib.AbstractAsyncContextManager[CampfireClient]]:
    """How the platform registry (``adapters.edge``) starts Discord: the settings are
    read now (a bad one stops ``campfire`` before anything starts), the rest on a core."""
    settings = DiscordSettings.from_env()
    return lambda core: running_discord(settings, core.app, core.storage.redis,
                                        core.key_prefix)
