"""Presses and commands on Discord, through simcord: refusals are ephemeral and change
nothing, buttons outlive a restart, reminders come by DM (or one mention when DMs are
closed), slow work is deferred within the deadline, commands are localised, autocomplete
and threads work, and the commands sync once per deploy."""

from __future__ import annotations

import asyncio
from typing import Any

import simcord

from adapters.store import StoreSettings
from bot.app import Campfire
from bot.ui.message import Reply
from tests.adapters.discord.harness import (
    Bot,
    Table,
    answered_in_time,
    buttons,
    choices,
    close_dms,
    forged_click,
    restart,
    ru_locale,
    running_bot,
    settle,
    token_field,
)


def world(bot: Bot, *names: str) -> tuple[simcord.ChannelHandle, list[simcord.MemberActor]]:
    """A server with a channel and members."""
    guild = bot.env.create_guild(name="Game night")
    channel = guild.create_text_channel("games")
    return channel, [guild.add_member(bot.env.create_user(n)) for n in names]


async def started(bot: Bot, *names: str, **options: Any) -> Table:
    """A Stone Age table opened, joined and started by ``names``."""
    channel, members = world(bot, *names)
    table = Table(bot, channel, members)
    await table.open("stone_age", **options)
    return table


async def table_with_closed_dms(bot: Bot) -> tuple[Table, simcord.MemberActor]:
    """A Stone Age table of three, reminders after an hour, whose third member allows
    no DMs from the server."""
    channel, members = world(bot, "Anna", "Boris", "Vera")
    close_dms(bot.env, members[2])
    table = Table(bot, channel, members)
    await table.open("stone_age", options="remind=1h")
    return table, members[2]


def snapshot(table: Table) -> tuple[str, list[Any]]:
    """What the table's message shows."""
    message = table.table_message
    return message.content, choices(message)


async def play(table: Table, moves: int) -> None:
    """``moves`` moves by the players asked."""
    for _ in range(moves):
        found = table.next_choice()
        assert found is not None
        result = await table.choose(*found)
        assert result.acknowledged and not (result.response and result.response.ephemeral)


async def test_stale_foreign_and_forged_presses_are_refused_privately_and_change_nothing(
    store_settings: StoreSettings,
) -> None:
    async with running_bot(store_settings, seed=238) as bot:
        table = await started(bot, "Anna", "Boris", "Vera")
        found = table.next_choice()
        while found is not None and found[2][2] is not None:
            # A choice in a select menu (a placement among many): buttons are tested here.
            await table.choose(*found)
            found = table.next_choice()
        assert found is not None
        member, message, choice = found
        old_token = choice[1]
        other = next(m for m in table.seats if m is not member)
        version = (await bot.app.sv.store.get(table.table_id)).version
        before = snapshot(table)

        # Another member's button.
        refused = await other.click(message, custom_id="cf:" + old_token)
        assert refused.acknowledged and refused.ephemeral
        assert refused.response is not None
        assert refused.response.content == f"This button is for {member.name}."
        # A forged custom_id (the signature altered) and one not even shaped like a token.
        forged = old_token[:-3] + ("aaa" if not old_token.endswith("aaa") else "bbb")
        for custom_id in ("cf:" + forged, "cf:m.zz.1"):
            result = await forged_click(member, message, custom_id)
            assert result.acknowledged and result.ephemeral, custom_id
        assert snapshot(table) == before
        assert (await bot.app.sv.store.get(table.table_id)).version == version

        # A stale button: the move is made, then its old custom_id is pressed again.
        await table.choose(member, message, choice)
        after = snapshot(table)
        version = (await bot.app.sv.store.get(table.table_id)).version
        stale = await forged_click(member, table.table_message, "cf:" + old_token)
        assert stale.acknowledged and stale.ephemeral
        # The core knows this very press was applied: it says so, and nothing changes.
        assert stale.response is not None and "already saved" in stale.response.content
        assert snapshot(table) == after
        assert (await bot.app.sv.store.get(table.table_id)).version == version
        assert answered_in_time(table.results)


async def test_a_restart_mid_game_continues_and_old_buttons_still_work(
    store_settings: StoreSettings,
) -> None:
    async with running_bot(store_settings, seed=238) as bot:
        assert bot.client.synced is True  # the first start of this deploy syncs
        table = await started(bot, "Anna", "Boris", "Vera")
        await play(table, 12)
        version = (await bot.app.sv.store.get(table.table_id)).version
        message_id = table.message_id

        await restart(bot)  # a new process on the same Redis
        assert bot.client.synced is False  # same command tree: no second sync
        # The same message, its buttons (made before the restart) pressed afterwards.
        await play(table, 12)
        assert table.message_id == message_id
        assert (await bot.app.sv.store.get(table.table_id)).version > version
        assert answered_in_time(table.results)


async def test_a_reminder_comes_by_dm_and_closed_dms_get_one_mention(
    store_settings: StoreSettings,
) -> None:
    async with running_bot(store_settings, seed=238) as bot:
        table, closed = await table_with_closed_dms(bot)
        members = table.members
        await play(table, 4)  # the closed member's turns came and went
        while (found := table.next_choice()) is not None and found[0] is closed:
            await play(table, 1)
        assert found is not None
        # The member asked now can be reached: they hear a reminder an hour later.
        asked = found[0]
        before = {m.id: len(table.dm(m)) for m in members}
        bot.clock.now += 3 * 3600
        await bot.client.run_due()
        await settle(bot)
        reminded = [m for m in members if len(table.dm(m)) > before[m.id]]
        assert reminded == [asked]
        assert table.dm(asked)[-1].content.startswith("⏰ Reminder")
        # The member with closed DMs was asked once in the channel, by mention, however
        # many DMs failed.
        mentions = [m for m in table.history() if closed.mention in m.content]
        assert len(mentions) == 1
        assert "cannot send you direct messages" in mentions[0].content
        assert "then use /table turn to get your turn" in mentions[0].content
        assert table.dm(closed) == []


