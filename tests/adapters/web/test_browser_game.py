"""Whole two-player games played by tapping in two browser pages, one per player, in
Debian's Chromium: every move goes through the page, the chat's table message follows
each one, and the other player's page shows it live."""

from __future__ import annotations

import random
import time

import pytest
from redis.asyncio import Redis

from bot.storage import TableStatus
from bot.table.log import record_any, story
from bot.ui.message import ToChat
from tests.adapters.web.browser import chromium, drawn, page_site, player_pages, shot
from tests.bot.helpers import ANNA, BORIS, GROUP

GAMES = ["stone_age", "hunters_gatherers", "caverna"]
LIVE_S = 1.0  # the other page must show a move within this


@pytest.mark.parametrize("game", GAMES)
async def test_a_whole_game_is_played_by_tapping_in_two_pages(
        redis_client: Redis, prefix: str, game: str) -> None:
    rnd = random.Random(f"browser-{game}")
    async with page_site(redis_client, prefix, pictures=False) as site, chromium() as browser:
        h = site.h
        table = await h.started(ANNA, BORIS, game=game)
        record = await h.get(table)
        pages = await player_pages(browser, site, table)
        moves = 0
        live_waits: list[float] = []
        while record.status == TableStatus.RUNNING:
            seat = (await h.prompts(table))[0].seat
            page, other = pages[seat], pages[1 - seat]
            await drawn(page, record.version)
            options = page.locator("#choices button[data-mark]:not(.back)")
            count = await options.count()
            assert count > 0, await page.content()
            queued_before = len(site.queued)
            await options.nth(rnd.randrange(count)).click()
            started = time.monotonic()
            # The move is saved (by the page's press, the only way in here) …
            deadline = started + 30
            while (after := (await record_any(h.store, table))[0]).version == record.version:
                assert time.monotonic() < deadline, "the tap made no move"
                await page.wait_for_timeout(5)
            assert after.version == record.version + 1
            # … the chat's table message follows it (queued before the page is
            # answered) …
            await drawn(page, after.version)
            assert any(isinstance(i.to, ToChat) and i.to.chat_id == GROUP.id
                       and i.message.slot == f"table:{table}"
                       for i in site.queued[queued_before:])
            # … and the other player's page shows it live.
            await drawn(other, after.version, timeout_ms=LIVE_S * 1000 + 4000)
            live_waits.append(time.monotonic() - started)
            record = after
            moves += 1
        assert record.status == TableStatus.FINISHED
        result = await pages[0].locator("#table").inner_text()
        assert "1." in result or "1 " in result  # the final standings are shown
        # The game's whole log, opened on the page: a line for every event told.
        await pages[0].click("#log-title")
        await pages[0].wait_for_function("v => document.body.dataset.log === String(v)",
                                         arg=record.version)
        told, whole = story(h.sv.presenter, record, await h.store.action_log(
            table, archived=True), "en")
        shown = (await pages[0].locator("#log-text").inner_text()).strip().split("\n")
        assert whole and len(shown) == len(told) > moves // 4
        await shot(pages[0], f"{game}-finished-phone")
        await shot(pages[1], f"{game}-finished-desktop")
        live_waits.sort()
        assert live_waits[len(live_waits) // 2] < LIVE_S, live_waits[-5:]
        assert moves > 10
