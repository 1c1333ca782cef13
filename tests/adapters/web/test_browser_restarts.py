"""Pages that stay live through what a deployment goes through, in Debian's Chromium:
their page worker restarts (a move made while it is down shows once it is back), Redis
goes away and comes back (with the worker restarting meanwhile, the live stream is
refused with 503 until Redis is back, and the page keeps trying), and a move pressed
through one worker shows within a second on a page served by another."""

from __future__ import annotations

import asyncio
import random
import time

import pytest
from playwright.async_api import Page, Response
from redis.asyncio import Redis

from adapters.store.embedded import EmbeddedRedis
from tests.adapters.web.browser import (
    another_worker,
    chromium,
    drawn,
    page_site,
    player_pages,
    worker_down,
)
from tests.bot.helpers import ANNA, BORIS

BACK_MS = 10_000  # a page follows again within this once its server is back
STOP_S = 5.0  # a worker with pages open stops within this (not its 60 s grace period)
MOVES = 8
LIVE_S = 1.0


async def following(page: Page) -> None:
    """Wait until ``page``'s live stream is open and has told a version."""
    await page.wait_for_selector("#live.on", timeout=BACK_MS)


async def mark_unreloaded(page: Page) -> None:
    """Mark the page's window: a reload would lose the mark."""
    await page.evaluate("() => { window.campfireMark = true; }")


async def unreloaded(page: Page) -> bool:
    """The page's window is the one marked: it was not reloaded."""
    return bool(await page.evaluate("() => window.campfireMark === true"))


def live_statuses(page: Page) -> list[int]:
    """The status of every answer to ``page``'s live stream from now on."""
    statuses: list[int] = []

    def keep(response: Response) -> None:
        if response.url.split("?")[0].endswith("/live"):
            statuses.append(response.status)

    page.on("response", keep)
    return statuses


async def test_a_page_follows_its_table_again_after_its_worker_restarts(
        redis_client: Redis, prefix: str) -> None:
    rnd = random.Random(21)
    async with page_site(redis_client, prefix, pictures=False) as site, chromium() as browser:
        h = site.h
        table = await h.started(ANNA, BORIS)
        page = await (await browser.new_context()).new_page()
        await page.goto(site.url(table))
        await drawn(page, (await h.get(table)).version)
        await following(page)
        await mark_unreloaded(page)

        stopping = time.monotonic()
        async with worker_down(site):
            # The old worker ended its stream rather than keep it open to the end.
            assert time.monotonic() - stopping < STOP_S
            await h.play_one(table, rnd)  # a move made while no page worker is up
        await drawn(page, (await h.get(table)).version, timeout_ms=BACK_MS)
        await following(page)
        await h.play_one(table, rnd)  # and one made after, through the new worker's stream
        await drawn(page, (await h.get(table)).version, timeout_ms=BACK_MS)
        assert await unreloaded(page)


@pytest.mark.parametrize("restarted", [False, True], ids=["worker_up", "worker_restarted"])
async def test_a_page_follows_its_table_again_once_redis_is_back(
        lone_redis: EmbeddedRedis, lone_client: Redis, prefix: str, restarted: bool) -> None:
    rnd = random.Random(22)
    async with page_site(lone_client, prefix, pictures=False) as site, chromium() as browser:
        h = site.h
        table = await h.started(ANNA, BORIS)
        page = await (await browser.new_context()).new_page()
        statuses = live_statuses(page)
        await page.goto(site.url(table))
        await drawn(page, (await h.get(table)).version)
        await following(page)
        await mark_unreloaded(page)

        # The server's own blocking calls run in a thread: the pages are served meanwhile.
        await asyncio.to_thread(lone_redis.stop)
        if restarted:
            # The new worker starts without Redis; the page's stream is refused meanwhile.
            async with worker_down(site):
                pass
            deadline = time.monotonic() + BACK_MS / 1000
            while 503 not in statuses:
                assert time.monotonic() < deadline, statuses
                await asyncio.sleep(0.05)
        await asyncio.to_thread(lone_redis.start)

        await h.play_one(table, rnd)
        await drawn(page, (await h.get(table)).version, timeout_ms=BACK_MS)
        await following(page)
        assert await page.locator("#notice").is_hidden()
        assert await unreloaded(page)


async def test_a_move_pressed_through_one_worker_shows_on_anothers_page_within_a_second(
        redis_client: Redis, prefix: str) -> None:
    rnd = random.Random(23)
    async with page_site(redis_client, prefix, pictures=False) as site, \
            another_worker(site) as other, chromium() as browser:
        h = site.h
        table = await h.started(ANNA, BORIS)
        watcher = await (await browser.new_context()).new_page()
        await watcher.goto(site.url(table))  # worker A
        players = await player_pages(browser, other, table)  # worker B
        record = await h.get(table)
        await drawn(watcher, record.version)
        await following(watcher)
        waits = []
        for _ in range(MOVES):
            seat = (await h.prompts(table))[0].seat
            page = players[seat]
            await drawn(page, record.version)
            options = page.locator("#choices button[data-mark]:not(.back)")
            count = await options.count()
            assert count > 0, await page.content()
            await options.nth(rnd.randrange(count)).click()
            pressed = time.monotonic()
            await drawn(watcher, record.version + 1, timeout_ms=5_000)
            waits.append(time.monotonic() - pressed)
            record = await h.get(table)
        assert max(waits) < LIVE_S, sorted(waits)


async def test_a_page_whose_link_expired_meanwhile_says_so_and_stops_asking(
        redis_client: Redis, prefix: str) -> None:
    async with page_site(redis_client, prefix, pictures=False) as site, chromium() as browser:
        h = site.h
        table = await h.started(ANNA, BORIS)
        page = await (await browser.new_context()).new_page()
        await page.goto(site.url(table, ANNA.id))  # valid for a day
        await drawn(page, (await h.get(table)).version)
        await following(page)
        statuses = live_statuses(page)
        h.clock.advance(2 * 24 * 3600)
        async with worker_down(site):
            pass  # the stream ends; reopening it now needs a link that has expired
        notice = page.locator("#notice")
        await notice.wait_for(state="visible", timeout=BACK_MS)
        assert await notice.inner_text() == h.t("web.err.link")
        asked = len(statuses)
        await page.wait_for_timeout(3_000)  # longer than the next waits between tries
        assert len(statuses) == asked and await page.locator("#live.on").count() == 0
