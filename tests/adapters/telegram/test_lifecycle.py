"""Starting and stopping the Telegram service (adapters/telegram/service.py).

Start-up calls the bot can serve without (the command menus) are best effort: a
``setMyCommands`` that fails — a server error, Telegram's refusal, a dropped connection
— is one warning, and the bot serves. Stopping is graceful: no more updates are taken,
the ones under way finish within the grace period or are handed back and handled at
the next start, and nothing is answered twice. The whole process on SIGTERM is in
``test_sigterm.py``.

Nothing here measures time: handlers are held and released by events; the grace
periods are bounds the tests never assert.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import pytest
from aiohttp import ClientSession

from adapters.telegram.service import SECRET_HEADER, RunningTelegram
from bot.input.commands import COMMANDS
from bot.storage import TableStatus
from tests.adapters.telegram.e2e_helpers import (
    GroupTable,
    StartBot,
    en,
    free_port,
    settle,
    wait_until,
)
from tests.adapters.telegram.fake_api import ALWAYS, NETWORK, FakeTelegram, FakeUser


def users(tg: FakeTelegram, *names: str) -> list[FakeUser]:
    return [tg.add_user(name, username=name.lower()) for name in names]


# --------------------------------------------------------------------------- start-up


@pytest.mark.parametrize(("code", "status"), [(500, "500"), (400, "400"),
                                              (NETWORK, "network error")],
                         ids=["http500", "http400", "network"])
async def test_start_up_survives_failing_command_menus(
    tg: FakeTelegram, start_bot: StartBot, caplog: pytest.LogCaptureFixture, code: int,
    status: str,
) -> None:
    """``setMyCommands`` fails every time: one warning naming the method and the
    status, no menus, and the bot serves: a lobby opens and its buttons work."""
    if code == NETWORK:
        tg.drop_next("setMyCommands", times=ALWAYS)
    else:
        tg.fail_next("setMyCommands", code, times=ALWAYS)
    anna, boris = users(tg, "Anna", "Boris")
    group = tg.add_group("Game night", members=[anna, boris])
    caplog.set_level(logging.INFO)
    async with start_bot() as running:
        assert tg.my_commands("all_group_chats", "en") == []
        table = GroupTable(tg, running, group, [anna, boris])
        lobby = await table.open_lobby("/new stone_age 2-2")  # Boris joins by button
        query = await table.press(anna, lobby, table.button(lobby, "start"))
        assert query.answer is not None and not query.answer.show_alert
        record = await table.record()
        assert record.status == TableStatus.RUNNING
        assert sorted(record.seats) == sorted([f"tg:{anna.id}", f"tg:{boris.id}"])
    warnings = [r.getMessage() for r in caplog.records
                if r.levelno >= logging.WARNING and "setMyCommands" in r.getMessage()]
    assert len(warnings) == 1, warnings
    assert f"setMyCommands failed ({status}" in warnings[0]
    tried = tg.calls_to("setMyCommands")
    # A refusal does not stop the other menus; server trouble stops at the first.
    assert len(tried) == (5 if code == 400 else 1)
    assert f"{len(tried) if code == 400 else 5} of 5 command menus not set" in warnings[0]


async def test_menus_set_after_a_failed_start(tg: FakeTelegram, start_bot: StartBot) -> None:
    """The next start sets the menus once the server takes them again."""
    tg.fail_next("setMyCommands", 500)
    async with start_bot():
        assert tg.my_commands("all_group_chats", "en") == []
    async with start_bot():
        assert [name for name, _ in tg.my_commands("all_group_chats", "en")] == list(COMMANDS)


# --------------------------------------------------------------------------- stopping


class Held:
    """Stands in for ``Campfire.on_text``: a text in ``texts`` waits until released;
    everything else goes to the real handler."""

    def __init__(self, running: RunningTelegram, *texts: str) -> None:
        self.real = running.app.on_text
        self.texts = set(texts)
        self.release = asyncio.Event()
        self.entered = 0
        self.finished = 0

    async def __call__(self, chat: Any, user: Any, text: str, **kwargs: Any) -> Any:
        if text in self.texts:
            self.entered += 1
            await self.release.wait()
            result = await self.real(chat, user, text, **kwargs)
            self.finished += 1
            return result
        return await self.real(chat, user, text, **kwargs)


def answers(tg: FakeTelegram, where: Any, text: str) -> int:
    return sum(1 for m in tg.messages_in(where) if m.text == text)


async def test_an_update_still_running_at_shutdown_is_handed_back_to_the_next_start(
    tg: FakeTelegram, start_bot: StartBot, monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """A command whose handling outlasts the grace period is cancelled and kept: Telegram
    will not send it again (polling confirmed it), the next start handles it, once."""
    (anna,) = users(tg, "Anna")
    group = tg.add_group("Game night", members=[anna])
    caplog.set_level(logging.INFO)
    async with start_bot(shutdown_grace_s=0.05) as running:
        held = Held(running, "/games")
        monkeypatch.setattr(running.app, "on_text", held)
        tg.user_says(anna, group, "/games")
        await wait_until(lambda: held.entered == 1, 10.0, "the handler to start")
    assert held.finished == 0 and tg.messages_in(group) == []
    assert tg.pending_updates == []  # confirmed to Telegram: it will not come again
    assert any("handed back" in r.getMessage() for r in caplog.records
               if r.levelno >= logging.WARNING)

    async with start_bot() as running:
        await wait_until(lambda: answers(tg, group, en("cmd.no_tables")) == 1, 10.0,
                         "the answer after the restart")
        await settle(running, tg)
        assert await running.inbound.handed_back() == []
    assert answers(tg, group, en("cmd.no_tables")) == 1


async def test_an_update_under_way_finishes_before_the_bot_stops(
    tg: FakeTelegram, start_bot: StartBot, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Stopping waits (within the grace period) for a command being handled: it
    finishes, is not handed back, and its answer arrives once — at the latest after the
    next start, from the outbox."""
    (anna,) = users(tg, "Anna")
    group = tg.add_group("Game night", members=[anna])
    stack = start_bot(shutdown_grace_s=30.0)
    running = await stack.__aenter__()
    try:
        held = Held(running, "/games")
        monkeypatch.setattr(running.app, "on_text", held)
        tg.user_says(anna, group, "/games")
        await wait_until(lambda: held.entered == 1, 10.0, "the handler to start")
    except BaseException:
        await stack.__aexit__(None, None, None)
        raise
    stopping = asyncio.create_task(stack.__aexit__(None, None, None))
    application = running.application
    await wait_until(lambda: application.updater is not None
                     and not application.updater.running, 10.0, "polling to stop")
    assert not stopping.done()  # it waits for the handler
    tg.user_says(anna, group, "/help")  # not taken: polling has stopped
    held.release.set()
    await asyncio.wait_for(stopping, 30.0)  # a safety net only
    assert held.finished == 1
    assert len(tg.pending_updates) == 1  # /help waits at Telegram for the next start

    async with start_bot() as running:
        assert await running.inbound.handed_back() == []
        await wait_until(lambda: answers(tg, group, en("cmd.no_tables")) == 1
                         and len(tg.messages_in(group)) == 2, 10.0, "both answers")
        await settle(running, tg)
    assert answers(tg, group, en("cmd.no_tables")) == 1


