"""A slow AI for the tests of ``bot.table.thinking``, run in its worker processes (so
it lives in a module of its own, importable there): it notes its process id in the
folder ``THINKING_DIR`` names, sleeps ``THINKING_S`` seconds, then decides as the real
AI does."""

from __future__ import annotations

import os
import time
from pathlib import Path

from bot.table.thinking import decide

DIR_ENV = "THINKING_DIR"
SECONDS_ENV = "THINKING_S"


def slow_decide(game_name: str, state_json: str, seat: int, level: str, seed: str,
                budget_s: float) -> str:
    """``decide``, after noting this process and sleeping as long as the test said."""
    folder = os.environ.get(DIR_ENV)
    if folder:
        (Path(folder) / str(os.getpid())).touch()
    time.sleep(float(os.environ.get(SECONDS_ENV, "0")))
    return decide(game_name, state_json, seat, level, seed, budget_s)
