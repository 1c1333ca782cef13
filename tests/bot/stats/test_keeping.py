"""Results kept by the archive step and ratings brought up to them (bot/stats/keeping.py),
on Redis: each result once, and a rebuild equal to the figures made one by one."""

from __future__ import annotations

import asyncio
import random

import pytest

from bot.stats.keeping import catch_up, keep_and_archive, rebuild_all
from bot.stats.ratings import EVERYWHERE
from bot.storage import TableNotFound
from bot.storage.results import RatingKey
from tests.bot.helpers import Harness
from tests.bot.stats.finished import CHATS, PEOPLE, over_table

GAMES = 200


class Skipped(Exception):
    """The worker stopped before rating what it kept."""


async def incremental_figures(h: Harness) -> dict[RatingKey, object]:
    """Every rating the store holds, read game by game and scope by scope."""
    out: dict[RatingKey, object] = {}
    for game in ("stone_age", "hunters_gatherers", "caverna"):
        for scope in (EVERYWHERE, *(f"chat:{c}" for c in CHATS)):
            for player, rating in (await h.sv.stats.leaderboard(game, scope)).items():
                out[(game, scope, player)] = rating
    return out


async def test_archiving_keeps_each_result_once(h: Harness) -> None:
    rnd = random.Random(1)
    record = await h.store.create(over_table("a1", rnd, game="hunters_gatherers"))
    await keep_and_archive(h.sv, record)
    await keep_and_archive(h.sv, record)  # a repair's second try: archived already
    kept = await h.sv.stats.results_after(0)
    assert [(n, r.table_id) for n, r in kept] == [(1, "a1")]
    humans = [s for s in record.seats if not s.startswith("ai:")]
    for user in humans:
        assert [r.table_id for r in await h.sv.stats.results_of_user(user)] == ["a1"]
    with pytest.raises(TableNotFound):
        await h.store.get("a1")
    assert await h.sv.stats.rating_cursor() == 1


async def test_a_rebuild_equals_the_ratings_made_one_by_one(h: Harness) -> None:
    """200 random games (some aborted, some with AI seats) are archived one by one;
    now and then a worker dies before rating, or two workers rate at once. The
    figures then equal a rebuild from the kept results, history included."""
    rnd = random.Random(2026)

    def fault(point: str) -> None:
        if point == "before_rating" and rnd.random() < 0.2:
            raise Skipped(point)

    h.sv.fault = fault
    for n in range(GAMES):
        record = await h.store.create(over_table(f"r{n}", rnd, aborted=rnd.random() < 0.1))
        try:
            await keep_and_archive(h.sv, record)
        except Skipped:
            if rnd.random() < 0.5:
                await asyncio.gather(catch_up(h.sv.stats), catch_up(h.sv.stats))
    await catch_up(h.sv.stats)
    assert await h.sv.stats.rating_cursor() == GAMES
    one_by_one = await incremental_figures(h)
    histories = {(g, p): await h.sv.stats.history(g, p)
                 for g, _, p in one_by_one for p in (p,)}
    before, fresh = await rebuild_all(h.sv.stats)
    assert fresh.ratings == one_by_one == before.ratings
    assert {k: v for k, v in fresh.history.items()} == {k: v for k, v in histories.items() if v}
    # What was written in place of the old figures is the rebuild itself.
    assert await incremental_figures(h) == fresh.ratings
    assert len(one_by_one) > 50 and any(p.startswith("ai:") for _, _, p in one_by_one)
    assert {p for _, _, p in one_by_one} >= set(PEOPLE)
