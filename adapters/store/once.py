"""Once-only flags in Redis (SET NX): lets several workers agree who sends a notice."""

from __future__ import annotations

from datetime import timedelta

from redis.asyncio import Redis

from adapters.store.client import unavailable_on_outage
from adapters.store.keys import DEFAULT_PREFIX


class OnceFlags:
    """``first(key)`` is True for exactly one caller per key until the flag expires."""

    def __init__(self, redis: Redis, *, prefix: str = DEFAULT_PREFIX) -> None:
        """Keep flags under ``<prefix>once:``."""
        self._redis = redis
        self._prefix = prefix + "once:"

    async def first(self, key: str, ttl: timedelta) -> bool:
        """Raise the flag ``key``; True only if it was not raised already."""
        with unavailable_on_outage("raise once flag"):
            won = await self._redis.set(
                self._prefix + key, "1", nx=True, px=max(1, int(ttl.total_seconds() * 1000))
            )
        return bool(won)

    async def raised(self, key: str) -> bool:
        """Is the flag ``key`` up (without raising it)?"""
        with unavailable_on_outage("read once flag"):
            return bool(await self._redis.exists(self._prefix + key))
