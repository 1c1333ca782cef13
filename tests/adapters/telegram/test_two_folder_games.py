"""A game defined only under ``tests/`` (``tests/tiny_game``) plays on the fake Telegram.

Hosted through the registries' hooks for the test alone, it is opened by ``/new`` with
its name, joined and started by buttons, played by the buttons of the table message and
of the players' private prompts, and ends in its own words. Nothing here names the game
(the shipped games have their own, longer whole-game tests).
"""

from __future__ import annotations

import random
from typing import cast

import pytest

from adapters.store import GameStore
from bot.games import manifests
from bot.i18n.catalog import default_catalog
from bot.storage import TableStatus
from tests.adapters.telegram.e2e_helpers import GroupTable, StartBot
from tests.adapters.telegram.fake_api import FakeTelegram
from tests.tiny_game.hosting import GAMES

MAX_PRESSES = 500


@pytest.mark.parametrize("name", sorted(GAMES))
@pytest.mark.usefixtures("hosted_game")
async def test_a_game_of_two_folders_plays_to_the_end_on_telegram(
    tg: FakeTelegram, start_bot: StartBot, name: str
) -> None:
    entry = manifests()[name]
    anna, boris = (tg.add_user(n, username=n.lower()) for n in ("Anna", "Boris"))
    for user in (anna, boris):
        tg.user_starts_bot(user)
    group = tg.add_group("Pebbles", members=[anna, boris])
    async with start_bot() as running:
        running.app.sv.rng = random.Random(4)
        table = GroupTable(tg, running, group, [anna, boris])
        tid = await table.open(f"/new {name} 2 en")
        presses = await table.play_through(MAX_PRESSES, dm_after="group")

        final = tg.messages_in(group)[-1]
        lines = (final.text or "").splitlines()
        # The texts of a game hosted for this test alone: the catalog read now.
        catalog = default_catalog()
        title = catalog.plain("en", entry.title_code)
        assert lines[0] == catalog.plain("en", "result.header", game=title, table=tid)
        assert any(line.startswith("🏆") for line in lines)
        assert final.buttons == [] and table.table_message.buttons == []
        for user in (anna, boris):
            assert f"#{tid} has ended" in (tg.messages_in(user)[-1].text or "")
        record = await cast(GameStore, running.app.sv.store).get_archived(tid)
        assert record.status == TableStatus.FINISHED
        assert presses["group"] > 0 and presses["dm"] > 0, presses
        assert tg.unanswered_callbacks == [] and tg.errors() == []
