"""A game defined only under ``tests/`` (``tests/tiny_game``) plays on the fake Telegram.

Hosted through the registries' hooks for the test alone, it is opened by ``/new`` with
its name, joined and started by buttons, played by the buttons of the table message and
of the players' private prompts, and ends in its own words. Nothing here names the game
(the shipped games have their own, longer whole-game tests).
"""

from __future__ import annotations

import random
from typing import cast

from adapters.store import GameStore
from bot.games import manifests
from bot.i18n.catalog import default_catalog
from bot.storage import TableStatus
from tests.adapters.telegram.e2e_helpers import GroupTable, StartBot, players
from tests.adapters.telegram.fake_api import FakeTelegram

MAX_PRESSES = 500


async def test_a_game_of_two_folders_plays_to_the_end_on_telegram(
    tg: FakeTelegram, start_bot: StartBot, own_game: str
) -> None:
    entry = manifests()[own_game]
    anna, boris = players(tg, "Anna", "Boris")
    group = tg.add_group("Pebbles", members=[anna, boris])
    async with start_bot() as running:
        running.app.sv.rng = random.Random(4)
        table = GroupTable(tg, running, group, [anna, boris])
        tid = await table.open(f"/new {own_game} 2 en")
        presses = await table.play_through(MAX_PRESSES, dm_after="group")

        final = tg.messages_in(group)[-1]
        lines = (final.text or "").splitlines()
        # The texts of a game hosted for this test alone: the catalog read now.
        catalog = default_catalog()
        title = catalog.plain("en", entry.title_code)
        assert lines[0] == catalog.plain("en", "result.header", game=title, table=tid)
        assert any(line.startswith("🏆") for line in lines)
        assert final.buttons == [] and table.table_message.buttons == []
        # The table's older message shows the result too, not the last prompt it asked.
        assert table.table_message.message_id != final.message_id
        assert table.table_message.text == final.text
        for user in (anna, boris):
            assert f"#{tid} has ended" in (tg.messages_in(user)[-1].text or "")
        record = await cast(GameStore, running.app.sv.store).get_archived(tid)
        assert record.status == TableStatus.FINISHED
        assert presses["group"] > 0 and presses["dm"] > 0, presses
        # Its result was kept and rated: the chat's leaderboard and a player's record.
        before = len(tg.messages_in(group))
        await table.say(anna, "/stats")
        await table.say(boris, "/stats me")
        board, mine = (m.text or m.caption or "" for m in tg.messages_in(group)[before:])
        assert catalog.plain("en", "stats.chat_header") in board and title in board
        assert "Anna" in board and "Boris" in board and "1 game" in board
        assert mine.startswith("📊 Boris") and title in mine and "rating" in mine
        assert tg.unanswered_callbacks == [] and tg.errors() == []
