"""Serving the table's page beside the platforms of one process.

``serving_pages`` starts the page server on the core's storage and stops it with the
block. A move made on a page queues its chat messages on the table's own platform:
``queues`` says how, by platform (Telegram's and Discord's outboxes in Redis, drained
by whichever worker serves that platform; the console prints them itself).
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Mapping

from aiohttp import web

from adapters.delivery import Outbox
from adapters.edge.settings import WebEnv
from adapters.runtime import Core
from adapters.store.keys import Keys
from adapters.web.links import LinkSigner
from adapters.web.live import LiveHub
from adapters.web.press import Outlet
from adapters.web.server import PageServer
from adapters.web.viewer import Proofs
from bot.storage.ports import ScriptPart
from bot.ui.message import Outgoing


def page_server(core: Core, outlets: Mapping[str, Outlet],
                telegram_token: str | None = None) -> PageServer:
    """The page server of ``core``'s bot; ``outlets``: by platform namespace (``tg``)."""
    hub = LiveHub(core.storage.redis, Keys(core.key_prefix).live)
    return PageServer(core.app, Proofs(LinkSigner(core.secret), telegram_token), outlets,
                      hub)


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
