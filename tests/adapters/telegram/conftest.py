"""Fixtures for the Telegram end-to-end tests: a fake Bot API, Redis, and our running bot.

Everything talks real HTTP on 127.0.0.1: python-telegram-bot inside ``running_telegram``
polls (or receives webhooks from) ``FakeTelegram``. Redis is one embedded server per
session (or ``REDIS_URL``); each test keeps to its own key prefix (both fixtures in
``tests/adapters/conftest.py``).
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from adapters.delivery.sender import Sender
from adapters.edge.settings import WebEnv
from adapters.store import StoreSettings
from adapters.store.testing import external_redis_url, unique_prefix
from adapters.telegram.service import RunningTelegram, running_telegram
from adapters.telegram.settings import TelegramSettings
from tests.adapters.telegram.e2e_helpers import ManualClock, StartBot
from tests.adapters.telegram.fake_api import FakeTelegram

#: The sender looks at an idle outbox every 50 ms (``Sender.run(idle_s=0.05)``, not a
#: setting). Each move of an 800-move game waits for that once, so the tests look
#: every 5 ms instead; everything else runs as in production.
SENDER_IDLE_S = 0.005

#: Limits generous enough that only the rate-limit tests ever meet them.
FAST: dict[str, Any] = {
    "group_per_window": 10_000, "group_window_s": 1.0,
    "private_per_window": 10_000, "private_window_s": 1.0,
    "global_per_second": 10_000, "due_every_s": 0.1,
}


@pytest.fixture
def manual_clock() -> ManualClock:
    """The fake's clock; a test that hands it to the bot too (``start_bot(clock=...)``)
    sees rate windows and Telegram's waits in exact, test-made time."""
    return ManualClock()


@pytest.fixture
async def tg(manual_clock: ManualClock) -> AsyncIterator[FakeTelegram]:
    """The fake Bot API on an ephemeral loopback port."""
    async with FakeTelegram(clock=manual_clock) as fake:
        yield fake


@pytest.fixture
def settings(tg: FakeTelegram) -> TelegramSettings:
    """Long polling against the fake, with limits out of the way."""
    return TelegramSettings(token=tg.token, base_url=tg.base_url,
                            base_file_url=tg.base_file_url, **FAST)


@pytest.fixture
def quick_sender(monkeypatch: pytest.MonkeyPatch) -> None:
    """Sender loops started in this test poll an idle outbox every ``SENDER_IDLE_S``."""
    original = Sender.run

    async def run(self: Sender, stop: Any, idle_s: float = SENDER_IDLE_S) -> None:
        await original(self, stop, idle_s)

    monkeypatch.setattr(Sender, "run", run)


@pytest.fixture
def start_bot(
    settings: TelegramSettings, store_settings: StoreSettings, quick_sender: None
) -> StartBot:
    """``async with start_bot(**overrides) as running:`` our bot on the fake and this
    test's storage; keyword arguments replace settings fields (``clock``, ``pictures``
    and ``web`` go to ``running_telegram``, ``store`` replaces the storage)."""

    @contextlib.asynccontextmanager
    async def start(clock: Callable[[], float] = time.time, pictures: bool = False,
                    store: StoreSettings | None = None, web: WebEnv | None = None,
                    **overrides: Any) -> AsyncIterator[RunningTelegram]:
        async with running_telegram(replace(settings, **overrides), store or store_settings,
                                    clock=clock, pictures=pictures, web=web) as running:
            yield running

    return start


@pytest.fixture
def own_store_settings(tmp_path: Path, store_settings: StoreSettings) -> StoreSettings:
    """Storage that a restart really restarts: an embedded Redis of this test's own data
    dir, started and stopped with the bot (with ``REDIS_URL``: the test's prefix there)."""
    if external_redis_url() is not None:
        return store_settings
    return StoreSettings(data_dir=tmp_path / "data", key_prefix=unique_prefix(),
                         fsync="everysec")
