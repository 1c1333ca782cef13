"""The operator's endpoints over HTTP: alive, ready while Redis answers and the loops
turn (503 naming what failed otherwise, and ready again once it is back), and the
figures in a text Prometheus parses."""

from __future__ import annotations

import asyncio
import json

import pytest
from redis.asyncio import Redis

from adapters.delivery.outbox import Outbox
from adapters.ops.metrics import PrometheusMetrics
from adapters.ops.server import ROUTES, Ops, serving_ops
from adapters.store.embedded import EmbeddedRedis
from adapters.store.testing import delete_prefix, unique_prefix
from bot import metrics as figures
from bot.ui.message import Message, Outgoing, ToChat
from tests.adapters.ops.scrape import get, samples, total

SAFETY_S = 20.0


class Clock:
    """Monotonic seconds moved by hand (the loops' heartbeats)."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now




async def ready(port: int) -> tuple[int, dict[str, object]]:
    status, body = await get(port, "/readyz")
    return status, json.loads(body)


async def until_status(port: int, wanted: int) -> dict[str, object]:
    """``/readyz``'s body once it answers ``wanted`` (fails after ``SAFETY_S``)."""
    deadline = asyncio.get_running_loop().time() + SAFETY_S
    while True:
        status, body = await ready(port)
        if status == wanted:
            return body
        assert asyncio.get_running_loop().time() < deadline, (status, body)
        await asyncio.sleep(0.05)


def test_routes_are_the_three_endpoints() -> None:
    assert [(method, path) for method, path, _ in ROUTES] == [
        ("GET", "/healthz"), ("GET", "/readyz"), ("GET", "/metrics")]


async def test_readyz_fails_while_redis_is_down_and_recovers(
    lone_redis: EmbeddedRedis, lone_client: Redis
) -> None:
    metrics = PrometheusMetrics()
    metrics.count(figures.COMMITS, {"platform": "tg", "game": "caverna"})
    ops = Ops(lone_client, metrics, [], stale_s=60, ping_timeout_s=0.5)
    async with serving_ops(ops, "127.0.0.1", 0) as port:
        assert (await get(port, "/healthz"))[0] == 200
        assert await ready(port) == (200, {"status": "ready"})

        lone_redis.stop()
        body = await until_status(port, 503)
        assert body["status"] == "not ready"
        failed = body["failed"]
        assert isinstance(failed, dict) and list(failed) == ["redis"], body
        # Alive all the same: a restart would not bring Redis back.
        assert (await get(port, "/healthz"))[0] == 200
        # The figures still answer, without the outboxes' (Redis') part.
        status, text = await get(port, "/metrics")
        assert status == 200 and total(samples(text), "campfire_commits_total") == 1

        lone_redis.start()
        assert await until_status(port, 200) == {"status": "ready"}


async def test_readyz_names_a_loop_that_stopped_turning(lone_client: Redis) -> None:
    clock = Clock()
    metrics = PrometheusMetrics(clock=clock)
    metrics.beat("tg sender")
    metrics.beat("tg due loop")
    async with serving_ops(Ops(lone_client, metrics, [], stale_s=30), "127.0.0.1", 0) as port:
        clock.now += 29
        assert (await ready(port))[0] == 200
        metrics.beat("tg sender")  # the sender turns on, the due loop is stuck
        clock.now += 2
        status, body = await ready(port)
        assert status == 503
        assert body == {"status": "not ready", "failed": {"tg due loop": "no turn for 31 s"}}
        metrics.beat("tg due loop")
        assert (await ready(port))[0] == 200


async def test_metrics_parse_and_show_the_figures_and_the_outbox(
    lone_client: Redis
) -> None:
    prefix = unique_prefix()
    outbox = Outbox(lone_client, prefix, platform="tg")
    metrics = PrometheusMetrics(platforms={"tg": "telegram"})
    metrics.count(figures.PRESSES, {"platform": "tg", "game": "caverna"})
    metrics.count(figures.REFUSALS, {"platform": "tg", "game": "caverna",
                                     "reason": "press.stale"})
    metrics.observe(figures.PICTURE_SECONDS, 0.3, {"platform": "tg", "game": "caverna"})
    metrics.beat("tg sender")
    try:
        async with serving_ops(Ops(lone_client, metrics, [outbox]), "127.0.0.1", 0) as port:
            status, text = await get(port, "/metrics")
            assert status == 200
            found = samples(text)
            on = {"platform": "telegram", "game": "caverna"}
            assert total(found, "campfire_presses_total", **on) == 1
            assert total(found, "campfire_refusals_total", reason="press.stale", **on) == 1
            assert total(found, "campfire_picture_seconds_count", **on) == 1
            assert total(found, "campfire_picture_seconds_sum", **on) == pytest.approx(0.3)
            assert total(found, "campfire_outbox_depth", platform="telegram") == 0
            assert total(found, "campfire_outbox_age_seconds", platform="telegram") == 0

            for n in range(3):
                await outbox.put(Outgoing(ToChat(f"tg:-{n + 1}"), Message(f"hello {n}")))
            await asyncio.sleep(1.1)  # Redis's clock, which stamps the queuing, moves on
            found = samples((await get(port, "/metrics"))[1])
            assert total(found, "campfire_outbox_depth", platform="telegram") == 3
            age = total(found, "campfire_outbox_age_seconds", platform="telegram")
            assert 1.0 <= age < SAFETY_S
            assert total(found, "campfire_loop_idle_seconds", loop="tg sender") >= 0
    finally:
        await delete_prefix(lone_client, prefix)
