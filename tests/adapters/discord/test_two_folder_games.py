"""A game defined only under ``tests/`` (``tests/tiny_game``) plays on Discord (simcord).

Hosted through the registries' hooks for the test alone, it is opened by ``/table new``
with its name, joined and started by button, and played by buttons, selects and
``/table move`` from the table's message and the DMs, up to its results in its own
words. Nothing here names the game (the shipped games have their own, longer
whole-game tests).
"""

from __future__ import annotations

import random

from adapters.discord.render import markdown
from adapters.store import StoreSettings
from bot.games import manifests
from bot.i18n.catalog import default_catalog
from bot.storage import TableStatus
from bot.ui.markup import rich
from tests.adapters.discord.harness import answered_in_time, opened_table, running_bot
from tests.adapters.discord.test_games import final_ranking, play_to_the_end


async def test_a_game_of_two_folders_plays_to_the_end_on_discord(
    store_settings: StoreSettings, own_game: str
) -> None:
    entry = manifests()[own_game]
    # The texts of a game hosted for this test alone: the catalog read now.
    title = markdown(rich(default_catalog().t("en", entry.title_code)))
    async with running_bot(store_settings, seed=9) as bot:
        table = await opened_table(bot, own_game, "Pebbles", "pebbles", ("Olga", "Petr"),
                                   options="2")
        members = table.members
        how = await play_to_the_end(table, typed_every=4, rng=random.Random(2))

        ranked = final_ranking(table, title)
        assert [place for place, _, _ in ranked][:1] == ["1"] and len(ranked) == 2
        assert {who for _, who, _ in ranked} == {"Olga", "Petr"}
        assert table.table_message.components == []
        # The table's older message shows the result too, not the last prompt it asked.
        [final] = table.history()[-1:]
        assert table.table_message.id != final.id
        assert table.table_message.content == final.content
        record = await bot.app.sv.store.get_archived(table.table_id)
        assert record.status == TableStatus.FINISHED
        for member in members:
            assert f"#{table.table_id} has ended" in table.dm(member)[-1].content
        assert how["typed"] > 0 and sum(how.values()) > 4, how
        # Its result was kept and rated: the channel's leaderboard and a member's record.
        board = await table.slash(members[0], "stats")
        mine = await table.slash(members[1], "stats", who="me")
        assert board.response is not None and mine.response is not None
        catalog = default_catalog()
        assert markdown(rich(catalog.t("en", "stats.chat_header"))) in board.response.content
        assert title in board.response.content and "Olga" in board.response.content
        shown = mine.response.content or "".join(e.description or "" for e in
                                                 mine.response.embeds)
        assert "📊" in shown and "Petr" in shown and "rating" in shown
        assert answered_in_time(table.results)
