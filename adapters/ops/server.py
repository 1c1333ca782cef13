"""The operator's HTTP endpoints, as a table of routes (``ROUTES``):

- ``/healthz``: 200 while the process's event loop answers (a liveness probe restarts
  a process that stops answering);
- ``/readyz``: 200 when Redis answers and every loop turns (``health``), else 503 with
  a JSON body naming what failed (a readiness probe takes the process out of the
  Service meanwhile);
- ``/metrics``: the figures (``metrics.PrometheusMetrics``) in Prometheus' text format,
  the outboxes' depth and age read from Redis as it is scraped.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from dataclasses import dataclass

from aiohttp import web
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest
from redis.asyncio import Redis

from adapters.delivery.outbox import Outbox
from adapters.ops.health import failures
from adapters.ops.metrics import PrometheusMetrics

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Ops:
    """What the endpoints look at: the bot's Redis, its figures, the outboxes whose
    depth they show, and the readiness thresholds (``OpsEnv``)."""

    redis: Redis
    metrics: PrometheusMetrics
    outboxes: Sequence[Outbox]
    stale_s: float = 120.0
    ping_timeout_s: float = 1.0


Handler = Callable[[Ops, web.Request], Awaitable[web.StreamResponse]]


async def healthz(ops: Ops, request: web.Request) -> web.StreamResponse:
    """Alive: answering at all is the proof."""
    return web.json_response({"status": "alive"})


async def readyz(ops: Ops, request: web.Request) -> web.StreamResponse:
    """Ready, or 503 naming every check that failed."""
    failed = await failures(ops.redis, ops.metrics.idle(), timeout_s=ops.ping_timeout_s,
                            stale_s=ops.stale_s)
    if failed:
        return web.json_response({"status": "not ready", "failed": failed}, status=503)
    return web.json_response({"status": "ready"})


async def metrics(ops: Ops, request: web.Request) -> web.StreamResponse:
    """The figures; with Redis down the outboxes keep their last values (the scrape
    still answers, and ``/readyz`` says what is wrong)."""
    try:
        await ops.metrics.refresh(ops.outboxes)
    except Exception as exc:  # a scrape must answer whatever Redis does
        log.debug("outbox figures not refreshed: %s", exc)
    body = generate_latest(ops.metrics.registry)
    return web.Response(body=body, headers={"Content-Type": CONTENT_TYPE_LATEST})


#: The endpoints: (method, path, handler).
ROUTES: tuple[tuple[str, str, Handler], ...] = (
    ("GET", "/healthz", healthz),
    ("GET", "/readyz", readyz),
    ("GET", "/metrics", metrics),
)


def ops_app(ops: Ops) -> web.Application:
    """The aiohttp application of ``ROUTES`` on ``ops``."""
    app = web.Application()

    def bound(handler: Handler) -> Callable[[web.Request], Awaitable[web.StreamResponse]]:
        async def handle(request: web.Request) -> web.StreamResponse:
            return await handler(ops, request)
        return handle

    for method, path, handler in ROUTES:
        app.router.add_route(method, path, bound(handler))
    return app


@contextlib.asynccontextmanager
async def serving_ops(ops: Ops, host: str, port: int) -> AsyncIterator[int]:
    """Serve the endpoints on ``host``:``port`` (0: a free port) while inside; yields
    the port bound."""
    # No access log: a probe every few seconds would drown the bot's own lines.
    runner = web.AppRunner(ops_app(ops), access_log=None)
    await runner.setup()
    try:
        await web.TCPSite(runner, host, port).start()
        bound = int(runner.addresses[0][1]) if runner.addresses else port
        log.info("operator's endpoints on %s:%s (/healthz, /readyz, /metrics)", host, bound)
        yield bound
    finally:
        await runner.cleanup()
