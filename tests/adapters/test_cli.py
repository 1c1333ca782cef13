"""The ``campfire`` command: self-play prints one honest JSON line."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from adapters.cli import main

REQUIRED = {"game", "players", "games", "errors", "seconds", "games_per_sec",
            "actions_per_game", "mean_state_bytes", "mean_scores"}


def test_selfplay_json_line(capsys: pytest.CaptureFixture[str]) -> None:
    """Self-play reports every required field with values that fit the games played."""
    code = main(["selfplay", "--game", "stone_age", "--players", "3", "--games", "4",
                 "--seed", "7", "--json"])
    out = capsys.readouterr().out.strip().splitlines()
    assert code == 0 and len(out) == 1
    report = json.loads(out[0])
    assert report.keys() >= REQUIRED
    assert report["game"] == "stone_age" and report["players"] == 3 and report["games"] == 4
    assert report["errors"] == 0
    assert report["actions_per_game"] > 100
    assert 0 < report["mean_state_bytes"] < 8192
    assert len(report["mean_scores"]) == 3


def test_selfplay_rejects_bad_player_count(capsys: pytest.CaptureFixture[str]) -> None:
    """Five players is refused with a clear message and a non-zero exit."""
    assert main(["selfplay", "--game", "stone_age", "--players", "5", "--games", "1"]) == 2
    assert "2-4 players" in capsys.readouterr().err


def test_console_script_runs() -> None:
    """The installed entry point works as a process (what the README's run command calls)."""
    proc = subprocess.run(
        [sys.executable, "-m", "adapters.cli", "selfplay", "--game", "stone_age", "--games", "1",
         "--players", "2", "--json"],
        capture_output=True, text=True, timeout=120, check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["errors"] == 0
