"""Running the Discord bot: settings, start-up, the due loop, graceful stop.

``DISCORD_TOKEN`` is required; ``DISCORD_SHARDS`` fixes the shard count (by default
Discord's recommendation) and ``DISCORD_SHARD_IDS`` (``0,1``) the shards this process
connects: with several workers on one Redis, each runs its own shards (a guild's
interactions reach one worker only), and any worker can serve any table. With
``TELEGRAM_TOKEN`` set too, both platforms are served by one process on one core and
one Redis (``serve``). The token is redacted from every
log record, and a rejected token is reported without it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import signal
from collections.abc import AsyncIterator, Mapping
from dataclasses import dataclass
from typing import Any

import aiohttp
import discord
from redis.asyncio import Redis

from adapters.delivery import due_loop
from adapters.discord.client import CampfireClient, DiscordOptions
from adapters.runtime import make_services, token_secret, tune_gc
from adapters.store import StoreSettings, open_storage
from adapters.telegram.logging_setup import redact_everywhere
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
        """Read ``DISCORD_TOKEN`` (required), ``DISCORD_SHARDS`` and ``DISCORD_SHARD_IDS``."""
        e = os.environ if env is None else env
        token = e.get("DISCORD_TOKEN", "")
        if not token:
            raise ValueError("DISCORD_TOKEN is not set")
        shards = e.get("DISCORD_SHARDS", "").strip()
        ids = e.get("DISCORD_SHARD_IDS", "").strip()
        return cls(token=token, shard_count=int(shards) if shards else None,
                   shard_ids=tuple(int(i) for i in ids.split(",")) if ids else None)


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
             asyncio.create_task(due_loop(client.run_due, settings.due_every_s, stop),
                                 name="discord due loop")]
    try:
        yield client
    finally:
        stop.set()
        await client.close()
        _, late = await asyncio.wait(tasks, timeout=settings.shutdown_grace_s)
        for task in late:
            task.cancel()


async def serve(settings: DiscordSettings, telegram: Any = None) -> None:
    """Serve Discord (and Telegram with its settings) until SIGTERM or SIGINT."""
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    try:
        if telegram is not None:
            from adapters.telegram.service import running_telegram

            async with running_telegram(telegram) as tg, running_discord(
                    settings, tg.app, tg.outbox.r, tg.outbox.prefix):
                log.info("serving Telegram and Discord (stop with SIGTERM or Ctrl-C)")
                await stop.wait()
            return
        store = StoreSettings.from_env()
        async with open_storage(store) as storage:
            secret = await token_secret(storage, store.key_prefix)
            app = Campfire(make_services(storage, secret))
            tune_gc()
            async with running_discord(settings, app, storage.redis, store.key_prefix):
                log.info("serving Discord (stop with SIGTERM or Ctrl-C)")
                await stop.wait()
    finally:
        for sig in (signal.SIGTERM, signal.SIGINT):
            loop.remove_signal_handler(sig)
        log.info("stopped")


def main_discord(with_telegram: bool = False) -> int:
    """Entry point used by ``campfire`` when ``DISCORD_TOKEN`` is set."""
    settings = DiscordSettings.from_env()
    telegram = None
    if with_telegram:
        from adapters.telegram.settings import TelegramSettings

        telegram = TelegramSettings.from_env()
    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(serve(settings, telegram))
    return 0
