"""AI players on Discord, through simcord: Gleb opens a Hunters and Gatherers table of
four with ``/table new … ai=1 level=strong``, seats a second AI by the lobby's button,
Dina joins, and the two play to the end by button and select while the AI players
decide in the bot's worker process. Nothing is sent to anybody but the channel and the
two members, and the results name both AI seats."""

from __future__ import annotations

import random
from collections import Counter

from adapters.store import StoreSettings
from bot.storage import TableStatus
from tests.adapters.discord.harness import (
    SEAT_LINE,
    Table,
    answered_in_time,
    buttons,
    play_choice,
    running_bot,
    settle,
    token_field,
)
from tests.adapters.discord.test_games import final_lines

MAX_MOVES = 1500
AI_NAMES = ("🤖 AI 1 (strong)", "🤖 AI 2 (easy)")


async def test_two_members_and_two_ai_players_finish_hunters_and_gatherers(
    store_settings: StoreSettings,
) -> None:
    async with running_bot(store_settings, seed=11) as bot:
        guild = bot.env.create_guild(name="Tiles")
        gleb, dina, nobody = (guild.add_member(bot.env.create_user(n))
                              for n in ("Gleb", "Dina", "Nobody"))
        table = Table(bot, guild.create_text_channel("tiles"), [gleb, dina])
        await table.slash(gleb, "table new", game="hunters_gatherers",
                          options="4 ai=1 level=strong")
        lobby = next(m for m in table.history()
                     if any(cid.startswith("cf:l.") for _, cid in buttons(m)))
        table.message_id = lobby.id
        table.table_id = token_field(buttons(lobby)[0][1].removeprefix("cf:"), 1)
        labels = [label for label, _ in buttons(table.table_message)]
        assert "🤖 + easy AI" in labels and "🤖 − remove AI" in labels, labels
        for member, verb in ((gleb, "aieasy"), (dina, "join"), (gleb, "start")):
            result = await member.click(table.table_message, custom_id=table.lobby_button(verb))
            table.results.append(result)
            await settle(bot)
        announce = next(m for m in table.history() if m.content.startswith("🎲"))
        seated = [name.replace("\\", "").strip() for _, name in
                  sorted(SEAT_LINE.findall(announce.content))]
        assert sorted(seated) == sorted(["Gleb", "Dina", *AI_NAMES]), seated
        by_name = {"Gleb": gleb, "Dina": dina}
        # The AI seats never show a choice; the stand-in would be refused if one did.
        table.seats = [by_name.get(name, nobody) for name in seated]

        how: Counter[str] = Counter()
        rng = random.Random(2)
        while (found := (sum(how.values()) % 2 and table.next_choice(from_dm=True, rng=rng))
               or table.next_choice(rng=rng)) is not None:
            assert sum(how.values()) < MAX_MOVES, "the game did not end"
            member, message, choice = found
            assert member is not nobody, "an AI seat was offered a choice"
            await play_choice(table, member, message, choice, how)
        lines = "\n".join(final_lines(table, "Carcassonne: Hunters and Gatherers"))
        assert all(f"**{name}**" in lines for name in AI_NAMES), lines
        record = await bot.app.sv.store.get_archived(table.table_id)
        assert record.status == TableStatus.FINISHED
        for member in (gleb, dina):
            assert f"#{table.table_id} has ended" in table.dm(member)[-1].content
        assert table.dm(nobody) == []
        assert answered_in_time(table.results)
        assert how["channel:button"] + how["dm:button"] > 20, how
        assert how["channel:select"] + how["dm:select"] > 0, how
        # Every message the bot created went to the channel or a member's DM.
        posted = {r.path for r in bot.env.http_requests
                  if r.method == "POST" and r.path.endswith("/messages")}
        dm_channels = {f"/channels/{m.user.dm_channel.id}/messages" for m in (gleb, dina)}
        assert posted == {f"/channels/{table.channel.id}/messages", *dm_channels}, posted
