"""A second ``campfire`` on the data dir of a running one: one clear line, exit 1,
the first one undisturbed; the data dir is free again as soon as the owner is gone."""

from __future__ import annotations

import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from console_harness import ConsoleProcess, campfire_command, console_env, kill_leftover_redis

from adapters.console.run import already_running, shown_dir
from adapters.store import DataDirInUse, StoreSettings
from adapters.store.embedded import DataDirLocked


@pytest.fixture
def cwd(tmp_path: Path) -> Iterator[Path]:
    """The working directory of the processes; the data dir is its ``./data``."""
    yield tmp_path
    kill_leftover_redis(tmp_path / "data")


def run_once(cwd: Path, env: dict[str, str], script: str = "") -> subprocess.CompletedProcess[str]:
    """``campfire`` (no subcommand, as ``./run-bot`` runs it) with ``script`` piped in."""
    return subprocess.run(campfire_command(), input=script, cwd=cwd, env=env, text=True,
                          encoding="utf-8", capture_output=True, timeout=60, check=False)


def test_second_console_on_the_same_data_is_refused_in_one_line(cwd: Path) -> None:
    env = console_env()
    env.pop("CAMPFIRE_DATA_DIR", None)  # the default: ./data
    first = ConsoleProcess(cwd, env, name="first")
    try:
        assert "#" in first.step("anna: /new stone_age 3-3")

        second = run_once(cwd, env, "boris: /join\n")
        assert second.returncode == 1
        assert second.stdout == ""
        assert second.stderr == (
            f"Campfire is already running on ./data (pid {first.proc.pid}); "
            "stop it or set CAMPFIRE_DATA_DIR to use other data.\n")

        # The same with the data dir given explicitly, as typed.
        explicit = run_once(cwd, console_env(CAMPFIRE_DATA_DIR="data"))
        assert explicit.returncode == 1
        assert explicit.stderr.startswith("Campfire is already running on ./data (pid ")
        absolute = run_once(cwd, console_env(CAMPFIRE_DATA_DIR=str(cwd / "data")))
        assert absolute.returncode == 1
        assert f"running on {cwd / 'data'} (pid {first.proc.pid})" in absolute.stderr

        # The first console goes on as if nothing happened; boris's line never arrived.
        joined = first.step("boris: /join")
        assert "boris" in joined and "Traceback" not in first.stderr()
        first.kill()  # SIGKILL: no clean-up runs, the kernel drops the lock

        # The next console takes over at once and finds the table.
        third = run_once(cwd, env, "vera: /join\nanna: /games\n")
        assert third.returncode == 0, third.stderr
        assert third.stderr == ""
        assert "vera" in third.stdout
        # A clean exit frees the data dir too.
        fourth = run_once(cwd, env, "anna: /games\n")
        assert fourth.returncode == 0, fourth.stderr
    finally:
        if first.proc.poll() is None:
            first.proc.kill()
        first.close(timeout=5)


def test_other_data_dirs_run_side_by_side(cwd: Path) -> None:
    """The refusal is per data dir: CAMPFIRE_DATA_DIR elsewhere is the way out."""
    first = ConsoleProcess(cwd, console_env(CAMPFIRE_DATA_DIR="data"), name="first")
    try:
        first.step("anna: /games")
        other = run_once(cwd, console_env(CAMPFIRE_DATA_DIR="other"), "anna: /games\n")
        assert other.returncode == 0, other.stderr
        assert first.close() == 0, first.stderr()
    finally:
        kill_leftover_redis(cwd / "other")
        if first.proc.poll() is None:
            first.proc.kill()
            first.close(timeout=5)


def test_the_refusal_line() -> None:
    assert shown_dir(Path("data")) == "./data"
    assert shown_dir(Path("games/data")) == "./games/data"
    assert shown_dir(Path("../data")) == "../data"
    assert shown_dir(Path("~/campfire")) == "~/campfire"
    assert shown_dir(Path("/srv/campfire")) == "/srv/campfire"
    settings = StoreSettings(data_dir=Path("data"))
    assert already_running(settings, DataDirLocked(Path("/x/data"), 42)) == (
        "Campfire is already running on ./data (pid 42); "
        "stop it or set CAMPFIRE_DATA_DIR to use other data.")
    # Without a readable pid the line just leaves it out.
    assert already_running(settings, DataDirLocked(Path("/x/data"), None)) == (
        "Campfire is already running on ./data; "
        "stop it or set CAMPFIRE_DATA_DIR to use other data.")
    assert "(pid" not in already_running(settings, DataDirInUse("busy"))
