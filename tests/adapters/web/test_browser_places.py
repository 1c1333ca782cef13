"""Places on the board are buttons: in each game, with pictures on, a player taps the
place an option means (a site, a square, an action space, a spot, a tile) instead of
its button; screenshots at phone and desktop size are saved."""

from __future__ import annotations

import random

import pytest
from redis.asyncio import Redis

from tests.adapters.web.browser import chromium, drawn, page_site, player_pages, shot
from tests.bot.helpers import ANNA, BORIS

GAMES = ["stone_age", "hunters_gatherers", "caverna"]
TAPS = 6  # moves made by tapping a place, per game


async def picture_ready(page: object, version: int) -> None:
    """Wait until the page's picture (and its targets) shows ``version``."""
    await page.wait_for_function(  # type: ignore[attr-defined]
        "v => document.body.dataset.picture === String(v)", arg=version, timeout=30_000)


@pytest.mark.parametrize("game", GAMES)
async def test_tapping_a_place_on_the_board_makes_its_move(
        redis_client: Redis, prefix: str, game: str) -> None:
    rnd = random.Random(f"places-{game}")
    async with page_site(redis_client, prefix, pictures=True) as site, chromium() as browser:
        h = site.h
        table = await h.started(ANNA, BORIS, game=game)
        record = await h.get(table)
        pages = await player_pages(browser, site, table)
        tapped = moves = 0
        shots: set[str] = set()
        # Both players tap: one page at a phone's size, the other at a desktop's.
        while tapped < TAPS or len(shots) < 2:
            moves += 1
            assert moves < 400, f"only {tapped} decisions with places in {moves} moves"
            seat = (await h.prompts(table))[0].seat
            page = pages[seat]
            await drawn(page, record.version)
            await picture_ready(page, record.version)
            targets = page.locator("#targets button")
            if await targets.count():
                size = "phone" if seat == 0 else "desktop"
                if size not in shots:
                    shots.add(size)
                    await shot(page, f"{game}-places-{size}")
                target = targets.nth(rnd.randrange(await targets.count()))
                await target.scroll_into_view_if_needed()
                box = await target.bounding_box()
                assert box is not None and box["width"] >= 8 and box["height"] >= 8
                x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
                # Every place under that point, as the page knows them (places may
                # overlap: a twin tile's squares).
                under = await page.evaluate(
                    """([x, y]) => [...document.querySelectorAll('#targets button')]
                        .filter(b => { const r = b.getBoundingClientRect();
                          return x >= r.left && x < r.right && y >= r.top && y < r.bottom; })
                        .flatMap(b => b.dataset.numbers.split(','))""", [x, y])
                await page.mouse.click(x, y)
                if len(set(under)) > 1:
                    # Several options at one place: they are picked out among the
                    # buttons, and one of them is chosen there.
                    picked = page.locator("#choices button.picked")
                    assert await picked.count() == len(set(under))
                    await picked.nth(rnd.randrange(len(set(under)))).click()
                tapped += 1
            else:
                options = page.locator("#choices button[data-mark]:not(.back)")
                await options.nth(rnd.randrange(await options.count())).click()
            await drawn(page, record.version + 1, timeout_ms=30_000)
            after = await h.get(table)
            assert after.version == record.version + 1
            record = after
        assert shots == {"phone", "desktop"}
