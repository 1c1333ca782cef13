"""``campfire ratings rebuild`` (adapters/ratings_cli.py) on the tests' Redis."""

from __future__ import annotations

import asyncio
import json
import random

import pytest

from adapters.cli import main
from bot.stats.keeping import keep_and_archive
from bot.storage.results import KeptRating, Ratings
from tests.bot.helpers import Harness
from tests.bot.stats.finished import over_table


async def test_the_rebuild_command_restores_a_tampered_rating(
        h: Harness, core_redis_url: str, key_prefix: str,
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    rnd = random.Random(8)
    for n in range(6):
        record = await h.store.create(over_table(f"c{n}", rnd, game="stone_age"))
        await keep_and_archive(h.sv, record)
    board = await h.sv.stats.leaderboard("stone_age", "all")
    player, good = sorted(board.items())[0]
    monkeypatch.setenv("REDIS_URL", core_redis_url)
    monkeypatch.setenv("CAMPFIRE_KEY_PREFIX", key_prefix)
    monkeypatch.setenv("CAMPFIRE_ALLOW_VOLATILE_REDIS", "1")
    # Agreeing figures: the rebuild says so and changes nothing.
    assert await asyncio.to_thread(main, ["ratings", "rebuild"]) == 0
    report = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert report["results"] == 6 and report["differed"] == []
    assert await h.sv.stats.leaderboard("stone_age", "all") == board
    # A rating written by hand is found, reported and replaced by the rebuilt one.
    bad = KeptRating(mu=99.0, sigma=1.0, games=1, wins=1, name="x")
    await h.sv.stats.add_ratings(
        6, Ratings(ratings={("stone_age", "all", player): bad}, cursor=6),
        [("stone_age", "all", player)])
    assert (await h.sv.stats.leaderboard("stone_age", "all"))[player] == bad
    assert await asyncio.to_thread(main, ["ratings", "rebuild"]) == 1
    report = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert report["differed"] == [f"stone_age:all:{player}"]
    assert (await h.sv.stats.leaderboard("stone_age", "all"))[player] == good
