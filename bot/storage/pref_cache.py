"""Preferences read through a short-lived local cache.

Every press needs the languages of the chat and of the players it writes to; they
change rarely, so each worker keeps them for a few seconds instead of asking Redis a
dozen times per press. A change made through this worker is seen at once; one made by
another worker within ``ttl_s``.
"""

from __future__ import annotations

from collections.abc import Callable

from bot.storage import PrefsPort

MAX_ENTRIES = 50_000


class CachedPrefs:
    """A ``PrefsPort`` in front of another one."""

    def __init__(self, inner: PrefsPort, now: Callable[[], float], ttl_s: float = 30.0) -> None:
        """Cache ``inner``'s answers for ``ttl_s`` seconds of ``now``."""
        self.inner = inner
        self.now = now
        self.ttl_s = ttl_s
        self._cache: dict[str, tuple[float, str | None]] = {}

    async def get_pref(self, key: str) -> str | None:
        """The value, from the cache while it is fresh."""
        hit = self._cache.get(key)
        if hit is not None and hit[0] > self.now():
            return hit[1]
        value = await self.inner.get_pref(key)
        if len(self._cache) >= MAX_ENTRIES:
            self._cache.clear()
        self._cache[key] = (self.now() + self.ttl_s, value)
        return value

    async def set_pref(self, key: str, value: str) -> None:
        """Store through, and remember the new value."""
        await self.inner.set_pref(key, value)
        self._cache[key] = (self.now() + self.ttl_s, value)
