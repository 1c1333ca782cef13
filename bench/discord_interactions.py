"""Discord interactions per second: our bot vs a bare discord.py bot, through simcord.

Both run in one process, one after the other, against simcord's offline Discord (the
real discord.py machinery; REST and gateway simulated in memory), with the same load:
one member's interactions sent one after another (simcord settles the bot after each,
so an interaction counts once everything it caused is done).

- ours: ``CampfireClient`` on an embedded Redis (``--fsync``), pictures off; a 3-player
  Stone Age table; an interaction is the current player's press of a choice that moves
  the game on (from the table's message or their DM), which edits the table's message
  and sends or edits the private prompts. New tables are opened when a game ends.
- bare: an ``AutoShardedClient`` whose one button answers every press at once by
  editing the pressed message (``response.edit_message``), the least any bot can do.

Prints one JSON line (no assertions): the rates, the ratio ours/bare, latency
percentiles (whole round trips, and ours inside the handler) and REST calls per
interaction. simcord settles the loop after each action, polling every 50 ms, which
bounds both rates alike: the ratio says the bot keeps up with Discord's pace, and the
handler's percentiles say what the bot itself costs. Usage::

    python -m bench.discord_interactions [--seconds S] [--fsync always|everysec]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import platform
import random
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

import discord
import simcord

from adapters.store import StoreSettings
from adapters.store.embedded import EmbeddedRedis
from tests.adapters.discord.harness import Table, running_bot


class Bare(discord.AutoShardedClient):
    """A bot that answers every press at once."""

    def __init__(self) -> None:
        wanted = discord.Intents.none()
        wanted.guilds = True
        super().__init__(intents=wanted, shard_count=1)
        self.count = 0

    async def on_interaction(self, interaction: discord.Interaction[Any]) -> None:
        """Every press: the pressed message edited with a counter."""
        self.count += 1
        await interaction.response.edit_message(content=f"pressed {self.count}")


def _percentiles(samples: list[float]) -> dict[str, float]:
    ordered = sorted(samples)

    def pick(q: float) -> float:
        return round(ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000, 2)

    return {"p50_ms": pick(0.5), "p90_ms": pick(0.9), "p99_ms": pick(0.99),
            "mean_ms": round(statistics.fmean(ordered) * 1000, 2)}


async def ours(redis_url: str, seconds: float) -> dict[str, Any]:
    """Presses in whole games for ``seconds``."""
    settings = StoreSettings(redis_url=redis_url, key_prefix=f"bench-dc-{time.time_ns()}:")
    latencies: list[float] = []
    handling: list[float] = []
    async with running_bot(settings, seed=238) as bot:
        inner = bot.client.on_token

        async def timed(interaction: discord.Interaction[Any], token: str) -> None:
            start = time.perf_counter()
            await inner(interaction, token)
            handling.append(time.perf_counter() - start)

        bot.client.on_token = timed  # type: ignore[method-assign]
        guild = bot.env.create_guild(name="Bench")
        rng = random.Random(1)
        deadline = time.perf_counter() + seconds
        games = 0
        calls_before = len(bot.env.http_requests)
        while time.perf_counter() < deadline:
            channel = guild.create_text_channel(f"t{games}")
            members = [guild.add_member(bot.env.create_user(f"p{games}x{i}")) for i in range(3)]
            table = Table(bot, channel, members)
            await table.open("stone_age", options="3")
            games += 1
            while time.perf_counter() < deadline and (found := table.next_choice(rng=rng)):
                start = time.perf_counter()
                await table.choose(*found)
                latencies.append(time.perf_counter() - start)
        calls = len(bot.env.http_requests) - calls_before
        answered = all(r.acknowledged for r in table.results)
    elapsed = sum(latencies)
    return {"interactions": len(latencies), "per_sec": round(len(latencies) / elapsed, 1),
            "tables": games, "rest_calls_per_interaction": round(calls / len(latencies), 2),
            "all_answered": answered, **_percentiles(latencies),
            # Inside the bot: from the press reaching our handler to everything sent.
            "handler": _percentiles(handling)}


async def bare(seconds: float) -> dict[str, Any]:
    """Presses of one button of the bare bot for ``seconds``."""
    client = Bare()
    latencies: list[float] = []
    async with simcord.run(client) as env:
        channel = env.create_guild().create_text_channel("bare")
        member = env.guild.add_member(env.create_user("m"))
        view = discord.ui.View(timeout=None)
        view.add_item(discord.ui.Button(label="press", custom_id="press"))
        message = await client.get_partial_messageable(channel.id).send("start", view=view)
        deadline = time.perf_counter() + seconds
        while time.perf_counter() < deadline:
            start = time.perf_counter()
            result = await member.click(message, custom_id="press")
            latencies.append(time.perf_counter() - start)
            assert result.acknowledged
    elapsed = sum(latencies)
    return {"interactions": len(latencies), "per_sec": round(len(latencies) / elapsed, 1),
            **_percentiles(latencies)}


async def bench(args: argparse.Namespace) -> dict[str, Any]:
    """Both runs, one after the other; the report."""
    with tempfile.TemporaryDirectory() as tmp, \
            EmbeddedRedis(Path(tmp), fsync=args.fsync) as server:
        our = await ours(server.url, args.seconds)
    base = await bare(args.seconds)
    return {
        "bench": "discord_interactions", "python": platform.python_version(),
        "discord_py": discord.__version__, "simcord": simcord.__version__,
        "seconds": args.seconds, "fsync": args.fsync,
        "ours": our, "bare": base,
        "ratio": round(our["per_sec"] / base["per_sec"], 3) if base["per_sec"] else None,
    }


def main() -> None:
    """Parse arguments, run, print one JSON line."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--fsync", choices=("always", "everysec"), default="everysec")
    args = parser.parse_args()
    logging.basicConfig(level=logging.WARNING)
    print(json.dumps(asyncio.run(bench(args)), ensure_ascii=False))


if __name__ == "__main__":
    main()
