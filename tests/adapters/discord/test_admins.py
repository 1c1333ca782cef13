"""Admin rights on Discord through the core's AdminPort: a member with Manage Messages
may end someone else's game, a plain member may not, and the port asks Discord when
the interaction reported nothing."""

from __future__ import annotations

import discord
import pytest

from adapters.discord.admins import DiscordAdmins
from adapters.discord.ids import chat_key, user_key
from adapters.store import StoreSettings
from bot.identity import Chat, User
from bot.storage import TableNotFound, TableStatus
from tests.adapters.discord.harness import Table, running_bot


async def test_a_moderator_may_abort_another_members_game_and_a_plain_member_may_not(
    store_settings: StoreSettings,
) -> None:
    async with running_bot(store_settings, seed=238) as bot:
        guild = bot.env.create_guild(name="Game night")
        channel = guild.create_text_channel("games")
        mods = guild.create_role("mods", permissions=discord.Permissions(manage_messages=True))
        anna, boris, vera = (guild.add_member(bot.env.create_user(n)) for n in
                             ("Anna", "Boris", "Vera"))
        moderator = guild.add_member(bot.env.create_user("Mod"), roles=[mods])
        table = Table(bot, channel, [anna, boris, vera])
        await table.open("stone_age")
        assert isinstance(bot.app.sv.admins, DiscordAdmins)

        refused = await table.slash(vera, "table abort", table=table.table_id, confirm="yes")
        assert refused.acknowledged
        assert (await bot.app.sv.store.get(table.table_id)).status is TableStatus.RUNNING

        ended = await table.slash(moderator, "table abort", table=table.table_id,
                                  confirm="yes")
        assert ended.acknowledged
        with pytest.raises(TableNotFound):  # ended and archived
            await bot.app.sv.store.get(table.table_id)


async def test_the_port_asks_discord_when_the_interaction_reported_no_rights(
    store_settings: StoreSettings,
) -> None:
    async with running_bot(store_settings) as bot:
        guild = bot.env.create_guild(name="Game night")
        channel = guild.create_text_channel("games")
        mods = guild.create_role("mods", permissions=discord.Permissions(manage_messages=True))
        plain = guild.add_member(bot.env.create_user("Plain"))
        moderator = guild.add_member(bot.env.create_user("Mod"), roles=[mods])
        here = Chat(id=chat_key(channel.id), title="games")
        admins = bot.app.sv.admins
        assert await admins.is_admin(here, User(id=user_key(moderator.id), name="Mod"))
        assert not await admins.is_admin(here, User(id=user_key(plain.id), name="Plain"))
        dm = Chat(id=chat_key(channel.id), private=True)
        assert not await admins.is_admin(dm, User(id=user_key(moderator.id), name="Mod"))
        # Another platform's chat is not Discord's question.
        other = Chat(id="tg:-100", title="x")
        assert not await admins.is_admin(other, User(id="tg:1", name="T"))
        assert await admins.is_admin(other, User(id="tg:1", name="T", is_admin=True))
