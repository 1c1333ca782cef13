"""Whether the bot can serve: Redis answers, and every loop it runs still turns.

Each check returns what failed, in words an operator reads in ``/readyz``'s body
(``{"redis": "no answer within 1 s"}``); an empty answer means ready.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Mapping
from typing import Protocol


class Pings(Protocol):
    """What the Redis check needs of a client (``redis.asyncio.Redis``)."""

    def ping(self) -> Awaitable[object]:
        """Ask the server to answer."""
        ...


async def redis_fails(redis: Pings, timeout_s: float) -> str | None:
    """Why Redis does not answer a PING within ``timeout_s`` (None: it does)."""
    try:
        await asyncio.wait_for(redis.ping(), timeout_s)
    except TimeoutError:
        return f"no answer within {timeout_s:g} s"
    except Exception as exc:  # any failure to answer is the answer: not ready
        return f"{type(exc).__name__}: {exc}"[:200]
    return None


def stale_loops(idle: Mapping[str, float], stale_s: float) -> dict[str, str]:
    """The loops (by name) whose last turn was more than ``stale_s`` seconds ago, with
    how long ago; ``idle`` is seconds since each loop's turn."""
    return {loop: f"no turn for {seconds:.0f} s" for loop, seconds in sorted(idle.items())
            if seconds > stale_s}


async def failures(redis: Pings, idle: Mapping[str, float], *, timeout_s: float,
                   stale_s: float) -> dict[str, str]:
    """Every check that fails, by name: ``redis``, then each stale loop."""
    found: dict[str, str] = {}
    why = await redis_fails(redis, timeout_s)
    if why is not None:
        found["redis"] = why
    found.update(stale_loops(idle, stale_s))
    return found
