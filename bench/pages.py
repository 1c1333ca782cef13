"""The tables' pages: first load, live updates, and many open pages on one worker.

One process runs the bot (``running_core`` on an embedded Redis in a temporary
directory, pictures on), its page server on a free local port, and the clients
(aiohttp), so the figures include the clients' own work on the same core: a worker
serving only pages does better. Tables are two-player games opened and played through
the app (``Campfire.on_text`` / ``on_press``), each move the first open prompt's first
real option.

Reported (one JSON object):

- ``first_load``: per game, after ``--moves`` moves, the bytes a player's page
  transfers on its first load — the page, its script and style, its data and its
  picture — with ``gzip`` as a browser asks; the issue's goal is 300 KB;
- ``update_ms``: per move, from the commit (the press that makes it) to the other
  page's event (p50, p99), and to that page's data read afresh;
- ``many_pages``: ``--pages`` live pages spread over ``--tables`` tables on this one
  worker, the tables moving in turn at ``--rate`` moves a second (one move a table
  every 5 s by default: a busy site): from each commit to each of its table's pages
  hearing it (``event_*``), and
  to that page having read its data and picture afresh (p50, p99, max: what a viewer
  waits for), and whether that p99 is within the issue's 1 s.

Usage::

    python -m bench.pages [--moves 20] [--pages 1000] [--tables 50] [--rounds 3] [--rate 10]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import aiohttp

from adapters.edge.settings import WebEnv
from adapters.runtime import Core, running_core
from adapters.store import StoreSettings
from adapters.web.press import Outlet
from adapters.web.service import page_server, serving_pages
from bot.identity import Chat, User
from bot.storage.ports import ScriptPart
from bot.ui.message import Outgoing, Reply

GAMES = ("stone_age", "hunters_gatherers", "caverna")
FIRST_LOAD_GOAL = 300 * 1024
MANY_P99_BAR_S = 1.0
ANNA, BORIS = User("con:anna", "Anna", "en"), User("con:boris", "Boris", "en")


def percentile(values: list[float], q: float) -> float:
    """The ``q`` quantile (nearest rank) of ``values``, in milliseconds."""
    ordered = sorted(values)
    return round(1000 * ordered[min(len(ordered) - 1, int(q * len(ordered)))], 1)


def tokens_of(reply: Reply, verb: str) -> str:
    """The token of a lobby button ``verb`` among the reply's messages."""
    for item in reply.out:
        block = item.message.choices
        for choice in block.choices if block else ():
            if f".{verb}." in choice.token:
                return choice.token
    raise LookupError(verb)


async def open_table(core: Core, game: str, n: int) -> str:
    """A running two-player table of ``game`` in its own chat."""
    app = core.app
    chat = Chat(id=f"con:bench{n}", title=f"bench {n}")
    opened = await app.on_text(chat, ANNA, f"/new {game} 2-2 en")
    joined = await app.on_press(chat, BORIS, tokens_of(opened, "join"))
    await app.on_press(chat, ANNA, tokens_of(joined, "start"))
    (record,) = await app.sv.store.tables_in_chat(chat.id)
    return record.table_id


async def move(core: Core, table: str) -> None:
    """The first open prompt's first real option, pressed in the chat."""
    sv = core.app.sv
    record = await sv.store.get(table)
    prompt = sv.prompts(record)[0]
    user = ANNA if record.seats[prompt.seat] == ANNA.id else BORIS
    choice = next(c for c in sv.presenter.prompt_choices(record, prompt, "en").choices
                  if c.kind == "option")
    await core.app.on_press(Chat(id=record.chat_id), user, choice.token)


def link(core: Core, table: str, user: User = ANNA) -> str:
    """``user``'s link token to ``table``."""
    pages = core.app.sv.pages
    assert pages is not None
    return pages.link(user.id, user.name, table).partition("?k=")[2]


async def first_load(core: Core, base: str, moves: int) -> dict[str, Any]:
    """Bytes of a player's first load of a table's page, per game."""
    out: dict[str, Any] = {}
    async with aiohttp.ClientSession(base, auto_decompress=False) as http:
        for n, game in enumerate(GAMES):
            table = await open_table(core, game, 1000 + n)
            for _ in range(moves):
                await move(core, table)
            record = await core.app.sv.store.get(table)
            # The player asked now: their page carries a decision and a marked picture.
            asked = record.seats[core.app.sv.prompts(record)[0].seat]
            token = link(core, table, ANNA if asked == ANNA.id else BORIS)
            parts: dict[str, int] = {}
            for name, path in (("page", f"/t/{table}?k={token}"), ("script", "/static/page.js"),
                               ("style", "/static/page.css"), ("data", f"/api/t/{table}?k={token}"),
                               ("picture", f"/api/t/{table}/picture?v={record.version}&k={token}")):
                async with http.get(path, headers={"Accept-Encoding": "gzip"}) as response:
                    parts[name] = len(await response.read())
            total = sum(parts.values())
            out[game] = {"bytes": parts, "total_kb": round(total / 1024, 1),
                         "within_goal": total <= FIRST_LOAD_GOAL}
    return out


