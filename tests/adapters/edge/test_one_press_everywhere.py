"""One button press through every platform of the registry, each driven the way its
own end-to-end tests drive it (the console's lines, fake Telegram over local HTTP,
simcord's Discord): the press runs the shared sequence (``handle_press``) and does
what it says (a second player joins the table).

A platform added to the registry without a driver here fails
``test_every_platform_has_a_driver``.
"""

from __future__ import annotations

import io
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path

import aiohttp
import pytest

from adapters.console.chat import GROUP, ConsoleChat, console_user
from adapters.delivery import handling
from adapters.edge.registry import PLATFORMS
from adapters.edge.settings import WebEnv
from adapters.runtime import running_core
from adapters.store import StoreSettings
from adapters.telegram.service import running_telegram
from adapters.telegram.settings import TelegramSettings
from adapters.web.service import pages_on
from bot.app import Campfire
from bot.identity import Chat, User
from bot.storage.ports import ScriptPart
from bot.table.settings import meta_of
from bot.ui.message import Reply
from tests.adapters.discord import harness as simcord_harness
from tests.adapters.telegram.e2e_helpers import GroupTable
from tests.adapters.telegram.fake_api import FakeTelegram

#: Who opens the table, and who joins it by its button.
OPENER, JOINER = "Anna", "Boris"
#: A driver opens a two-seat table as OPENER, has JOINER press its Join button and
#: returns the names seated then.
Driver = Callable[[StoreSettings, Path], Awaitable[set[str]]]


async def seated(app: Campfire, chat_id: str) -> set[str]:
    """The names of the players seated at the one table of ``chat_id``."""
    (table,) = await app.sv.store.tables_in_chat(chat_id)
    return set(meta_of(await app.sv.store.get(table.table_id)).names.values())


async def on_console(store: StoreSettings, tmp_path: Path) -> set[str]:
    async with running_core(store, pictures=False) as core:
        app = core.app
        console = ConsoleChat.on(core, io.StringIO(), tmp_path / "pictures", lang="en")
        await console.handle_line(f"{OPENER}: /new stone_age 2-2 en")
        joiner = console_user(JOINER, "en")
        lobby = [await console.pressable(joiner, str(n)) for n in range(1, 10)]
        join = next(n for n, b in enumerate(lobby, 1) if b and ".join." in b.token)
        await console.handle_line(f"{JOINER}: {join}")
        return await seated(app, GROUP.id)


async def on_telegram(store: StoreSettings, tmp_path: Path) -> set[str]:
    del tmp_path
    async with FakeTelegram() as tg:
        opener, joiner = tg.add_user(OPENER), tg.add_user(JOINER)
        group = tg.add_group("Game night", members=[opener, joiner])
        settings = TelegramSettings(token=tg.token, base_url=tg.base_url,
                                    base_file_url=tg.base_file_url)
        async with running_telegram(settings, store, pictures=False) as running:
            table = GroupTable(tg, running, group, [opener, joiner])
            await table.open_lobby("/new stone_age 2-2 en")  # joined by its button
            return await seated(running.app, f"tg:{group.id}")


async def on_discord(store: StoreSettings, tmp_path: Path) -> set[str]:
    del tmp_path
    async with simcord_harness.running_bot(store) as bot:
        guild = bot.env.create_guild(name="Game night")
        channel = guild.create_text_channel("table")
        opener, joiner = (guild.add_member(bot.env.create_user(n)) for n in (OPENER, JOINER))
        table = simcord_harness.Table(bot, channel, [opener, joiner])
        await table.slash(opener, "table new", game="stone_age", options="2-2")
        lobby = next(m for m in table.history()
                     if any(cid.startswith("cf:l.") for _, cid in simcord_harness.buttons(m)))
        table.message_id = lobby.id
        result = await joiner.click(lobby, custom_id=table.lobby_button("join"))
        assert result.acknowledged
        await simcord_harness.settle(bot)
        return await seated(bot.app, f"dc:{channel.id}")


async def on_web(store: StoreSettings, tmp_path: Path) -> set[str]:
    """The opener in a Telegram group (no Telegram served here: its messages wait in
    the outbox); the joiner taps Join on the table's page, through their own link."""
    del tmp_path
    web = WebEnv(url="http://pages.test", port=0)
    async with running_core(store, pictures=False, web=web) as core, \
            pages_on(core, web, None) as port:
        app, group = core.app, Chat(id="tg:-1001", title="Game night")
        await app.on_text(group, User("tg:1", OPENER, "en"), "/new stone_age 2-2 en")
        (table,) = await app.sv.store.tables_in_chat(group.id)
        assert app.sv.pages is not None
        link = app.sv.pages.link("tg:2", JOINER, table.table_id)
        token = link.partition("?k=")[2]
        async with aiohttp.ClientSession(f"http://127.0.0.1:{port}") as http:
            async with http.get(f"/api/t/{table.table_id}", params={"k": token}) as got:
                page = await got.json()
            join = next(i["token"] for i in page["lobby"]["items"] if ".join." in i["token"])
            async with http.post(f"/api/t/{table.table_id}/press", params={"k": token},
                                 json={"token": join}) as pressed:
                assert pressed.status == 200
        return await seated(app, group.id)


DRIVERS: dict[str, Driver] = {"console": on_console, "telegram": on_telegram,
                              "discord": on_discord, "web": on_web}


def test_every_platform_has_a_driver() -> None:
    assert set(DRIVERS) == set(PLATFORMS)


@pytest.mark.parametrize("platform", list(PLATFORMS))
async def test_a_press_runs_the_shared_sequence(
        platform: str, store_settings: StoreSettings, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    pressed: list[Reply] = []
    settle_of = handling.settle_of

    def watched(reply: Reply, settle_part: handling.SettlePart | None) -> ScriptPart | None:
        # Asked by every sequence as it hands a reply over; noted for a press's.
        if sys._getframe(1).f_code is handling.handle_press.__code__:
            pressed.append(reply)
        return settle_of(reply, settle_part)

    monkeypatch.setattr(handling, "settle_of", watched)
    assert await DRIVERS[platform](store_settings, tmp_path) == {OPENER, JOINER}
    (reply,) = pressed
    assert not reply.alert
