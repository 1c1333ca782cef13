"""Reading the console chat's transcript the way a person at the terminal would.

Shared by the console tests (imported by module name: pytest puts this directory on
``sys.path``). Nothing here knows the game: it parses what ``ConsoleChat`` prints —
message headers ``── [group] (table:x) #12`` / ``── [DM → name] (dm:x:1)`` (the number
when the message has buttons), answers ``→ name: text`` (`` #12`` at the end when
buttons follow), hints ``? ...``, button rows ``[n] label   [m] label`` and picture
lines ``🖼 path`` — and picks the next button to press. A button is known by what is
typed to press it wherever it was printed: ``12.3``, button 3 of message 12. ``Session`` and
``console_session`` hold a console chat in this process and what it printed.
"""

from __future__ import annotations

import contextlib
import io
import os
import pty
import queue
import random
import re
import select
import signal
import subprocess
import sys
import threading
import time
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from adapters.console.chat import ConsoleChat
from adapters.runtime import running_core
from adapters.store import StoreSettings
from bot.app import Campfire
from bot.i18n.catalog import Lang

HEADER = re.compile(
    r"^── \[(?P<where>[^\]]+)\](?: \((?P<slot>[^)]*)\))?(?: #(?P<number>\d+))?\s*$")
NUMBERED = re.compile(r"^(?P<text>.*) #(?P<number>\d+)$")
ANSWER = re.compile(r"^→ (?P<name>[^:]+): (?P<alert>⚠ )?(?P<text>.*)$")
ROW = re.compile(r"^   \[\d+\] ")
CELL = re.compile(r"\[(\d+)\] (.+?)(?=\s{3}\[\d+\] |\s*$)")
PICTURE = re.compile(r"^   🖼 (?P<path>.+)$")
TURN = re.compile(r"^➡️ (?P<name>[^,]+),")
#: Labels of buttons that page or step back: never chosen, so that play makes progress.
NAV_PREFIXES = ("‹", "›", "«", "↩")


@dataclass
class Shown:
    """One printed item: a message, an answer to the actor, or a console hint."""

    kind: str  # "message", "answer" or "hint"
    where: str = ""  # "group", "DM → vera", or the actor's name for an answer
    slot: str | None = None
    lines: list[str] = field(default_factory=list)
    buttons: list[tuple[str, str]] = field(default_factory=list)  # (typed, label)
    number: int | None = None  # the message's number, when it has buttons
    pictures: list[str] = field(default_factory=list)
    alert: bool = False

    @property
    def text(self) -> str:
        """The message text without buttons and pictures."""
        return "\n".join(self.lines)

    @property
    def dm_to(self) -> str | None:
        """The addressee of a private message.

        A console process labels a private message with the user's id (``con:vera``)
        until that user has typed a line in it, e.g. right after a restart; the id is
        ``con:`` and the name as typed (NFC-normalised), so the prefix is dropped.
        """
        if not self.where.startswith("DM → "):
            return None
        return self.where[len("DM → "):].removeprefix("con:")

    @property
    def is_table(self) -> bool:
        """True for the table's own kept-up-to-date message in the group."""
        return self.where == "group" and (self.slot or "").startswith("table:")

    def playable(self) -> list[tuple[str, str]]:
        """Buttons that choose something (not paging, not back/undo)."""
        return [(n, label) for n, label in self.buttons if not label.startswith(NAV_PREFIXES)]


def parse(text: str) -> list[Shown]:
    """Split a piece of transcript into printed items."""
    items: list[Shown] = []
    current: Shown | None = None
    for line in text.splitlines():
        if m := HEADER.match(line):
            number = int(m["number"]) if m["number"] else None
            current = Shown("message", m["where"], m["slot"], number=number)
            items.append(current)
        elif m := ANSWER.match(line):
            current = Shown("answer", m["name"].strip(), lines=[m["text"]], alert=bool(m["alert"]))
            items.append(current)
        elif line.startswith("? "):
            items.append(Shown("hint", lines=[line]))
            current = None
        elif current is None:
            continue
        elif ROW.match(line):
            if current.number is None and current.lines and \
                    (numbered := NUMBERED.match(current.lines[-1])):
                # An answer with buttons: its number ends the line above them.
                current.lines[-1], current.number = numbered["text"], int(numbered["number"])
            current.buttons += [(f"{current.number}.{n}", label.strip())
                                for n, label in CELL.findall(line[3:])]
        elif m := PICTURE.match(line):
            current.pictures.append(m["path"])
        else:
            # Message lines are indented by three spaces; multi-line answers are not.
            current.lines.append(line[3:] if line.startswith("   ") else line)
    return items


