"""The ``campfire`` command: self-play prints one honest JSON line."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from adapters.cli import main, with_command
from adapters.store.testing import redis_server

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


# --- the console command: --seed / CAMPFIRE_SEED, and REDIS_URL's persistence -----------

LOBBY = "anna: /new stone_age 2-4 en\nboris: /join\nvera: /join\nanna: /start\n"


def console_run(
    cwd: Path, *args: str, stdin: str = LOBBY, command: tuple[str, ...] = ("console",),
    **env: str,
) -> subprocess.CompletedProcess[str]:
    """``campfire console`` (or ``command``) in ``cwd`` on its own data dir, fed ``stdin``."""
    environ = {k: v for k, v in os.environ.items()
               if k not in ("REDIS_URL", "TELEGRAM_TOKEN", "DISCORD_TOKEN", "CAMPFIRE_SEED")}
    environ.update(PYTHONUTF8="1", PYTHONIOENCODING="utf-8", CAMPFIRE_DATA_DIR="data", **env)
    cwd.mkdir(parents=True, exist_ok=True)
    return subprocess.run(
        [sys.executable, "-m", "adapters.cli", *command, *args], cwd=cwd, env=environ,
        input=stdin, capture_output=True, text=True, encoding="utf-8", timeout=120, check=False,
    )


def started(transcript: str) -> str:
    """From the start announcement on: seat order, then the first round's board."""
    assert "has started" in transcript, transcript
    return transcript[transcript.index("has started"):]


def test_console_seed_reproduces_seats_and_game(tmp_path: Path) -> None:
    """The same seed (flag or CAMPFIRE_SEED) gives the same seat order and the same game
    (its card row and huts are drawn from the game seed); another seed another game."""
    runs = [console_run(tmp_path / "a", "--seed", "7", "--no-pictures"),
            console_run(tmp_path / "b", "--no-pictures", CAMPFIRE_SEED="7"),
            console_run(tmp_path / "c", "--seed", "8", "--no-pictures")]
    for run in runs:
        assert run.returncode == 0, run.stderr
    assert started(runs[0].stdout) == started(runs[1].stdout)
    assert started(runs[0].stdout) != started(runs[2].stdout)
    assert "🖼" not in runs[0].stdout  # --no-pictures


def test_options_without_a_command_belong_to_the_platform_served(tmp_path: Path) -> None:
    """``./run-bot --seed 7`` is ``./run-bot console --seed 7`` without tokens."""
    assert with_command(["--seed", "7"], {}) == ["console", "--seed", "7"]
    assert with_command(["--seed", "7"], {"TELEGRAM_TOKEN": "1:x"})[0] == "telegram"
    assert with_command(["--help"], {}) == ["--help"]
    assert with_command(["selfplay", "--game", "x"], {}) == ["selfplay", "--game", "x"]
    bare = console_run(tmp_path / "bare", "--seed", "7", "--no-pictures", command=())
    named = console_run(tmp_path / "named", "--seed", "7", "--no-pictures")
    assert bare.returncode == 0, bare.stderr
    assert started(bare.stdout) == started(named.stdout)


def test_console_refuses_a_seed_that_is_not_a_number(tmp_path: Path) -> None:
    run = console_run(tmp_path, CAMPFIRE_SEED="seven")
    assert run.returncode == 2
    assert run.stderr.strip().splitlines() == [
        "Campfire: CAMPFIRE_SEED must be an integer, not 'seven'"]


def test_console_refuses_redis_without_persistence(tmp_path: Path) -> None:
    """REDIS_URL at a server keeping nothing on disk: one line and exit 2, before any
    game is touched; with the override it runs, after one loud warning."""
    with redis_server(tmp_path / "redis", "--appendonly", "no", "--save", "") as url:
        refused = console_run(tmp_path / "one", REDIS_URL=url)
        assert refused.returncode == 2 and refused.stdout == ""
        (line,) = refused.stderr.strip().splitlines()
        assert "keeps nothing on disk" in line and "CAMPFIRE_ALLOW_VOLATILE_REDIS=1" in line

        allowed = console_run(tmp_path / "two", "--no-pictures", REDIS_URL=url,
                              CAMPFIRE_ALLOW_VOLATILE_REDIS="1")
        assert allowed.returncode == 0, allowed.stderr
        assert "has started" in allowed.stdout
        assert allowed.stderr.count("CAMPFIRE_ALLOW_VOLATILE_REDIS is set") == 1


def test_telegram_refuses_redis_without_persistence(tmp_path: Path) -> None:
    """The Telegram service says the same one line (before it ever calls Telegram)."""
    environ = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "DISCORD_TOKEN")}
    with redis_server(tmp_path / "redis", "--appendonly", "no", "--save", "") as url:
        environ.update(REDIS_URL=url, TELEGRAM_TOKEN="123456:not-a-real-token",
                       TELEGRAM_BASE_URL="http://127.0.0.1:1/never-called")
        run = subprocess.run([sys.executable, "-m", "adapters.cli", "telegram"], cwd=tmp_path,
                             env=environ, capture_output=True, text=True, timeout=120,
                             check=False)
    assert run.returncode == 2, run.stderr
    (line,) = run.stderr.strip().splitlines()
    assert "keeps nothing on disk" in line
