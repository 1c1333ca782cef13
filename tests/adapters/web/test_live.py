"""One shared subscription per worker (adapters/web/live.py): announcements reach every
page watching their table and no other; a page behind skips to the newest; a lost
connection is made again and every page told to read afresh; a hub started while Redis
is away subscribes once it is back; a worker shutting down ends every page's stream."""

from __future__ import annotations

import asyncio

from redis.asyncio import Redis

from adapters.store.embedded import EmbeddedRedis
from adapters.store.keys import Keys
from adapters.web.live import ENDED, UNKNOWN, LiveHub


async def heard(client: Redis, channel: str, data: str) -> None:
    """Publish ``data`` on ``channel`` until a subscriber hears it: a subscription made
    again after an outage takes a moment to be in place."""
    for _ in range(50):
        if await client.publish(channel, data):
            return
        await asyncio.sleep(0.1)
    raise AssertionError(f"nobody subscribed to {channel}")


async def test_announcements_reach_the_pages_of_their_table(redis_client: Redis,
                                                           prefix: str) -> None:
    keys = Keys(prefix)
    hub = LiveHub(redis_client, keys.live)
    await hub.start()
    try:
        async with hub.watch("t1") as a, hub.watch("t1") as b, hub.watch("t2") as other:
            assert hub.watched == 3
            await redis_client.publish(keys.live("t1"), "5")
            assert await asyncio.wait_for(a.next(), 2) == 5
            assert await asyncio.wait_for(b.next(), 2) == 5
            await redis_client.publish(keys.live("t1"), "6")
            await redis_client.publish(keys.live("t1"), "7")
            await asyncio.sleep(0.2)
            assert await asyncio.wait_for(a.next(), 2) == 7  # behind: the newest only
            assert not other._changed.is_set()
        assert hub.watched == 0
    finally:
        await hub.stop()


async def test_a_lost_subscription_is_made_again_and_pages_read_afresh(
        redis_client: Redis, prefix: str) -> None:
    keys = Keys(prefix)
    hub = LiveHub(redis_client, keys.live)
    await hub.start()
    try:
        async with hub.watch("t1") as page:
            await redis_client.publish(keys.live("t1"), "3")
            assert await asyncio.wait_for(page.next(), 2) == 3
            # The server drops every subscriber's connection (a restart, a failover).
            await redis_client.client_kill_filter(_type="pubsub")
            assert await asyncio.wait_for(page.next(), 10) == UNKNOWN
            await heard(redis_client, keys.live("t1"), "4")
            assert await asyncio.wait_for(page.next(), 5) == 4
    finally:
        await hub.stop()


async def test_a_hub_started_while_redis_is_away_subscribes_once_it_is_back(
        lone_redis: EmbeddedRedis, lone_client: Redis, prefix: str) -> None:
    keys = Keys(prefix)
    hub = LiveHub(lone_client, keys.live)
    await asyncio.to_thread(lone_redis.stop)
    await hub.start()  # a worker starting during the outage: no error
    try:
        async with hub.watch("t1") as page:
            await asyncio.to_thread(lone_redis.start)
            assert await asyncio.wait_for(page.next(), 10) == UNKNOWN
            await heard(lone_client, keys.live("t1"), "2")
            assert await asyncio.wait_for(page.next(), 5) == 2
    finally:
        await hub.stop()


async def test_a_worker_shutting_down_ends_every_pages_stream(redis_client: Redis,
                                                              prefix: str) -> None:
    hub = LiveHub(redis_client, Keys(prefix).live)
    await hub.start()
    try:
        async with hub.watch("t1") as page:
            hub.end_watches()
            assert await asyncio.wait_for(page.next(), 1) == ENDED
            page.tell(5)  # nothing more is told once ended
            assert await asyncio.wait_for(page.next(), 1) == ENDED
        async with hub.watch("t2") as late:  # a stream opened meanwhile ends at once
            assert await asyncio.wait_for(late.next(), 1) == ENDED
    finally:
        await hub.stop()