class Players:
    """What each player was last shown privately, and the table message: who acts next."""

    def __init__(self, seed: int = 1) -> None:
        """Choices among a prompt's buttons come from a generator seeded with ``seed``."""
        self.prompts: dict[str, list[tuple[str, str]]] = {}  # name -> buttons of the latest DM
        self.table: Shown | None = None
        self.rnd = random.Random(seed)

    def feed(self, text: str) -> list[Shown]:
        """Take in new transcript; returns it parsed."""
        items = parse(text)
        for item in items:
            if item.kind != "message":
                continue
            if item.is_table:
                self.table = item
            name = item.dm_to
            # Only the kept prompt message (slot dm:<table>:<seat>) carries a turn; a
            # "done" edit of that slot has no buttons and so ends it.
            if name is not None and (item.slot or "").startswith("dm:"):
                self.prompts[name] = item.playable()
        return items

    def waiting(self) -> list[str]:
        """Players holding a prompt with buttons, in name order."""
        return sorted(name for name, buttons in self.prompts.items() if buttons)

    def adopt_table_prompt(self) -> str | None:
        """After a restart: take the prompt of the table message (``/status``) as current."""
        if self.table is None or not self.table.playable():
            return None
        for line in self.table.lines:
            if m := TURN.match(line):
                name = m["name"].strip()
                self.prompts = {name: self.table.playable()}
                return name
        return None

    def next_press(self) -> tuple[str, str] | None:
        """(player, what to type to press a button) next, or None when nobody is asked."""
        waiting = self.waiting()
        if not waiting:
            return None
        name = waiting[0]
        number, _label = self.rnd.choice(self.prompts[name])
        return name, number


def answers(items: list[Shown], name: str | None = None) -> list[Shown]:
    """The answers (to ``name``, if given) among printed items."""
    return [i for i in items if i.kind == "answer" and (name is None or i.where == name)]


# --- a console process -----------------------------------------------------------------


def campfire_command() -> list[str]:
    """The installed ``campfire`` script beside this interpreter (else ``-m adapters.cli``)."""
    script = Path(sys.executable).with_name("campfire")
    if script.exists():
        return [str(script)]
    return [sys.executable, "-m", "adapters.cli"]


