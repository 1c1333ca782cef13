"""Waiting for an update another worker holds (``UpdateLedger.claim_or_wait``), on a
real Redis. The pause is a fake that records the waits and may act meanwhile, as the
other worker would."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from datetime import timedelta

import pytest
from redis.asyncio import Redis

from adapters.delivery.outbox import Outbox
from adapters.delivery.updates import CLAIM_WAIT_LIMIT, UpdateLedger

PLATFORM = "tst"


@pytest.fixture
def ledger(redis_client: Redis, prefix: str) -> UpdateLedger:
    """Claims and done-flags under the tests' prefix."""
    return UpdateLedger(redis_client, prefix, platform=PLATFORM)


def pauses(waits: list[float], meanwhile: Callable[[int], Awaitable[None]]) -> Callable[
        [float], Awaitable[None]]:
    """A pause that sleeps not at all: it notes the wait and lets the other worker act
    (``meanwhile`` is told how many waits came before)."""
    async def pause(seconds: float) -> None:
        await meanwhile(len(waits))
        waits.append(seconds)
    return pause


async def test_a_free_update_is_claimed_without_waiting(ledger: UpdateLedger) -> None:
    waits: list[float] = []

    async def nothing(_: int) -> None:
        return None

    claim = await ledger.claim_or_wait(80, "w1:a", pauses(waits, nothing))
    assert claim is not None and claim.taken and waits == []
    assert await ledger.held(80) == "w1:a"


async def test_an_update_finished_by_its_holder_is_left_to_it(
    redis_client: Redis, prefix: str, ledger: UpdateLedger,
) -> None:
    _, _, theirs = await ledger.claim(81, "w2:b")
    outbox = Outbox(redis_client, prefix, platform=PLATFORM)
    waits: list[float] = []

    async def finish_on_third(before: int) -> None:
        if before == 2:
            assert await outbox.finish_update(theirs, [])

    assert await ledger.claim_or_wait(81, "w1:a", pauses(waits, finish_on_third)) is None
    assert len(waits) == 3


async def test_an_update_whose_holder_gave_it_back_is_taken_over(
    ledger: UpdateLedger,
) -> None:
    _, _, theirs = await ledger.claim(82, "w2:b")
    waits: list[float] = []

    async def release_at_once(before: int) -> None:
        if before == 0:
            await ledger.release(theirs)

    claim = await ledger.claim_or_wait(82, "w1:a", pauses(waits, release_at_once))
    assert claim is not None and claim.token == "w1:a" and len(waits) == 1
    assert await ledger.held(82) == "w1:a"


async def test_a_claim_held_too_long_is_left_to_the_others(
    redis_client: Redis, prefix: str,
) -> None:
    ledger = UpdateLedger(redis_client, prefix, platform=PLATFORM,
                          claim_ttl=timedelta(seconds=10))
    await ledger.claim(83, "w2:b")
    waits: list[float] = []

    async def nothing(_: int) -> None:
        return None

    assert await ledger.claim_or_wait(83, "w1:a", pauses(waits, nothing)) is None
    # It waited its limit (a few claim lifetimes), in short steps, and no longer.
    assert sum(waits) == pytest.approx(10 * CLAIM_WAIT_LIMIT, abs=0.06)
    assert max(waits) <= 0.05 + 1e-9
    assert await ledger.held(83) == "w2:b"
