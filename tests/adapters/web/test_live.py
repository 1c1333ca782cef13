"""One shared subscription per worker (adapters/web/live.py): announcements reach every
page watching their table and no other; a page behind skips to the newest; a lost
connection is made again and every page told to read afresh."""

from __future__ import annotations

import asyncio

from redis.asyncio import Redis

from adapters.store.keys import Keys
from adapters.web.live import UNKNOWN, LiveHub


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
            for _ in range(50):  # the hub is subscribed again once a publish is heard
                if await redis_client.publish(keys.live("t1"), "4"):
                    break
                await asyncio.sleep(0.1)
            assert await asyncio.wait_for(page.next(), 5) == 4
    finally:
        await hub.stop()