def console_env(**extra: str) -> dict[str, str]:
    """The environment for a console process: UTF-8 output, no stray Redis, tokens or
    page settings."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("REDIS_URL", "TELEGRAM_TOKEN", "DISCORD_TOKEN", "CAMPFIRE_KEY_PREFIX")
           and not k.startswith("CAMPFIRE_WEB_")}
    env.update(PYTHONIOENCODING="utf-8", PYTHONUTF8="1", PYTHONUNBUFFERED="1")
    # A console at a terminal serves the tables' pages: on a free port, never a fixed
    # one another test (or a developer's bot) may hold.
    env.update(CAMPFIRE_WEB_PORT="0")
    env.update(extra)
    return env


class ConsoleProcess:
    """``campfire console`` as a child process, spoken to line by line.

    A reader thread collects stdout, so every wait has a deadline and a test never
    hangs on a silent process. ``step`` sends a line followed by a barrier line
    (a press of a button that cannot exist), whose hint marks the end of the answer.
    """

    def __init__(self, cwd: Path, env: dict[str, str], name: str = "console",
                 args: tuple[str, ...] = ()) -> None:
        """Start the process in ``cwd`` (``campfire console`` with ``args``); stderr goes
        to ``<cwd>/<name>.stderr``."""
        self.stderr_path = cwd / f"{name}.stderr"
        self._stderr = open(self.stderr_path, "wb")  # noqa: SIM115 - closed in close()
        self.proc = subprocess.Popen(
            [*campfire_command(), "console", *args], cwd=cwd, env=env,
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self._stderr,
            text=True, encoding="utf-8", bufsize=1,
        )
        self.lines: list[str] = []
        self._queue: queue.Queue[str | None] = queue.Queue()
        self._read = 0
        self._barrier = 9_000_000
        self._thread = threading.Thread(target=self._pump, daemon=True)
        self._thread.start()

    def _pump(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self._queue.put(line.rstrip("\n"))
        self._queue.put(None)

    def send(self, line: str) -> None:
        """Type one line."""
        assert self.proc.stdin is not None
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def read_until(self, predicate: object, timeout: float = 30.0) -> str:
        """Collect output until a line satisfies ``predicate`` (a callable on the line)."""
        assert callable(predicate)
        deadline = time.monotonic() + timeout
        start = len(self.lines)
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(self._diagnose("no expected line within timeout", start))
            try:
                line = self._queue.get(timeout=left)
            except queue.Empty:
                continue
            if line is None:
                raise EOFError(self._diagnose("the process ended", start))
            self.lines.append(line)
            if predicate(line):
                return "\n".join(self.lines[start:])

    def sync(self, timeout: float = 30.0) -> str:
        """Everything printed up to now: sends a barrier line and waits for its hint."""
        self._barrier += 1
        marker = f"? There is no button [{self._barrier}]."
        self.send(f"sync: {self._barrier}")
        text = self.read_until(lambda out: out == marker, timeout)
        return text[: text.rindex(marker)]

    def step(self, line: str, timeout: float = 30.0) -> str:
        """Send ``line`` and return everything printed in answer to it."""
        self.send(line)
        return self.sync(timeout)

    def kill(self) -> None:
        """SIGKILL the bot process (its embedded redis-server, in its own session, lives on)."""
        os.kill(self.proc.pid, signal.SIGKILL)
        self.proc.wait(10)

    def close(self, timeout: float = 30.0) -> int:
        """End input, wait for a clean exit and return the exit code (kill on timeout)."""
        try:
            if self.proc.poll() is None and self.proc.stdin is not None:
                with contextlib.suppress(BrokenPipeError):
                    self.proc.stdin.close()
                try:
                    self.proc.wait(timeout)
                except subprocess.TimeoutExpired:
                    self.proc.kill()
                    self.proc.wait(10)
        finally:
            self._thread.join(5)
            self._stderr.close()
        return self.proc.returncode

    def stderr(self) -> str:
        """What the process wrote to stderr so far."""
        return self.stderr_path.read_text(encoding="utf-8", errors="replace")

    def _diagnose(self, what: str, start: int) -> str:
        tail = "\n".join(self.lines[start:][-40:])
        return f"{what}; exit={self.proc.poll()}\n--- output ---\n{tail}\n--- stderr ---\n" \
            f"{self.stderr()[-3000:]}"


def play(console: ConsoleProcess, players: Players, moves: int) -> Iterator[tuple[str, str]]:
    """Make ``moves`` presses through ``console``; yields (player, answer text) per move."""
    for _ in range(moves):
        choice = players.next_press()
        assert choice is not None, "nobody is asked to decide"
        name, number = choice
        text = console.step(f"{name}: {number}")
        refused = [a.text for a in answers(players.feed(text), name) if a.alert]
        assert not refused, f"{name}: {number} was refused: {refused}"
        yield name, text


def kill_leftover_redis(data_dir: Path) -> None:
    """Kill a redis-server that still serves ``data_dir`` (test cleanup only)."""
    try:
        pid = int((data_dir / "redis.pid").read_text().strip())
        cmdline = Path(f"/proc/{pid}/cmdline").read_bytes()
    except (OSError, ValueError):
        return
    if b"redis-server" in cmdline:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)


@dataclass
class Session:
    """A console chat in this process with everything it printed."""

    app: Campfire
    chat: ConsoleChat
    out: io.StringIO
    pictures_dir: Path
    _seen: int = 0

    async def say(self, line: str) -> str:
        """Type a line; returns what was printed in answer."""
        await self.chat.handle_line(line)
        text = self.out.getvalue()
        new, self._seen = text[self._seen:], len(text)
        return new

    async def table_id(self) -> str:
        """The only active table of the group chat."""
        tables = await self.app.sv.store.tables_in_chat("con:group")
        assert len(tables) == 1
        return tables[0].table_id


@contextlib.asynccontextmanager
async def console_session(tmp_path: Path, lang: Lang) -> AsyncIterator[Session]:
    """A console chat with pictures, its users speaking ``lang``, on a fresh embedded
    Redis in ``tmp_path``; seat order and seed are seeded."""
    async with running_core(StoreSettings(data_dir=tmp_path / "data"), pictures=True) as core:
        app = core.app
        app.sv.rng = random.Random(5)
        out = io.StringIO()
        chat = ConsoleChat.on(core, out, tmp_path / "pictures", lang=lang)
        yield Session(app, chat, out, tmp_path / "pictures")


class Terminal:
    """``campfire console`` on a pseudo-terminal."""

    def __init__(self, cwd: Path, env: dict[str, str]) -> None:
        """Start the process in ``cwd``."""
        command = [*campfire_command(), "console"]
        self.pid, self.fd = pty.fork()
        if self.pid == 0:  # the child: never returns
            try:
                os.chdir(cwd)
                os.execve(command[0], command, env)
            finally:
                os._exit(127)
        self.seen = ""

    def read_until(self, text: str, timeout: float = 30.0) -> str:
        """Read output until ``text`` appears; everything read so far."""
        deadline = time.monotonic() + timeout
        while text not in self.seen:
            left = deadline - time.monotonic()
            assert left > 0, f"{text!r} not printed; got:\n{self.seen[-2000:]}"
            ready, _, _ = select.select([self.fd], [], [], min(left, 0.2))
            if ready:
                try:
                    chunk = os.read(self.fd, 65536)
                except OSError:  # the child is gone (EIO)
                    chunk = b""
                assert chunk, f"the process ended; got:\n{self.seen[-2000:]}"
                self.seen += chunk.decode("utf-8", errors="replace")
        return self.seen

    def type(self, line: str) -> None:
        """Type a line and Enter."""
        os.write(self.fd, line.encode() + b"\r")

    def wait(self, timeout: float) -> int | None:
        """The exit code, or None if still running after ``timeout`` seconds."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            pid, status = os.waitpid(self.pid, os.WNOHANG)
            if pid:
                return os.waitstatus_to_exitcode(status)
            with contextlib.suppress(OSError):  # keep the pty drained
                if select.select([self.fd], [], [], 0.05)[0]:
                    self.seen += os.read(self.fd, 65536).decode("utf-8", errors="replace")
        return None

    def end(self) -> None:
        """Kill the process if it still runs; close the terminal."""
        with contextlib.suppress(ChildProcessError, ProcessLookupError):
            if os.waitpid(self.pid, os.WNOHANG)[0] == 0:
                os.kill(self.pid, signal.SIGKILL)
                os.waitpid(self.pid, 0)
        os.close(self.fd)