async def test_a_member_with_closed_dms_is_refused_one_dm_a_game(
    store_settings: StoreSettings,
) -> None:
    """Discord counts refused requests against the bot: after the first 50007 the member
    is sent nothing unasked, while the game goes on in the channel."""
    async with running_bot(store_settings, seed=238) as bot:
        table, closed = await table_with_closed_dms(bot)
        members = table.members
        await play(table, 40)  # the closed member's turns came and went, many times
        bot.clock.now += 3 * 3600  # and reminders fell due
        await bot.client.run_due()
        await settle(bot)
        await play(table, 10)
        await settle(bot)
        dm_path = f"/channels/{closed.user.dm_channel.id}/messages"
        tried = [r for r in bot.env.http_requests if r.method == "POST" and r.path == dm_path]
        assert len(tried) == 1, [r.path for r in tried]
        others = [m for m in members if m is not closed]
        assert all(table.dm(m) for m in others)  # the others still hear by DM


async def test_a_stranger_naming_a_table_of_another_server_is_refused_privately(
    store_settings: StoreSettings,
) -> None:
    async with running_bot(store_settings, seed=238) as bot:
        table = await started(bot, "Anna", "Boris")
        elsewhere = bot.env.create_guild(name="Elsewhere")
        their_channel = elsewhere.create_text_channel("chat")
        stranger = elsewhere.add_member(bot.env.create_user("Stranger"))
        away = Table(bot, their_channel, [stranger])
        for command in ("table board", "table status"):
            result = await away.slash(stranger, command, table=table.table_id)
            assert result.response is not None and result.response.ephemeral, command
            assert f"#{table.table_id}" in result.response.content
            assert away.history() == []  # nothing was posted in their channel


async def test_slow_work_is_deferred_within_the_deadline(store_settings: StoreSettings) -> None:
    async with running_bot(store_settings, seed=238) as bot:
        table = await started(bot, "Anna", "Boris", "Vera")
        original = Campfire.on_press

        async def slow(self: Campfire, *args: Any) -> Reply:
            await asyncio.sleep(2.0)  # longer than the client waits before deferring
            return await original(self, *args)

        bot.app.on_press = slow.__get__(bot.app)  # type: ignore[method-assign]
        member, message, choice = table.next_choice()  # type: ignore[misc]
        before = table.table_message.content
        result = await table.choose(member, message, choice)
        assert result.acknowledged and result.deferred
        assert table.table_message.content != before  # the move still shows, by an edit


async def test_commands_are_localised_for_a_russian_client(
    store_settings: StoreSettings,
) -> None:
    async with running_bot(store_settings) as bot:
        registered = {c["name"]: c for c in bot.env.backend.commands[None].values()}
        assert registered["table"]["name_localizations"] == {"ru": "стол"}
        new = next(o for o in registered["table"]["options"] if o["name"] == "new")
        assert new["name_localizations"] == {"ru": "новая"}
        game = next(o for o in new["options"] if o["name"] == "game")
        assert game["name_localizations"] == {"ru": "игра"}
        assert game["description_localizations"]["ru"] == "Какая игра"
        assert registered["rules"]["name_localizations"] == {"ru": "правила"}

        channel, (olga, ann) = world(bot, "Olga", "Ann")
        ru_locale(bot.env, [olga])
        table = Table(bot, channel, [olga, ann])
        await table.slash(olga, "table new", game="stone_age")
        lobby = table.history()[-1]
        assert "Каменный век" in lobby.content, lobby.content
        help_ = await table.slash(olga, "help")
        assert help_.response is not None and "команды" in help_.response.content.lower()


async def test_autocomplete_offers_games_tables_and_topics(
    store_settings: StoreSettings,
) -> None:
    async with running_bot(store_settings, seed=238) as bot:
        table = await started(bot, "Anna", "Boris", "Vera")
        anna = table.members[0]
        games = await anna.autocomplete(table.channel, "table new", "game", "sto")
        assert [c["value"] for c in games] == ["stone_age"]
        tables = await anna.autocomplete(table.channel, "table status", "table", "")
        assert [c["value"] for c in tables] == [table.table_id]
        topics = await anna.autocomplete(table.channel, "rules", "words", "tool")
        assert topics and all(c["name"] for c in topics)
        result = await table.slash(anna, "rules", words=topics[0]["value"])
        assert result.response is not None and topics[0]["value"] in result.response.content


async def test_a_table_can_live_in_a_thread(store_settings: StoreSettings) -> None:
    async with running_bot(store_settings) as bot:
        channel, (anna, boris) = world(bot, "Anna", "Boris")
        result = await anna.slash(channel, "table new", game="stone_age", thread=True)
        assert result.acknowledged
        await settle(bot)
        threads = channel.threads
        assert len(threads) == 1
        lobby = threads[0].history()[-1]
        assert any(cid.startswith("cf:l.") for _, cid in buttons(lobby))
        join = next(cid for _, cid in buttons(lobby) if ".join." in cid)
        joined = await boris.click(lobby, custom_id=join)
        assert joined.acknowledged
        record = await bot.app.sv.store.get(token_field(join.removeprefix("cf:"), 1))
        assert record.chat_id == f"dc:{threads[0].id}" and len(record.seats) == 2
