"""Watching in the browser: a spectator's page follows moves made in the chat live,
steps through the replay version by version, and never receives a secret; a forged or
expired link shows only why; a Telegram Mini App opens its table from init data."""

from __future__ import annotations

import json
import random
import time
from urllib.parse import quote

from redis.asyncio import Redis

from adapters.telegram.mini_app import sign
from adapters.web.links import LinkSigner
from engine.registry import get_game
from tests.adapters.web.browser import PHONE, Site, chromium, drawn, page_site, received_by, shot
from tests.adapters.web.leaks import leaked, spectators_secrets, story_states
from tests.bot.helpers import ANNA, BORIS

MOVES = 8
LIVE_S = 1.0


async def test_a_spectator_follows_live_replays_and_never_receives_a_secret(
        redis_client: Redis, prefix: str) -> None:
    rnd = random.Random(11)
    async with page_site(redis_client, prefix, pictures=True) as site, chromium() as browser:
        h = site.h
        table = await h.started(ANNA, BORIS, game="stone_age")
        page = await (await browser.new_context(viewport=PHONE)).new_page()
        bodies = received_by(page)
        await page.goto(site.url(table))
        record = await h.get(table)
        await drawn(page, record.version)
        waits = []
        for _ in range(MOVES):
            await h.play_one(table, rnd)  # a press in the chat
            started = time.monotonic()
            record = await h.get(table)
            await drawn(page, record.version, timeout_ms=5_000)
            waits.append(time.monotonic() - started)
        assert sorted(waits)[len(waits) // 2] < LIVE_S, waits
        assert await page.locator("#decision").is_hidden()  # a spectator decides nothing

        # The replay, step by step, each step the version the log says.
        log = await h.store.action_log(table)
        versions = [e.version for e in log if e.kind == "move"]
        await page.click("#replay-open")
        await page.wait_for_function(
            "v => document.body.dataset.step === String(v)", arg=len(versions))
        await page.click("#step-first")
        await page.wait_for_function("() => document.body.dataset.step === '0'")
        for n, version in enumerate(versions, 1):
            await page.click("#step-next")
            await page.wait_for_function("n => document.body.dataset.step === String(n)",
                                         arg=n)
            shown = await page.evaluate("() => document.body.dataset.stepVersion")
            assert shown == str(version)
        await shot(page, "stone_age-replay-phone")

        # Every byte the page received against every secret of every step.
        assert bodies and any(b.startswith(b"\x89PNG") for b in bodies)
        assert leaked(bodies, spectators_secrets(record, log)) == []
        # The check can fail: the state itself gives its secrets away.
        game = get_game("stone_age")
        last = story_states(record, log)[-1]
        assert leaked([game.dump(last).encode()], game.secrets(last, None))


async def test_a_forged_or_expired_link_shows_only_why(redis_client: Redis,
                                                       prefix: str) -> None:
    async with page_site(redis_client, prefix, pictures=False) as site, chromium() as browser:
        table = await site.h.started(ANNA, BORIS)
        now = site.h.clock()
        page = await (await browser.new_context()).new_page()
        forged = LinkSigner(b"not-this-deployment-secret-00000").make(ANNA.id, table, now + 99)
        expired = site.links.make(ANNA.id, table, now - 1)
        for token in (forged, expired):
            await page.goto(f"{site.url(table)}?k={token}")
            notice = page.locator("#notice")
            await notice.wait_for(state="visible")
            assert await notice.inner_text() == site.h.t("web.err.link")
            assert await page.locator("#table").inner_text() == ""


def init_data(site: Site, user_id: int, start: str, token: str) -> str:
    fields = {"auth_date": str(int(site.h.clock())), "start_param": start,
              "user": json.dumps({"id": user_id, "first_name": "Tess"})}
    fields["hash"] = sign(fields, token)
    return "&".join(f"{k}={quote(v)}" for k, v in fields.items())


async def test_the_mini_app_opens_its_table_from_init_data(redis_client: Redis,
                                                           prefix: str) -> None:
    async with page_site(redis_client, prefix, pictures=False) as site, chromium() as browser:
        table = await site.h.started(ANNA, BORIS)
        record = await site.h.get(table)
        page = await (await browser.new_context(viewport=PHONE)).new_page()
        base = f"http://127.0.0.1:{site.server.port}/app"
        # As Telegram opens a Mini App: the init data in the address's fragment.
        good = init_data(site, 42, table, site.token)
        await page.goto(f"{base}#tgWebAppData={quote(good)}&tgWebAppVersion=8.0")
        await drawn(page, record.version)
        assert table in await page.locator("#title").inner_text()
        assert await page.locator("#status").inner_text() == site.h.t("web.spectator")
        forged = init_data(site, 42, table, "123:another-bot")
        page = await (await browser.new_context(viewport=PHONE)).new_page()
        await page.goto(f"{base}#tgWebAppData={quote(forged)}")
        notice = page.locator("#notice")
        await notice.wait_for(state="visible")
        assert await notice.inner_text() == site.h.t("web.err.init_data")
