"""Display names on Discord are cleaned by the core, not by this edge: a lone
surrogate, control characters and a 200-character name open and join a table and are
shown cleaned."""

from __future__ import annotations

import logging

import pytest

from adapters.store import StoreSettings
from bot.identity import NAME_LIMIT
from bot.table.settings import meta_of
from tests.adapters.discord.harness import Table, buttons, running_bot, settle, token_field


async def test_odd_names_open_and_join_a_table_under_their_cleaned_names(
    store_settings: StoreSettings, caplog: pytest.LogCaptureFixture
) -> None:
    cleaned = {"Ann\ud800a": "Ann\ufffda", "Bo\x07ris\n\u202eK": "Bo ris K",
               "L" * 200: "L" * (NAME_LIMIT - 1) + "…"}
    async with running_bot(store_settings, seed=3) as bot:
        guild = bot.env.create_guild(name="Game night")
        channel = guild.create_text_channel("odd-names")
        members = [guild.add_member(bot.env.create_user(name)) for name in cleaned]
        table = Table(bot, channel, members)
        creator, *others = members
        with caplog.at_level(logging.ERROR):
            await table.slash(creator, "table new", game="stone_age", options="3-3")
            lobby = next(m for m in table.history()
                         if any(cid.startswith("cf:l.") for _, cid in buttons(m)))
            table.message_id = lobby.id
            table.table_id = token_field(buttons(lobby)[0][1].removeprefix("cf:"), 1)
            for member in others:
                result = await member.click(table.table_message,
                                            custom_id=table.lobby_button("join"))
                assert result.acknowledged
                await settle(bot)
        record = await bot.app.sv.store.get(table.table_id)
        assert sorted(meta_of(record).names.values()) == sorted(cleaned.values())
        shown = table.table_message.content.replace("\\", "")
        assert all(name in shown for name in cleaned.values()), shown
        assert [r for r in caplog.records if r.levelno >= logging.ERROR] == []
