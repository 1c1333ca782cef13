"""Serving the tables' pages: as a platform of its own in the registry (``campfire
web``, beside Telegram and Discord in one process or alone in many), or inside the
console.

``serving_pages`` starts the page server on the core's storage and stops it with the
block. A move made on a page queues its chat messages on the table's own platform:
``outlets`` says how, by platform (Telegram's and Discord's outboxes in Redis, drained
by whichever worker serves that platform; the console prints them itself).
"""

from __future__ import annotations

import contextlib
import logging
import os
from collections.abc import AsyncIterator, Callable, Mapping

from aiohttp import web

from adapters.delivery import Outbox
from adapters.edge.registry import PLATFORMS
from adapters.edge.settings import WebEnv
from adapters.runtime import Core
from adapters.store.keys import Keys
from adapters.web.links import LinkSigner
from adapters.web.live import LiveHub
from adapters.web.press import Outlet
from adapters.web.server import PageServer
from adapters.web.viewer import CheckInitData, Proofs
from bot.storage.ports import ScriptPart
from bot.ui.message import Outgoing

log = logging.getLogger(__name__)


def page_server(core: Core, outlets: Mapping[str, Outlet],
                mini_app: CheckInitData | None = None) -> PageServer:
    """The page server of ``core``'s bot; ``outlets``: by platform namespace (``tg``);
    ``mini_app``: the check of Mini Apps' init data, when a platform with them is
    served."""
    hub = LiveHub(core.storage.redis, Keys(core.key_prefix).live)
    return PageServer(core.app, Proofs(LinkSigner(core.secret), mini_app), outlets, hub)


def outbox_outlet(core: Core, outbox: Outbox) -> Outlet:
    """A platform whose messages go through its outbox in Redis: queued and settled in
    one write, sent by whichever worker serves the platform."""
    async def queue(items: list[Outgoing], settle: ScriptPart | None) -> bool:
        await outbox.put_many(items, settle)
        return True

    return Outlet(queue, core.storage.games.settle_part)


@contextlib.asynccontextmanager
async def serving_pages(server: PageServer, settings: WebEnv) -> AsyncIterator[int]:
    """Serve ``server`` on ``settings.listen``:``settings.port`` for the block; yields
    the port it listens on (a free one when the setting is 0)."""
    runner = web.AppRunner(server.web_app())
    await runner.setup()
    site = web.TCPSite(runner, settings.listen, settings.port)
    await site.start()
    try:
        yield runner.addresses[0][1] if runner.addresses else settings.port
    finally:
        await runner.cleanup()


def outbox_outlets(core: Core) -> dict[str, Outlet]:
    """An outlet for every platform of the registry that sends from an outbox in Redis,
    by the namespace of its ids."""
    return {edge.outbox: outbox_outlet(core, Outbox(core.storage.redis, core.key_prefix,
                                                    platform=edge.outbox))
            for edge in PLATFORMS.values() if edge.outbox is not None}


@contextlib.asynccontextmanager
async def pages_on(core: Core, settings: WebEnv,
                   mini_app: CheckInitData | None) -> AsyncIterator[int]:
    """Serve the pages of ``core``'s tables for the block (a platform of the registry)."""
    async with serving_pages(page_server(core, outbox_outlets(core), mini_app),
                             settings) as port:
        log.info("pages at %s (listening on %s:%s)", settings.url, settings.listen, port)
        yield port


def starter() -> Callable[[Core], contextlib.AbstractAsyncContextManager[int]]:
    """How the platform registry starts the pages: the settings are read now."""
    settings = WebEnv.read()
    if not settings.url:
        raise ValueError(f"{WebEnv.variable('url')} is not set: the pages' public address")
    # A Mini App's init data is signed with its bot's token: its platform checks it.
    check = next((found for edge in PLATFORMS.values()
                  if (found := edge.mini_app_check(os.environ)) is not None), None)
    return lambda core: pages_on(core, settings, check)
