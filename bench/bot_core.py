"""Bot core throughput and latency: many started tables, button presses arriving.

The bot (``Campfire``) runs on an embedded Redis in a temporary data dir, pictures off.
Setup opens ``--tables`` Stone Age tables of three players each and starts them (through
``on_text``, as a chat would). Then two measurements:

- open loop (the headline): presses arrive at ``--rate`` per second, each on a table
  with no press in flight, as independent players' taps do. Latency runs from the
  moment a press was due to the returned ``Reply`` (the outgoing message model), so a
  bot that falls behind is charged for the wait (no coordinated omission);
- closed loop: ``--concurrency`` tasks press as fast as replies come back, for the
  peak rate. At a fixed concurrency latency is concurrency / throughput by
  construction, so its latency says little; its rate is the capacity.

For reference the same run measures the raw store round-trip (``get`` + ``commit`` of a
record the size of the bench's tables) at the same concurrency, and both figures again
one at a time, since at a fixed concurrency latency is concurrency / throughput.

Prints one JSON line; ``--profile`` also prints the top functions (cProfile) to stderr.
Usage::

    python -m bench.bot_core [--tables N] [--concurrency C] [--actions A] [--profile]
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import io
import json
import logging
import platform
import pstats
import random
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from adapters.runtime import running_core
from adapters.store import Action, StoreSettings, TableRecord
from bot.app import Campfire
from bot.identity import Chat, User
from bot.ui.message import Button, Reply, ToUser

BAR = {"p99_ms_max": 20.0, "actions_per_sec_min": 500.0}
NAV_PREFIXES = ("‹", "›", "«", "↩")  # paging and back/undo buttons: never pressed


@dataclass
class Table:
    """One bench table and the prompts its players were last sent."""

    table_id: str
    chat: Chat
    users: dict[str, User]
    prompts: dict[str, list[Button]] = field(default_factory=dict)  # user id -> buttons
    skip: int = 0  # after a refusal, press the next button instead

    def take(self, reply: Reply) -> None:
        """Note the private prompts (and finished turns) a reply sends."""
        for item in reply.out:
            slot = item.message.slot or ""
            if isinstance(item.to, ToUser) and slot.startswith("dm:"):
                self.prompts[item.to.user_id] = [
                    b for b in item.message.all_buttons() if not b.label.startswith(NAV_PREFIXES)
                ]

    def next_press(self) -> tuple[User, str] | None:
        """The user to press and the token of the first button of their prompt."""
        for user_id in sorted(self.prompts):
            buttons = self.prompts[user_id]
            if buttons:
                return self.users[user_id], buttons[self.skip % len(buttons)].token
        return None


@dataclass
class Tally:
    """Latencies and outcomes of a run of presses."""

    latencies: list[float] = field(default_factory=list)
    moves: int = 0
    non_moves: int = 0  # answered without acting: refusals, a finished game, nobody asked
    errors: int = 0  # exceptions
    samples: list[str] = field(default_factory=list)
    seconds: float = 0.0

    def summary(self) -> dict[str, Any]:
        """Counts, throughput and latency percentiles in milliseconds."""
        done = len(self.latencies)
        return {
            "actions": done,
            "moves": self.moves,
            "non_move_answers": self.non_moves,
            "errors": self.errors,
            "seconds": round(self.seconds, 3),
            "actions_per_sec": round(done / self.seconds, 1) if self.seconds else None,
            **percentiles(self.latencies),
        }


def percentiles(values: list[float]) -> dict[str, float | None]:
    """p50, p99 and max of latencies given in seconds, as milliseconds."""
    if not values:
        return {"p50_ms": None, "p99_ms": None, "max_ms": None}
    ordered = sorted(values)

    def at(q: float) -> float:
        return round(ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))] * 1000, 2)

    return {"p50_ms": at(0.50), "p99_ms": at(0.99), "max_ms": round(ordered[-1] * 1000, 2)}


async def open_tables(app: Campfire, count: int, concurrency: int) -> list[Table]:
    """Open and start ``count`` 3-player tables, each in its own group chat."""
    gate = asyncio.Semaphore(concurrency)

    async def one(i: int) -> Table:
        chat = Chat(id=f"bench:g{i}", title=f"bench {i}")
        users = {f"bench:t{i}p{j}": User(id=f"bench:t{i}p{j}", name=f"p{j}") for j in range(3)}
        anna, boris, vera = users.values()
        async with gate:
            await app.on_text(chat, anna, "/new stone_age 3-3")
            tables = await app.sv.store.tables_in_chat(chat.id)
            table = Table(tables[0].table_id, chat, users)
            await app.on_text(chat, boris, "/join")
            await app.on_text(chat, vera, "/join")
            table.take(await app.on_text(chat, anna, "/start"))
        if table.next_press() is None:
            raise RuntimeError(f"table {table.table_id} started without a prompt")
        return table

    return list(await asyncio.gather(*(one(i) for i in range(count))))


async def press_many(app: Campfire, tables: list[Table], actions: int, concurrency: int) -> Tally:
    """Press ``actions`` buttons with ``concurrency`` tasks, one press per table at a time."""
    tally = Tally()
    free: asyncio.Queue[Table] = asyncio.Queue()
    for table in tables:
        free.put_nowait(table)
    left = actions

    async def worker() -> None:
        nonlocal left
        while left > 0:
            left -= 1
            table = await free.get()
            chosen = table.next_press()
            if chosen is None:  # nobody is asked (the game is over): no press
                tally.non_moves += 1
                free.put_nowait(table)
                continue
            user, token = chosen
            chat = Chat(id=f"dm:{user.id}", private=True)
            started = time.perf_counter()
            try:
                reply = await app.on_press(chat, user, token)
            except Exception as exc:  # a bench counts failures instead of stopping
                tally.latencies.append(time.perf_counter() - started)
                tally.errors += 1
                if len(tally.samples) < 5:
                    tally.samples.append(f"{type(exc).__name__}: {exc}")
                table.skip += 1
            else:
                tally.latencies.append(time.perf_counter() - started)
                if reply.alert or not reply.out:
                    tally.non_moves += 1
                    table.skip += 1
                    if len(tally.samples) < 5:
                        tally.samples.append(f"answer: {reply.answer}")
                else:
                    tally.moves += 1
                    table.skip = 0
                    table.take(reply)
            free.put_nowait(table)

    started = time.perf_counter()
    await asyncio.gather(*(worker() for _ in range(concurrency)))
    tally.seconds = time.perf_counter() - started
    return tally


async def press_at_rate(app: Campfire, tables: list[Table], actions: int, rate: float) -> Tally:
    """Open loop: one press due every ``1/rate`` s on a table that is not busy."""
    tally = Tally()
    free: asyncio.Queue[Table] = asyncio.Queue()
    for table in tables:
        free.put_nowait(table)
    running: set[asyncio.Task[None]] = set()

    async def one(table: Table, due: float) -> None:
        chosen = table.next_press()
        if chosen is None:
            tally.non_moves += 1
            free.put_nowait(table)
            return
        user, token = chosen
        chat = Chat(id=f"dm:{user.id}", private=True)
        try:
            reply = await app.on_press(chat, user, token)
        except Exception as exc:  # counted, never hidden
            tally.errors += 1
            if len(tally.samples) < 5:
                tally.samples.append(f"{type(exc).__name__}: {exc}")
            table.skip += 1
        else:
            if reply.alert or not reply.out:
                tally.non_moves += 1
                table.skip += 1
            else:
                tally.moves += 1
                table.skip = 0
                table.take(reply)
        tally.latencies.append(time.perf_counter() - due)
        free.put_nowait(table)

    started = time.perf_counter()
    for i in range(actions):
        due = started + i / rate
        delay = due - time.perf_counter()
        if delay > 0:
            await asyncio.sleep(delay)
        table = await free.get()
        task = asyncio.create_task(one(table, due))
        running.add(task)
        task.add_done_callback(running.discard)
    await asyncio.gather(*running)
    tally.seconds = time.perf_counter() - started
    return tally


async def store_roundtrips(
    app: Campfire, sample: TableRecord, count: int, concurrency: int, tables: int
) -> Tally:
    """``get`` + ``commit`` of a record like ``sample`` on ``tables`` tables of its own."""
    store = app.sv.store
    ids = [f"zb{concurrency}x{i}" for i in range(tables)]
    for table_id in ids:
        await store.create(sample.model_copy(update={"table_id": table_id,
                                                     "chat_id": f"bench:base{table_id}"}))
    free: asyncio.Queue[str] = asyncio.Queue()
    for table_id in ids:
        free.put_nowait(table_id)
    tally = Tally()
    left = count

    async def worker() -> None:
        nonlocal left
        while left > 0:
            left -= 1
            table_id = await free.get()
            started = time.perf_counter()
            record = await store.get(table_id)
            await store.commit(table_id, record.version, record, Action(key="bench", seat=0))
            tally.latencies.append(time.perf_counter() - started)
            tally.moves += 1
            free.put_nowait(table_id)

    started = time.perf_counter()
    await asyncio.gather(*(worker() for _ in range(concurrency)))
    tally.seconds = time.perf_counter() - started
    return tally


def timed(
    profile: cProfile.Profile | None, run: Callable[[], Awaitable[Tally]]
) -> Awaitable[Tally]:
    """``run()`` under the profiler, if one is given."""
    if profile is None:
        return run()

    async def wrapped() -> Tally:
        profile.enable()
        try:
            return await run()
        finally:
            profile.disable()

    return wrapped()


async def bench(args: argparse.Namespace) -> dict[str, Any]:
    """Run the bench; returns the report."""
    profile = cProfile.Profile() if args.profile else None
    with tempfile.TemporaryDirectory(prefix="campfire-bench-") as tmp:
        settings = StoreSettings(data_dir=Path(tmp) / "data", fsync=args.fsync)
        async with running_core(settings, pictures=False) as core:
            app = core.app
            app.sv.rng = random.Random(args.seed)
            started = time.perf_counter()
            tables = await open_tables(app, args.tables, args.concurrency)
            setup = time.perf_counter() - started
            main = await timed(profile, lambda: press_at_rate(
                app, tables, args.actions, args.rate))
            closed = await press_many(app, tables, args.actions, args.concurrency)
            one_at_a_time = await press_many(app, tables, args.sequential, 1)
            sample = await app.sv.store.get(tables[0].table_id)
            record_bytes = len(sample.model_dump_json())
            base = await store_roundtrips(app, sample, args.actions, args.concurrency,
                                          min(args.tables, args.actions))
            base_one = await store_roundtrips(app, sample, args.sequential, 1, 1)
    if profile is not None:
        text = io.StringIO()
        pstats.Stats(profile, stream=text).sort_stats("cumulative").print_stats(30)
        pstats.Stats(profile, stream=text).sort_stats("tottime").print_stats(25)
        print(text.getvalue(), file=sys.stderr)
    report = main.summary()
    peak = closed.summary()
    bar_met = (report["p99_ms"] is not None and report["p99_ms"] <= BAR["p99_ms_max"]
               and report["actions_per_sec"] is not None
               and report["actions_per_sec"] >= BAR["actions_per_sec_min"] * 0.98
               and main.errors == 0 and closed.errors == 0)
    base_summary = base.summary()
    return {
        "bench": "bot_core",
        "python": platform.python_version(),
        "tables": len(tables),
        "players_per_table": 3,
        "load": "open loop",
        "target_rate": args.rate,
        "fsync": args.fsync,
        "pictures": False,
        "setup_seconds": round(setup, 2),
        "record_bytes": record_bytes,
        **report,
        "samples": main.samples,
        "closed_loop": {"concurrency": args.concurrency,
                        **{k: v for k, v in peak.items()
                           if k in ("actions", "actions_per_sec", "p50_ms", "p99_ms",
                                    "errors")}},
        "one_at_a_time": {k: v for k, v in one_at_a_time.summary().items()
                          if k in ("actions", "actions_per_sec", "p50_ms", "p99_ms", "max_ms")},
        "store_baseline": {
            "op": "get+commit",
            "roundtrips": base_summary["actions"],
            "concurrency": args.concurrency,
            "roundtrips_per_sec": base_summary["actions_per_sec"],
            "p50_ms": base_summary["p50_ms"],
            "p99_ms": base_summary["p99_ms"],
            "one_at_a_time_per_sec": base_one.summary()["actions_per_sec"],
            "one_at_a_time_p50_ms": base_one.summary()["p50_ms"],
        },
        "bar": {**BAR, "met": bar_met},
    }


def main(argv: list[str] | None = None) -> int:
    """Entry point: print the report as one JSON line."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=1000)
    parser.add_argument("--rate", type=float, default=500.0,
                        help="open loop: presses arriving per second")
    parser.add_argument("--concurrency", type=int, default=16,
                        help="closed loop: presses in flight")
    parser.add_argument("--actions", type=int, default=6000)
    parser.add_argument("--sequential", type=int, default=300,
                        help="presses (and store round-trips) measured one at a time")
    parser.add_argument("--fsync", choices=("always", "everysec"), default="always",
                        help="AOF fsync of the embedded Redis (the bot's default: always)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--profile", action="store_true")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.WARNING)
    print(json.dumps(asyncio.run(bench(args)), ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
