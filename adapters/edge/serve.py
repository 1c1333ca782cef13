"""One process serving any set of platforms on one core and one Redis.

Every platform's settings are read before anything starts, so a wrong one stops the
process with one line. On SIGTERM or SIGINT (docker stop, Kubernetes, Ctrl-C) the
platforms stop gracefully, the last started first, and the storage closes, stopping
the embedded redis-server cleanly (its data flushed, no process left behind).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
import sys
from collections.abc import Sequence

from adapters.edge.logging_setup import configure_logging
from adapters.edge.registry import PLATFORMS, Start
from adapters.edge.settings import AiEnv, LogEnv, OpsEnv
from adapters.ops.service import ops_on
from adapters.runtime import running_core, tune_gc
from adapters.store import StoreSettings, VolatileRedis

log = logging.getLogger(__name__)


async def serve(starts: Sequence[Start], titles: Sequence[str],
                store: StoreSettings | None = None, ai: AiEnv | None = None,
                ops: OpsEnv | None = None) -> None:
    """Serve every platform of ``starts`` until SIGTERM or SIGINT, then stop them all;
    the operator's endpoints too when ``ops`` (else ``CAMPFIRE_OPS_*``) says where."""
    ops = ops or OpsEnv.read()
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    signals = (signal.SIGTERM, signal.SIGINT)

    def asked(sig: signal.Signals) -> None:
        if stop.is_set():
            log.info("%s: already stopping", sig.name)
            return
        log.info("%s: stopping", sig.name)
        stop.set()

    for sig in signals:
        loop.add_signal_handler(sig, asked, sig)
    try:
        # A signal during start-up is not lost: the bot stops as soon as it has started.
        async with running_core(store, ai=ai) as core, contextlib.AsyncExitStack() as started:
            for start in starts:
                await started.enter_async_context(start(core))
            # Last in, first out: ready once every platform serves, and not once stopping.
            await started.enter_async_context(ops_on(core, ops))
            tune_gc()
            log.info("serving %s (stop with SIGTERM or Ctrl-C)", " and ".join(titles))
            await stop.wait()
    finally:
        for sig in signals:
            loop.remove_signal_handler(sig)
    log.info("stopped")


def serve_main(names: Sequence[str]) -> int:
    """Serve the platforms ``names`` (of ``PLATFORMS``); the process's exit code: 2,
    with one line and no traceback, when a setting is wrong, a token is rejected or
    ``REDIS_URL``'s server keeps nothing on disk."""
    edges = [PLATFORMS[name] for name in names]
    try:
        starts = [edge.start() for edge in edges]
        store = StoreSettings.from_env()
        ai = AiEnv.read()
        ops = OpsEnv.read()
        log_format = LogEnv.read().format
    except ValueError as err:
        print(str(err), file=sys.stderr)
        return 2
    configure_logging(log_format)
    try:
        with contextlib.suppress(KeyboardInterrupt):  # a Ctrl-C before the loop listens
            asyncio.run(serve(starts, [edge.title for edge in edges], store, ai, ops))
    except (VolatileRedis, RuntimeError) as err:  # raised with one line to say
        print(str(err), file=sys.stderr)
        return 2
    return 0
