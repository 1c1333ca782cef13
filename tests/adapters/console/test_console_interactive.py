"""The console at a terminal (a pseudo-terminal here): Ctrl-C ends it at once, cleanly.

Before, the line being read in asyncio's default executor kept the process alive
after Ctrl-C until Enter was pressed.
"""

from __future__ import annotations

import contextlib
import os
import pty
import select
import signal
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from console_harness import campfire_command, console_env, kill_leftover_redis


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


@pytest.fixture
def terminal(tmp_path: Path) -> Iterator[Terminal]:
    """A console at a terminal, data in ``<tmp>/data``; killed at the end if need be."""
    term = Terminal(tmp_path, console_env(CAMPFIRE_DATA_DIR=str(tmp_path / "data")))
    yield term
    term.end()
    kill_leftover_redis(tmp_path / "data")


def test_ctrl_c_ends_the_console_at_once(terminal: Terminal, tmp_path: Path) -> None:
    terminal.read_until("Ctrl-D quits")  # the banner: only a terminal gets it
    terminal.type("anna: /new stone_age 3-3")
    terminal.read_until("[4]")
    redis_pid = int((tmp_path / "data" / "redis.pid").read_text())
    os.kill(terminal.pid, signal.SIGINT)
    assert terminal.wait(15) == 130, terminal.seen[-2000:]
    assert "Traceback" not in terminal.seen
    # Its Redis was shut down (not left for the next start to clean up).
    assert not Path(f"/proc/{redis_pid}").exists()
    assert not (tmp_path / "data" / "redis.pid").exists()


def test_ctrl_c_while_a_line_is_handled(terminal: Terminal, tmp_path: Path) -> None:
    """Ctrl-C right after Enter: the console still ends promptly and cleanly, and
    the next one starts on the same data."""
    terminal.read_until("Ctrl-D quits")
    terminal.type("anna: /new stone_age 3-3")
    os.kill(terminal.pid, signal.SIGINT)
    assert terminal.wait(15) == 130, terminal.seen[-2000:]
    assert "Traceback" not in terminal.seen
    again = Terminal(tmp_path, console_env(CAMPFIRE_DATA_DIR=str(tmp_path / "data")))
    try:
        again.read_until("Ctrl-D quits")
        again.type("anna: /games")
        again.read_until("→ anna:")
        again.type("\x04")  # Ctrl-D: the end of input, exit 0
        assert again.wait(15) == 0, again.seen[-2000:]
    finally:
        again.end()
