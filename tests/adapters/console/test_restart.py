"""Restarts of ``campfire console``: SIGKILL mid-game, reminders after a restart, two workers.

Each test runs real processes fed through pipes. Piped stdin is not interactive, so
the console runs due jobs only after an input line: the tests wait, then type a
harmless line (``/games``) to let reminders fire.
"""

from __future__ import annotations

import asyncio
import shutil
import subprocess
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from urllib.parse import quote

import pytest
import redis
from console_harness import (
    TURN,
    ConsoleProcess,
    Players,
    Shown,
    console_env,
    kill_leftover_redis,
    parse,
    play,
)

from adapters.store import StoreSettings, open_storage
from adapters.store.embedded import find_redis_server
from bot.i18n.catalog import default_catalog
from bot.storage import LogEntry

CATALOG = default_catalog()
REMIND_S = 2.0
Spawn = Callable[..., ConsoleProcess]


def reminder_mark() -> str:
    """The start of a reminder's first line, in the console's language."""
    text = CATALOG.plain("ru", "turn.reminder", game="\0", table="", prompt="")
    return text.split("\0")[0]


@pytest.fixture
def spawn(tmp_path: Path) -> Iterator[Spawn]:
    """Start console processes; all are ended, and any orphaned redis-server killed."""
    started: list[ConsoleProcess] = []
    data_dirs: set[Path] = set()

    def start(
        env: dict[str, str], name: str = "console", cwd: Path | None = None
    ) -> ConsoleProcess:
        where = cwd or tmp_path
        where.mkdir(parents=True, exist_ok=True)
        if "CAMPFIRE_DATA_DIR" in env:
            data_dirs.add(Path(env["CAMPFIRE_DATA_DIR"]))
        process = ConsoleProcess(where, env, name=f"{name}{len(started)}")
        started.append(process)
        return process

    yield start
    for process in started:
        if process.proc.poll() is None:
            process.proc.kill()
        process.close(timeout=5)
    for data_dir in data_dirs:
        kill_leftover_redis(data_dir)


def lobby(console: ConsoleProcess, players: Players, options: str = "") -> str:
    """anna opens a 3-player table, boris and vera join, anna starts; returns the table id.

    When this returns, the game has started (and its first reminder is scheduled).
    """
    opened = parse(console.step(f"anna: /new stone_age 3-3 {options}".strip()))
    tables = [m for m in opened if m.is_table]
    assert tables, opened
    console.step("boris: /join")
    console.step("vera: /join")
    players.feed(console.step("anna: /start"))
    return tables[0].slot.removeprefix("table:")  # type: ignore[union-attr]


def turn_of(table: Shown) -> str:
    """The player the table message says is to decide."""
    names = [m["name"] for line in table.lines if (m := TURN.match(line))]
    assert len(names) == 1, table.lines
    return names[0].strip()


async def read_log(data_dir: Path, tid: str) -> list[LogEntry]:
    """The table's action log, read directly from the data dir (no process may own it)."""
    async with open_storage(StoreSettings(data_dir=data_dir)) as storage:
        return await storage.games.action_log(tid)


def test_game_continues_exactly_after_sigkill(tmp_path: Path, spawn: Spawn) -> None:
    """Kill -9 mid-game; the next process shows the same table and play goes on."""
    data_dir = tmp_path / "data"
    env = console_env(CAMPFIRE_DATA_DIR=str(data_dir))
    first = spawn(env)
    players = Players(seed=3)
    tid = lobby(first, players)
    made = [name for name, _ in play(first, players, 10)]
    # Stop where a single player decides, so the table message carries their buttons.
    while players.table is None or not players.table.playable() or len(players.waiting()) != 1:
        made += [name for name, _ in play(first, players, 1)]
        assert len(made) < 60, "no single-player prompt to stop at"
    before = players.table
    assert before is not None
    assert players.waiting() == [turn_of(before)]
    first.kill()

    second = spawn(env)
    shown = parse(second.step("anna: /status"))
    fresh = [m for m in shown if m.where == "group"]
    assert len(fresh) == 1, shown
    # Same round header, same scores, same recent events (the last move among them),
    # the same player to decide with the same choices.
    assert fresh[0].lines == before.lines
    assert [label for _, label in fresh[0].buttons] == [label for _, label in before.buttons]
    players.table = fresh[0]
    assert players.adopt_table_prompt() == turn_of(before)

    after = [name for name, _ in play(second, players, 6)]
    assert second.close() == 0, second.stderr()
    assert "Traceback" not in second.stderr()

    moves = [e for e in asyncio.run(read_log(data_dir, tid)) if e.kind == "move"]
    assert len(moves) == len(made) + len(after)
    # The move made just before the kill is stored, and the first after the restart follows.
    assert moves[len(made) - 1].user_id == f"con:{made[-1]}"
    assert moves[len(made)].user_id == f"con:{after[0]}"
    assert [e.version for e in moves] == sorted({e.version for e in moves})


