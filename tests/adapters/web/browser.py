"""A real browser for the page tests: Debian's Chromium driven by Playwright, and a page
server on a real port over the test's own Redis, with a chat harness beside it.

``run-tests`` installs Chromium (``scripts/ensure-browser.sh``) and exports its path as
``CAMPFIRE_CHROMIUM``; without it these tests fail rather than pass unseen.
"""

from __future__ import annotations

import asyncio
import itertools
import os
import shutil
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path

from aiohttp.test_utils import TestServer
from playwright.async_api import Browser, Page, Response, ViewportSize, async_playwright
from redis.asyncio import Redis

from adapters.edge.registry import PLATFORMS
from adapters.store.keys import Keys
from adapters.web.links import LinkSigner
from adapters.web.live import LiveHub
from adapters.web.press import Outlet
from adapters.web.server import PageServer
from adapters.web.viewer import Proofs
from bot.app import Campfire
from bot.storage.ports import ScriptPart
from bot.ui.message import Outgoing
from tests.bot.helpers import SECRET, Clock, Harness, build_app, storage_on

PHONE: ViewportSize = {"width": 390, "height": 844}
DESKTOP: ViewportSize = {"width": 1280, "height": 900}
SHOTS = Path(__file__).resolve().parents[3] / "out" / "screenshots"
DAY = 24 * 3600.0
TELEGRAM_TOKEN = "123456:page-tests-bot-token"  # what Mini App init data is signed with

# The page checks Mini App init data through the registry, as the bot does.
TELEGRAM = PLATFORMS["telegram"]


def chromium_path() -> str:
    """Where Debian's Chromium is (``CAMPFIRE_CHROMIUM``, else the usual places)."""
    for candidate in (os.environ.get("CAMPFIRE_CHROMIUM"), "/usr/bin/chromium",
                      shutil.which("chromium"), shutil.which("chromium-browser")):
        if candidate and os.path.exists(candidate):
            return candidate
    raise AssertionError("no Chromium: run the tests with ./run-tests, which installs "
                         "Debian's chromium package")


@asynccontextmanager
async def chromium() -> AsyncIterator[Browser]:
    """A headless Chromium for the block."""
    async with async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=chromium_path(),
                                           args=["--no-sandbox", "--disable-gpu"])
        try:
            yield browser
        finally:
            await browser.close()


@dataclass
class Site:
    """A page server on a real port, the chat harness of its bot and what the pages'
    moves queued for the chat; ``worker`` makes another page worker of the same bot
    (a core of its own on the same Redis, as another process would have)."""

    h: Harness
    server: TestServer
    links: LinkSigner
    worker: Callable[[], PageServer]
    queued: list[Outgoing] = field(default_factory=list)
    token: str = TELEGRAM_TOKEN

    def url(self, table: str, user_id: str | None = None) -> str:
        """The page of ``table`` as ``user_id``'s link opens it (None: a spectator's)."""
        base = f"http://127.0.0.1:{self.server.port}/t/{table}"
        if user_id is None:
            return base
        return f"{base}?k={self.links.make(user_id, table, self.h.clock() + DAY)}"


@asynccontextmanager
async def page_site(redis_client: Redis, prefix: str, *, pictures: bool) -> AsyncIterator[Site]:
    """A bot on the test's Redis with its pages served on a free port."""
    clock = Clock()
    h = Harness(build_app(storage_on(redis_client, prefix, clock), clock, pictures=pictures),
                clock)
    queued: list[Outgoing] = []

    async def queue(items: list[Outgoing], settle: ScriptPart | None) -> bool:
        del settle  # shown at once, like the console: acknowledged after
        queued.extend(h.keep(items))
        return True

    links = LinkSigner(SECRET)
    proofs = Proofs(links, TELEGRAM.mini_app_check({"TELEGRAM_TOKEN": TELEGRAM_TOKEN}))
    numbers = itertools.count(2)

    def pages(app: Campfire) -> PageServer:
        return PageServer(app, proofs, {"con": Outlet(queue)},
                          LiveHub(redis_client, Keys(prefix).live))

    def worker() -> PageServer:
        app = build_app(storage_on(redis_client, prefix, clock), clock, pictures=pictures,
                        worker_id=f"w{next(numbers)}")
        return pages(app)

    site = Site(h, await serving(pages(h.app)), links, worker, queued)
    try:
        yield site
    finally:
        await site.server.close()


async def serving(pages: PageServer, port: int | None = None) -> TestServer:
    """``pages`` served on ``port`` (a free one by default)."""
    server = TestServer(pages.web_app(), port=port)
    await server.start_server()
    return server


@asynccontextmanager
async def worker_down(site: Site) -> AsyncIterator[None]:
    """The site's page worker stops for the block, and a new one starts on the same
    port after it, as in a deploy: the pages open there are left to find it again."""
    port = site.server.port
    await site.server.close()
    yield
    site.server = await serving(site.worker(), port)


@asynccontextmanager
async def another_worker(site: Site) -> AsyncIterator[Site]:
    """A second page worker of the site's bot, on a port of its own, for the block."""
    server = await serving(site.worker())
    try:
        yield replace(site, server=server)
    finally:
        await server.close()


async def drawn(page: Page, version: int, timeout_ms: float = 10_000) -> None:
    """Wait until ``page`` shows ``version`` of its table and is not busy."""
    await page.wait_for_function(
        "v => document.body.dataset.version === String(v) && !document.body.dataset.busy",
        arg=version, timeout=timeout_ms)


async def shot(page: Page, name: str) -> Path:
    """Save a screenshot of the whole page under ``out/screenshots``."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    path = SHOTS / f"{name}.png"
    await page.screenshot(path=str(path), full_page=True)
    return path


@dataclass
class Received:
    """The response bodies a page receives (``received_by``), each read as it comes."""

    reads: list[asyncio.Future[bytes | None]] = field(default_factory=list)

    async def bodies(self) -> list[bytes]:
        """Every body received so far, waiting for those still being read: a page may
        show what a response said before its body has reached the test."""
        return [body for body in await asyncio.gather(*self.reads) if body is not None]


def received_by(page: Page) -> Received:
    """Every response body ``page`` receives from now on."""
    received = Received()

    async def read(response: Response) -> bytes | None:
        try:
            return await response.body()
        except Exception:  # a response the browser dropped has no body
            return None

    def keep(response: Response) -> None:
        if "/live" not in response.url:  # the stream never ends; it carries versions only
            received.reads.append(asyncio.ensure_future(read(response)))

    page.on("response", keep)
    return received


async def player_pages(browser: Browser, site: Site, table: str) -> list[Page]:
    """One page per seat of ``table``, each opened by its player's own link: the first
    at phone size, the others at desktop size."""
    record = await site.h.get(table)
    pages = []
    for seat, user_id in enumerate(record.seats):
        context = await browser.new_context(viewport=PHONE if seat == 0 else DESKTOP)
        page = await context.new_page()
        await page.goto(site.url(table, user_id))
        pages.append(page)
    return pages
