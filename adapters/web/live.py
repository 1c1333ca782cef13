"""Pages that follow their table live: one Redis subscription per worker, shared.

Every commit announces the table's new version on the table's channel
(``Keys.live``, published by the commit script itself, so whichever worker commits,
every worker hears it). A worker subscribes to a table's channel while at least one of
its pages watches that table, and hands each announcement to every such page. A page
needs only the newest version (it reads the table afresh), so a page that falls behind
skips versions instead of queueing them.

If the subscription's connection breaks (a Redis restart), it is made again and every
watched table subscribed again — by the client library itself when it can, else by the
hub — and every page is told to read its table afresh: an announcement sent while the
connection was away is not lost, only merged into that read. The library's quiet
reconnection shows only as a fresh confirmation of the hub's first subscription (its
own channel, which no commit ever announces on), so the hub listens for that. A worker
may also start while Redis is away: the hub keeps trying to subscribe meanwhile.

When the worker shuts down, the hub ends every page's stream at once (``end_watches``):
the server would otherwise wait for those never-ending responses before it stops, and
each page opens its stream again, on another worker or on this one once restarted.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Callable
from typing import Any

from redis.asyncio import Redis
from redis.exceptions import RedisError

log = logging.getLogger(__name__)

RESUBSCRIBE_PAUSE_S = 0.5
#: The version a page is given when announcements may have been missed: read afresh.
UNKNOWN = -1
#: The version a page is given when its worker is going away: its stream ends.
ENDED = -2


class Watch:
    """One page's view of its table's announcements: the newest one not yet taken."""

    def __init__(self) -> None:
        self._latest: int | None = None
        self._ended = False
        self._changed = asyncio.Event()

    def tell(self, version: int) -> None:
        """A new version (or ``UNKNOWN``) was announced."""
        self._latest = version
        self._changed.set()

    def end(self) -> None:
        """No more announcements will come: every later ``next`` is ``ENDED``."""
        self._ended = True
        self._changed.set()

    async def next(self) -> int:
        """Wait for the next announcement; the newest one since the last call."""
        await self._changed.wait()
        if self._ended:
            return ENDED
        self._changed.clear()
        latest, self._latest = self._latest, None
        return UNKNOWN if latest is None else latest


class LiveHub:
    """The worker's one subscription, shared by all its pages."""

    def __init__(self, redis: Redis, channel: Callable[[str], str]) -> None:
        """``redis``: the store's client (the subscription takes a connection of its own
        from its pool); ``channel`` names a table's channel (``Keys.live``)."""
        self._redis = redis
        self._channel = channel
        self._watches: dict[str, set[Watch]] = {}
        self._by_channel: dict[str, str] = {}
        self._pubsub: Any = None
        self._reader: asyncio.Task[None] | None = None
        self._stopped = False
        self._ending = False  # the worker shuts down: no page is followed any more
        self._ready = asyncio.Event()
        self._confirmed = False  # the hub's own channel's subscription was confirmed

    @property
    def watched(self) -> int:
        """How many pages are watching (all tables)."""
        return sum(len(w) for w in self._watches.values())

    async def start(self) -> None:
        """Connect and start reading announcements. With Redis away the reader keeps
        trying, so that a worker started during an outage serves once it is over."""
        try:
            await self._connect()
        except (RedisError, OSError) as exc:
            log.warning("live updates: no subscription yet (%s); retrying", exc)
            await self._close()
        self._reader = asyncio.create_task(self._read(), name="live hub")

    def end_watches(self) -> None:
        """End every page's stream, and any opened from now on: the worker shuts down."""
        self._ending = True
        for watches in self._watches.values():
            for watch in watches:
                watch.end()

    async def stop(self) -> None:
        """Stop reading and close the connection."""
        self._stopped = True
        if self._reader is not None:
            self._reader.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._reader
        await self._close()

    async def _connect(self) -> None:
        self._pubsub = self._redis.pubsub()
        self._confirmed = False
        channels = [self._channel(t) for t in self._watches]
        # A pub/sub connection must hold a subscription before it can be read; the
        # hub's own channel comes first, and its confirmation again means a reconnection.
        await self._pubsub.subscribe(self._channel(""), *channels)
        self._ready.set()

    async def _close(self) -> None:
        self._ready.clear()
        if self._pubsub is not None:
            with contextlib.suppress(RedisError, OSError):
                await self._pubsub.aclose()
        self._pubsub = None

    async def _read(self) -> None:
        task = asyncio.current_task()
        while not self._stopped:
            if task is not None and task.cancelling():
                # On Python 3.11 a cancel landing inside a Redis call can be swallowed
                # (its asyncio.wait_for); the request still shows here.
                raise asyncio.CancelledError
            if self._pubsub is None:  # never connected: the worker started in an outage
                await self._reconnect()
                continue
            try:
                message = await self._pubsub.get_message(timeout=1.0)
            except (RedisError, OSError) as exc:
                log.warning("live updates: subscription lost (%s); reconnecting", exc)
                await self._reconnect()
                continue
            if message is None:
                continue
            if message.get("type") == "subscribe" and \
                    _text(message["channel"]) == self._channel(""):
                if self._confirmed:
                    self._tell_all(UNKNOWN)  # subscribed again after a lost connection
                self._confirmed = True
                continue
            if message.get("type") != "message":
                continue
            table = self._by_channel.get(_text(message["channel"]))
            if table is None:
                continue
            try:
                version = int(_text(message["data"]))
            except ValueError:
                continue
            for watch in self._watches.get(table, ()):
                watch.tell(version)

    async def _reconnect(self) -> None:
        await self._close()
        while not self._stopped:
            await asyncio.sleep(RESUBSCRIBE_PAUSE_S)
            try:
                await self._connect()
            except (RedisError, OSError):
                await self._close()
                continue
            self._tell_all(UNKNOWN)
            return

    def _tell_all(self, version: int) -> None:
        for watches in self._watches.values():
            for watch in watches:
                watch.tell(version)

    @contextlib.asynccontextmanager
    async def watch(self, table_id: str) -> AsyncIterator[Watch]:
        """Follow ``table_id`` for the block's duration."""
        watch = Watch()
        if self._ending:
            watch.end()
        first = table_id not in self._watches
        self._watches.setdefault(table_id, set()).add(watch)
        channel = self._channel(table_id)
        self._by_channel[channel] = table_id
        if first and self._ready.is_set():
            with contextlib.suppress(RedisError, OSError):
                # On failure the reader reconnects and subscribes to every table.
                await self._pubsub.subscribe(channel)
        try:
            yield watch
        finally:
            watches = self._watches.get(table_id)
            if watches is not None:
                watches.discard(watch)
                if not watches:
                    del self._watches[table_id]
                    self._by_channel.pop(channel, None)
                    if self._ready.is_set():
                        with contextlib.suppress(RedisError, OSError):
                            await self._pubsub.unsubscribe(channel)


def _text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value