class FileClock:
    """The consoles' clock (``CAMPFIRE_CLOCK_FILE``): time moves when the test says."""

    def __init__(self, path: Path, start: float = 1_800_000_000.0) -> None:
        self.path = path
        self.now = start
        self.set(start)

    def set(self, now: float) -> None:
        """Move the consoles' time to ``now``."""
        self.now = now
        self.path.write_text(repr(now), encoding="ascii")

    def advance(self, seconds: float) -> None:
        """Move the consoles' time forward."""
        self.set(self.now + seconds)


def test_reminder_fires_once_after_restart(tmp_path: Path, spawn: Spawn) -> None:
    """A reminder scheduled before a SIGKILL is sent once by the next process, not repeated."""
    clock = FileClock(tmp_path / "clock")
    env = console_env(CAMPFIRE_DATA_DIR=str(tmp_path / "data"), CAMPFIRE_CLOCK_FILE=str(clock.path))
    first = spawn(env)
    players = Players()
    lobby(first, players, f"remind={REMIND_S:g}s repeat=1")
    (who,) = players.waiting()
    first.kill()  # the consoles' time has not moved: the reminder is not due yet
    mark = reminder_mark()
    assert not any(mark in line for line in first.lines)

    second = spawn(env)
    clock.advance(REMIND_S + 1)
    due = [m for m in parse(second.step("anna: /games")) if mark in m.text]
    assert [(m.dm_to, m.slot is not None) for m in due] == [(who, True)], due
    # The reminder carries the same choices as the prompt it recalls.
    assert [label for _, label in due[0].playable()] == \
        [label for _, label in players.prompts[who]]

    # repeat=1: no second reminder, however long the player waits.
    clock.advance(100 * REMIND_S)
    assert not any(mark in m.text for m in parse(second.step("boris: /games")))
    assert sum(mark in line for line in second.lines) == 1
    assert second.close() == 0, second.stderr()


@pytest.fixture
def redis_url(tmp_path: Path) -> Iterator[str]:
    """A redis-server of this test alone, on a unix socket; killed at the end."""
    binary = shutil.which("redis-server") or find_redis_server()
    sock = tmp_path / "r.sock"
    if len(str(sock)) > 100:
        sock = Path(tempfile.mkdtemp(prefix="cf-")) / "r.sock"
    log = open(tmp_path / "redis-server.log", "wb")  # noqa: SIM115 - closed below
    proc = subprocess.Popen(
        [binary, "--port", "0", "--unixsocket", str(sock), "--unixsocketperm", "700",
         # Persistence on, as the bot requires of a REDIS_URL server.
         "--save", "", "--appendonly", "yes", "--dir", str(tmp_path)],
        stdout=log, stderr=log, stdin=subprocess.DEVNULL,
    )
    try:
        client = redis.Redis(unix_socket_path=str(sock), socket_timeout=1)
        deadline = time.monotonic() + 15
        while True:
            try:
                if client.ping():
                    break
            except (redis.ConnectionError, OSError):
                pass
            assert proc.poll() is None, (tmp_path / "redis-server.log").read_text()
            assert time.monotonic() < deadline, "redis-server did not start"
            time.sleep(0.02)
        client.close()
        yield f"unix://{quote(str(sock))}?db=0"
    finally:
        proc.kill()
        proc.wait(10)
        log.close()


