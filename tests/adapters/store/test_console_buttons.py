"""ConsoleButtons: message numbers only rise, and each keeps the buttons printed under it."""

from __future__ import annotations

import asyncio
from datetime import timedelta

from redis.asyncio import Redis

from adapters.store.console_buttons import ConsoleButtons, PrintedButton

GROUP_JOIN = PrintedButton("con:group", False, "l.a7k2.join.mac")
DM_MOVE = PrintedButton("con:dm:anna", True, "m.a7k2.3.0.deadbeef.1.mac")


async def test_each_message_keeps_its_own_buttons(redis_client: Redis, prefix: str) -> None:
    book = ConsoleButtons(redis_client, prefix=prefix)
    first = await book.keep({1: GROUP_JOIN, 2: DM_MOVE})
    second = await book.keep({1: DM_MOVE})
    assert second > first
    assert await book.find(first, 1) == GROUP_JOIN
    assert await book.find(first, 2) == DM_MOVE
    assert await book.find(second, 1) == DM_MOVE
    assert await book.find(second, 2) is None
    assert await book.find(second + 1, 1) is None  # not printed yet


async def test_numbers_go_on_across_books_and_processes(redis_client: Redis,
                                                        prefix: str) -> None:
    """A new book on the same Redis (a restart, another console) never gives out a
    number again; many at once all get different ones."""
    before = await ConsoleButtons(redis_client, prefix=prefix).keep({1: GROUP_JOIN})
    again = ConsoleButtons(redis_client, prefix=prefix)
    numbers = await asyncio.gather(*(again.keep({1: DM_MOVE}) for _ in range(20)))
    assert len(set(numbers)) == 20 and min(numbers) > before
    assert await again.find(before, 1) == GROUP_JOIN


async def test_buttons_are_kept_for_a_while_only(redis_client: Redis, prefix: str) -> None:
    book = ConsoleButtons(redis_client, prefix=prefix, keep=timedelta(days=2))
    number = await book.keep({1: GROUP_JOIN})
    ttl = await redis_client.ttl(f"{prefix}console:buttons:{number}")
    assert timedelta(days=2).total_seconds() - 5 <= ttl <= timedelta(days=2).total_seconds()
