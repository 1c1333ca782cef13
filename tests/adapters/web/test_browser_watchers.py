"""Watching in the browser: a spectator's page follows moves made in the chat live,
steps through the replay version by version, and never receives a secret; a forged or
expired link shows only why; a Telegram Mini App opens its table from init data."""

from __future__ import annotations

import html
import json
import random
import time
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote

import pytest
from redis.asyncio import Redis

from adapters.telegram.mini_app import MAX_AGE_S, sign
from adapters.web import server
from adapters.web.links import LinkSigner
from adapters.web.page import page_json
from adapters.web.server import PAGE_FRESH_S
from bot.services import Services
from bot.storage import TableRecord
from engine.core.conformance import give_aways
from tests.adapters.web.browser import PHONE, Site, chromium, drawn, page_site, received_by, shot
from tests.adapters.web.giveaways import Story, story_of
from tests.bot.helpers import ANNA, BORIS

GAMES = ("stone_age", "hunters_gatherers", "caverna")
MOVES = 8
LIVE_S = 1.0


@dataclass(frozen=True)
class Leak:
    """A ``page_json`` made to let slip what lies hidden at a table's last step: two
    neighbours of its first hidden order in the page's JSON, and in the page's text the
    order's last item (the top of a deck) and a hidden item's words, if any has some."""

    order: list[Any]
    told: list[str]

    @classmethod
    def at_end(cls, story: Story) -> Leak:
        """What to let slip of ``story``'s last step."""
        order = next(part for secret in story.secrets[-1] for part in give_aways(secret)
                     if isinstance(part, list))
        return cls(order, [m.shown for m in story.at_step[-1] if m.kind == "words"][:1])

    def page(self, sv: Services, record: TableRecord, user_id: str | None,
             now: float) -> dict[str, Any]:
        """The page data as ``page_json`` makes it, and the leak."""
        data = page_json(sv, record, user_id, now)
        data["hint"] = self.order[:2]
        data["text"] += "\n" + html.escape(" ".join([str(self.order[-1]), *self.told]),
                                            quote=False)
        return data

    def expected(self) -> set[str]:
        """The give-aways a check of the leaking page must find."""
        return {f"order:{self.order[0]} {self.order[1]}", f"id:{self.order[-1]}",
                *(f"words:{w}" for w in self.told)}

    def compact(self) -> bytes:
        """The order let slip as the page's compact JSON has it."""
        return b'"hint":' + json.dumps(self.order[:2], ensure_ascii=False,
                                       separators=(",", ":")).encode()


@pytest.mark.parametrize("game_name", GAMES)
async def test_a_spectator_follows_live_replays_and_never_receives_a_secret(
        redis_client: Redis, prefix: str, game_name: str,
        monkeypatch: pytest.MonkeyPatch) -> None:
    rnd = random.Random(11)
    async with page_site(redis_client, prefix, pictures=True) as site, chromium() as browser:
        h = site.h
        table = await h.started(ANNA, BORIS, game=game_name)
        page = await (await browser.new_context(viewport=PHONE)).new_page()
        received = received_by(page)
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
        await shot(page, f"{game_name}-replay-phone")

        # Every byte the page received against every secret of every step.
        record = await h.get(table)
        story = story_of(record, await h.store.action_log(table), h.app.sv.table_lang(record))
        assert story.versions[1:] == versions
        bodies = await received.bodies()
        assert any(b.startswith(b"\x89PNG") for b in bodies)
        assert story.leaked(bodies) == []

        # The check can fail: the same server, its pages made to let slip a hidden
        # order, the top of a deck and a hidden card's words, is caught on each.
        leak = Leak.at_end(story)
        monkeypatch.setattr(server, "page_json", leak.page)
        h.clock.advance(PAGE_FRESH_S)  # the worker's page of this version is made afresh
        control = await (await browser.new_context(viewport=PHONE)).new_page()
        received = received_by(control)
        await control.goto(site.url(table))
        await drawn(control, record.version)
        caught = await received.bodies()
        assert any(leak.compact() in body for body in caught)
        assert leak.expected() <= {repr(m) for m in story.leaked(caught)}, leak


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


def init_data(site: Site, user_id: int, start: str, token: str, age_s: float = 0.0) -> str:
    """Init data as Telegram signs it (with ``token``), made ``age_s`` seconds ago."""
    fields = {"auth_date": str(int(site.h.clock() - age_s)), "start_param": start,
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
        expired = init_data(site, 42, table, site.token, age_s=MAX_AGE_S + 60)
        for refused in (forged, expired):
            page = await (await browser.new_context(viewport=PHONE)).new_page()
            await page.goto(f"{base}#tgWebAppData={quote(refused)}")
            notice = page.locator("#notice")
            await notice.wait_for(state="visible")
            assert await notice.inner_text() == site.h.t("web.err.init_data")
            assert await page.locator("#table").inner_text() == ""