def test_reminder_fires_once_across_two_processes(
    tmp_path: Path, spawn: Spawn, redis_url: str
) -> None:
    """Two console processes on one Redis: the reminder is sent by exactly one of them."""
    clock = FileClock(tmp_path / "clock")
    env = console_env(REDIS_URL=redis_url, CAMPFIRE_CLOCK_FILE=str(clock.path))
    one = spawn(env, "one", tmp_path / "one")
    two = spawn(env, "two", tmp_path / "two")
    players = Players()
    tid = lobby(one, players, f"remind={REMIND_S:g}s repeat=1")
    (who,) = players.waiting()
    # The second process sees the table the first one opened (same chat, same Redis).
    assert f"#{tid}" in two.step("anna: /games")

    mark = reminder_mark()
    clock.advance(REMIND_S + 1)
    for console in (one, two):  # both run due jobs at (nearly) the same moment
        console.send("vera: /games")
    outputs = [one.sync(), two.sync()]
    due = [m for text in outputs for m in parse(text) if mark in m.text]
    assert len(due) == 1, outputs
    assert due[0].dm_to == who

    clock.advance(100 * REMIND_S)
    for console in (one, two):
        console.send("vera: /games")
    later = one.sync() + two.sync()
    assert mark not in later
    assert sum(mark in line for c in (one, two) for line in c.lines) == 1
    assert one.close() == 0, one.stderr()
    assert two.close() == 0, two.stderr()


def children(pid: int) -> list[int]:
    """The Python processes ``pid`` started (its AI worker and pool helpers), from /proc."""
    found = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        for child in (task / "children").read_text().split():
            cmdline = Path(f"/proc/{child}/cmdline").read_bytes()
            if b"multiprocessing" in cmdline:
                found.append(int(child))
    return found


def test_an_ai_move_being_thought_when_killed_arrives_after_restart(
        tmp_path: Path, spawn: Spawn) -> None:
    """SIGKILL while a strong AI thinks (its worker process deciding, with seconds of
    its budget left): the table owes the AI's move, and the next process makes it —
    once, right after the last move stored."""
    data_dir = tmp_path / "data"
    # Long enough to be caught thinking: a command after the one that woke it waits.
    first = spawn(console_env(CAMPFIRE_DATA_DIR=str(data_dir), CAMPFIRE_AI_BUDGET_S="8",
                              CAMPFIRE_AI_WORKERS="1"))
    players = Players(seed=5)
    opened = parse(first.step("anna: /new stone_age 2 ai=1 level=strong"))
    tid = next(m for m in opened if m.is_table).slot.removeprefix("table:")  # type: ignore[union-attr]
    first.send("anna: /start")
    pressed = 0
    for _ in range(3):
        try:
            # The console answers lines in turn: a quick barrier means nobody thinks.
            players.feed(first.sync(timeout=2.0))
        except TimeoutError:
            break
        choice = players.next_press()
        assert choice is not None, "anna has nothing to press and no AI thinks"
        first.send(f"{choice[0]}: {choice[1]}")
        pressed += 1
    else:
        raise AssertionError("the AI never thought for long")
    workers = children(first.proc.pid)
    assert workers, "the AI thinks in a process of its own"
    first.kill()
    # Its worker, left thinking, ends once it sees the bot gone (no process lingers).
    deadline = time.monotonic() + 15
    while any(Path(f"/proc/{pid}").exists() for pid in workers):
        assert time.monotonic() < deadline, f"orphaned AI workers {workers} live on"
        time.sleep(0.2)

    second = spawn(console_env(CAMPFIRE_DATA_DIR=str(data_dir), CAMPFIRE_AI_BUDGET_S="0.05",
                               CAMPFIRE_AI_WORKERS="1"))
    second.step("anna: /status")
    assert second.close() == 0, second.stderr()
    assert "Traceback" not in second.stderr()
    moves = [e for e in asyncio.run(read_log(data_dir, tid)) if e.kind == "move"]
    anna = [i for i, e in enumerate(moves) if e.user_id == "con:anna"]
    assert len(anna) == pressed  # every press stored once, none lost to the kill
    after = moves[anna[-1] + 1] if anna else moves[0]
    assert after.user_id == "autopilot", moves
    assert [e.version for e in moves] == sorted({e.version for e in moves})
