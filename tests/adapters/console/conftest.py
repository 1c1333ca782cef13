"""Fixtures of the console tests: a console chat in this process."""

from __future__ import annotations

import io
import random
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
from console_harness import Session, Terminal, console_env, console_session, kill_leftover_redis
from console_typist import Typist

from adapters.console.chat import ConsoleChat
from adapters.runtime import running_core
from adapters.store import StoreSettings


@pytest.fixture
async def ru_session(tmp_path: Path) -> AsyncIterator[Session]:
    """A console whose users speak Russian, on a fresh embedded Redis (seat order and
    seed are seeded)."""
    async with console_session(tmp_path, "ru") as s:
        yield s


@pytest.fixture
async def en_session(tmp_path: Path) -> AsyncIterator[Session]:
    """A console whose users speak English, on a fresh embedded Redis."""
    async with console_session(tmp_path, "en") as s:
        yield s


@pytest.fixture
async def typist(tmp_path: Path) -> AsyncIterator[Typist]:
    """A console chat with pictures on a fresh embedded Redis; seat order is seeded."""
    async with running_core(StoreSettings(data_dir=tmp_path / "data"), pictures=True) as core:
        app = core.app
        app.sv.rng = random.Random(5)
        chat = ConsoleChat.on(core, io.StringIO(), tmp_path / "pictures", lang="ru")
        yield Typist(app, chat, tmp_path / "pictures")


@pytest.fixture
def terminal(tmp_path: Path) -> Iterator[Terminal]:
    """A console at a terminal, data in ``<tmp>/data``; killed at the end if need be."""
    term = Terminal(tmp_path, console_env(CAMPFIRE_DATA_DIR=str(tmp_path / "data")))
    yield term
    term.end()
    kill_leftover_redis(tmp_path / "data")