async def test_a_webhook_stops_taking_updates_while_it_winds_down(
    tg: FakeTelegram, start_bot: StartBot, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """In webhook mode an update arriving while the bot stops is answered 503 (Telegram
    sends it again later, or to another worker); the one under way finishes."""
    (anna,) = users(tg, "Anna")
    group = tg.add_group("Game night", members=[anna])
    port = free_port()
    url = f"http://127.0.0.1:{port}/tg"
    stack = start_bot(webhook_url=url, webhook_secret="s1", listen="127.0.0.1", port=port,
                      shutdown_grace_s=30.0)
    running = await stack.__aenter__()
    try:
        held = Held(running, "/games")
        monkeypatch.setattr(running.app, "on_text", held)
        tg.user_says(anna, group, "/games")
        first = asyncio.create_task(tg.deliver_webhook())
        await wait_until(lambda: held.entered == 1, 10.0, "the handler to start")
    except BaseException:
        await stack.__aexit__(None, None, None)
        raise
    stopping = asyncio.create_task(stack.__aexit__(None, None, None))
    later = tg.user_says(anna, group, "/help")
    payload = next(u for u in tg.pending_updates if u["update_id"] == later.update_id)
    async with ClientSession() as http:
        status = None
        for _ in range(1000):  # until the bot has begun to stop; a safety net only
            async with http.post(url, json=payload, headers={SECRET_HEADER: "s1"}) as r:
                status = r.status
            if status == 503:
                break
            await asyncio.sleep(0.01)
    assert status == 503
    held.release.set()
    delivered, *after = await asyncio.wait_for(first, 30.0)  # safety nets only
    await asyncio.wait_for(stopping, 30.0)
    assert delivered.status == 200 and held.finished == 1
    # What the fake offered next (/help) was not taken: refused, or nobody listening.
    assert all(d.status is None or d.status >= 500 for d in after)
    assert [u["update_id"] for u in tg.pending_updates] == [later.update_id]
