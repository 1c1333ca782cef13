"""The platform registry: ``campfire`` offers a command per platform, serves the
platforms whose tokens are set (the console when none), and one process serves any set
of them on one core, stopping them in reverse on SIGTERM."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from adapters.cli import _parser
from adapters.edge.registry import CONSOLE, PLATFORMS, Start, served_by_default
from adapters.edge.serve import serve, serve_main
from adapters.edge.settings import OpsEnv
from adapters.runtime import Core
from adapters.store import StoreSettings
from tests.adapters.ops.scrape import get
from tests.adapters.telegram.e2e_helpers import free_port


def test_every_platform_is_a_command() -> None:
    for name in PLATFORMS:
        assert _parser().parse_args([name]).command == name
    assert _parser().parse_args(["console", "--seed", "7"]).seed == 7


def test_the_tokens_set_choose_what_is_served() -> None:
    assert served_by_default({}) == [CONSOLE]
    assert served_by_default({"TELEGRAM_TOKEN": "t"}) == ["telegram"]
    assert served_by_default({"DISCORD_TOKEN": "d"}) == ["discord"]
    assert served_by_default({"DISCORD_TOKEN": "d", "TELEGRAM_TOKEN": "t"}) == [
        "telegram", "discord"]
    assert served_by_default({"TELEGRAM_TOKEN": ""}) == [CONSOLE]


def test_a_platform_without_its_token_is_one_line(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    assert serve_main(["discord"]) == 2
    assert capsys.readouterr().err == "DISCORD_TOKEN is not set\n"


async def test_one_process_serves_any_set_of_platforms_on_one_core(tmp_path: Path) -> None:
    seen: list[str] = []
    cores: list[Core] = []

    def platform(name: str) -> Start:
        @contextlib.asynccontextmanager
        async def start(core: Core) -> AsyncIterator[None]:
            cores.append(core)
            seen.append(f"{name} up")
            try:
                yield
            finally:
                seen.append(f"{name} down")
        return start

    async def stop_once_up() -> None:
        while len(seen) < 2:
            await asyncio.sleep(0.01)
        os.kill(os.getpid(), signal.SIGTERM)

    stopper = asyncio.create_task(stop_once_up())
    await asyncio.wait_for(serve([platform("a"), platform("b")], ["A", "B"],
                                 StoreSettings(data_dir=tmp_path / "data")), 60)
    await stopper
    assert seen == ["a up", "b up", "b down", "a down"]
    assert cores[0] is cores[1]


async def test_the_operators_endpoints_are_served_beside_the_platforms(
        tmp_path: Path) -> None:
    port = free_port()
    answers: dict[str, int] = {}

    @contextlib.asynccontextmanager
    async def quiet(core: Core) -> AsyncIterator[None]:
        yield

    async def probe_then_stop() -> None:
        deadline = asyncio.get_running_loop().time() + 30
        while "/readyz" not in answers:
            assert asyncio.get_running_loop().time() < deadline, "no endpoints"
            try:
                for path in ("/healthz", "/readyz"):
                    answers[path] = (await get(port, path))[0]
            except OSError:  # not listening yet
                await asyncio.sleep(0.05)
        os.kill(os.getpid(), signal.SIGTERM)

    prober = asyncio.create_task(probe_then_stop())
    await asyncio.wait_for(serve([quiet], ["Q"], StoreSettings(data_dir=tmp_path / "data"),
                                 ops=OpsEnv(listen=f"127.0.0.1:{port}")), 60)
    await prober
    assert answers == {"/healthz": 200, "/readyz": 200}
    with pytest.raises(OSError):  # stopped with the bot
        await get(port, "/healthz")
