"""The console at a terminal (a pseudo-terminal here): Ctrl-C ends it at once, cleanly.

Before, the line being read in asyncio's default executor kept the process alive
after Ctrl-C until Enter was pressed.
"""

from __future__ import annotations

import os
import signal
from pathlib import Path

from console_harness import Terminal, console_env


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
