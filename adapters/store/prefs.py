"""Chat and user preferences (language) in one Redis hash."""

from __future__ import annotations

from redis.asyncio import Redis

from adapters.store.client import unavailable_on_outage
from adapters.store.keys import DEFAULT_PREFIX


class Prefs:
    """``get_pref``/``set_pref`` over the hash ``<prefix>prefs``."""

    def __init__(self, redis: Redis, *, prefix: str = DEFAULT_PREFIX) -> None:
        """Keep preferences under ``<prefix>prefs``."""
        self._redis = redis
        self._key = prefix + "prefs"

    async def get_pref(self, key: str) -> str | None:
        """The stored value, or None."""
        with unavailable_on_outage("read preference"):
            value = await self._redis.hget(self._key, key)
        return None if value is None else str(value)

    async def set_pref(self, key: str, value: str) -> None:
        """Store a value."""
        with unavailable_on_outage("write preference"):
            await self._redis.hset(self._key, key, value)
