"""The operator's endpoints on a running core: what ``adapters.edge.serve`` starts
beside the platforms when ``CAMPFIRE_OPS_LISTEN`` is set."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator

from adapters.delivery.outbox import Outbox
from adapters.edge.registry import PLATFORMS
from adapters.edge.settings import OpsEnv
from adapters.ops.server import Ops, serving_ops
from adapters.runtime import Core


def ops_of(core: Core, settings: OpsEnv) -> Ops:
    """What the endpoints look at on ``core``: its Redis and figures, and the outbox of
    every platform that sends from one (also those another process serves: the queue
    is the deployment's)."""
    outboxes = [Outbox(core.storage.redis, core.key_prefix, platform=edge.outbox)
                for edge in PLATFORMS.values() if edge.outbox is not None]
    return Ops(core.storage.redis, core.metrics, outboxes, stale_s=settings.stale_s,
               ping_timeout_s=settings.ping_timeout_s)


@contextlib.asynccontextmanager
async def ops_on(core: Core, settings: OpsEnv) -> AsyncIterator[int | None]:
    """Serve the endpoints of ``core`` while inside, when ``settings`` say where;
    yields the port bound (None: not served)."""
    address = settings.address
    if address is None:
        yield None
        return
    async with serving_ops(ops_of(core, settings), *address) as port:
        yield port