async def listen(http: aiohttp.ClientSession, table: str, token: str,
                 heard: Callable[[int], Awaitable[None] | None]) -> None:
    """Follow a table's live stream, calling ``heard`` with each version."""
    async with http.get(f"/api/t/{table}/live", params={"k": token},
                        timeout=aiohttp.ClientTimeout(total=None)) as response:
        async for raw in response.content:
            line = raw.decode().strip()
            if line.startswith("data:"):
                result = heard(int(line.removeprefix("data:")))
                if result is not None:
                    await result


async def update_times(core: Core, base: str, moves: int) -> dict[str, Any]:
    """From a commit to the other page's event, and to its data read afresh."""
    table = await open_table(core, "stone_age", 2000)
    token = link(core, table, BORIS)
    events: list[float] = []
    reads: list[float] = []
    arrived: asyncio.Queue[float] = asyncio.Queue()
    async with aiohttp.ClientSession(base) as http:
        async def heard(version: int) -> None:
            del version
            arrived.put_nowait(time.perf_counter())

        follower = asyncio.create_task(listen(http, table, token, heard))
        await arrived.get()  # the stream's first event: the version as it stands
        for _ in range(moves):
            started = time.perf_counter()
            await move(core, table)
            events.append(await arrived.get() - started)
            async with http.get(f"/api/t/{table}", params={"k": token}) as response:
                await response.read()
            reads.append(time.perf_counter() - started)
        follower.cancel()
    return {"moves": moves, "event_p50": percentile(events, 0.5),
            "event_p99": percentile(events, 0.99), "read_p50": percentile(reads, 0.5),
            "read_p99": percentile(reads, 0.99)}


async def many_pages(core: Core, base: str, pages: int, tables: int,
                     rounds: int, rate: float) -> dict[str, Any]:
    """``pages`` live pages over ``tables`` tables: from each commit to each page hearing
    it, and to that page having read its data and picture afresh, as the page's script
    does on each event (the update a viewer sees)."""
    ids = [await open_table(core, "stone_age", 3000 + n) for n in range(tables)]
    committed: dict[tuple[str, int], float] = {}
    delays: list[float] = []
    reads: list[float] = []
    ready = asyncio.Event()
    opened = 0
    connector = aiohttp.TCPConnector(limit=0)
    async with aiohttp.ClientSession(base, connector=connector) as http:
        def follower(table: str, token: str) -> Callable[[int], Awaitable[None]]:
            first = True

            async def heard(version: int) -> None:
                nonlocal first, opened
                if first:
                    first = False
                    opened += 1
                    if opened == pages:
                        ready.set()
                    return
                at = committed.get((table, version))
                if at is None:
                    return
                delays.append(time.perf_counter() - at)
                for path in (f"/api/t/{table}", f"/api/t/{table}/picture?v={version}"):
                    async with http.get(path, params={"k": token}) as response:
                        await response.read()
                reads.append(time.perf_counter() - at)
            return heard

        tasks = []
        for i in range(pages):
            table = ids[i % tables]
            token = link(core, table)
            tasks.append(asyncio.create_task(listen(http, table, token,
                                                    follower(table, token))))
        await asyncio.wait_for(ready.wait(), 120)
        for _ in range(rounds):
            for table in ids:
                version = (await core.app.sv.store.get(table)).version
                committed[(table, version + 1)] = time.perf_counter()
                await move(core, table)
                # Moves come at the site's pace, not all at once: every open page of
                # the table reads afresh after each.
                await asyncio.sleep(1 / rate)
        expected = rounds * pages
        deadline = time.perf_counter() + 60
        while len(reads) < expected and time.perf_counter() < deadline:
            await asyncio.sleep(0.05)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
    p99 = percentile(reads, 0.99) if reads else None
    return {"pages": pages, "tables": tables, "moves": rounds * tables, "moves_per_s": rate,
            "heard": len(delays), "read": len(reads), "expected": expected,
            "event_p50_ms": percentile(delays, 0.5) if delays else None,
            "event_p99_ms": percentile(delays, 0.99) if delays else None,
            "p50_ms": percentile(reads, 0.5) if reads else None, "p99_ms": p99,
            "max_ms": round(1000 * max(reads), 1) if reads else None,
            "p99_within_1s": p99 is not None and p99 <= MANY_P99_BAR_S * 1000
            and len(reads) == expected}


async def run(args: argparse.Namespace) -> dict[str, Any]:
    """Every measurement, on one bot in a temporary data directory."""
    with tempfile.TemporaryDirectory() as tmp:
        store = StoreSettings(data_dir=Path(tmp) / "redis")
        web = WebEnv(url="http://127.0.0.1", port=0)
        async with running_core(store, pictures=True, web=web) as core:
            async def discard(items: list[Outgoing], settle: ScriptPart | None) -> bool:
                del items, settle  # no chat here: the pages are measured
                return True

            server = page_server(core, {"con": Outlet(discard)})
            async with serving_pages(server, web) as port:
                base = f"http://127.0.0.1:{port}"
                loads = await first_load(core, base, args.moves)
                updates = await update_times(core, base, args.moves)
                many = await many_pages(core, base, args.pages, args.tables, args.rounds,
                                        args.rate)
    return {"bench": "pages", "first_load": loads, "update_ms": updates, "many_pages": many}


def main(argv: list[str] | None = None) -> int:
    """Run and print the report."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--moves", type=int, default=20)
    parser.add_argument("--pages", type=int, default=1000)
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--rate", type=float, default=10.0, help="moves a second")
    args = parser.parse_args(argv)
    print(json.dumps(asyncio.run(run(args))))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

