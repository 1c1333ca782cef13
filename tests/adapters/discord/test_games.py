"""Whole games on Discord, through simcord: members open a table by slash command, join
and start it by button, and play every move by button, select or ``/table move``, from
the table's message or their DMs, up to the final scores in the channel."""

from __future__ import annotations

import random
import re
from collections import Counter
from collections.abc import Iterator
from typing import Any

from adapters.discord.render import markdown
from adapters.store import StoreSettings
from bot.i18n.catalog import default_catalog
from bot.storage import TableStatus
from bot.ui.markup import rich
from tests.adapters.discord.harness import (
    Table,
    answered_in_time,
    opened_table,
    play_choice,
    running_bot,
)

CATALOG = default_catalog()
MAX_MOVES = 2500


def en(code: str, **args: str) -> str:
    """An English catalog text as the bot writes it on Discord."""
    return markdown(rich(CATALOG.t("en", code, **args)))


async def play_to_the_end(table: Table, *, typed_every: int, rng: random.Random) -> Counter[str]:
    """Every move by the player asked: from the table message or (every other move) a
    DM prompt, by button or select; every ``typed_every``-th by ``/table move``."""
    how: Counter[str] = Counter()
    while (found := (sum(how.values()) % 2 and table.next_choice(from_dm=True, rng=rng))
           or table.next_choice(rng=rng)) is not None:
        assert sum(how.values()) < MAX_MOVES, "the game did not end"
        member, message, choice = found
        typed = how["channel:button"] % typed_every == typed_every - 1 \
            and how["channel:button"] // typed_every >= how["typed"]
        await play_choice(table, member, message, choice, how, typed=typed)
    return how


def sent_ids(requests: list[Any]) -> Iterator[str]:
    """The custom_ids and select values in every component the bot sent or edited."""
    def walk(node: Any) -> Iterator[str]:
        if isinstance(node, dict):
            if "custom_id" in node:
                yield str(node["custom_id"])
            for option in node.get("options", []) if node.get("type") == 3 else []:
                yield str(option["value"])
            for value in node.values():
                yield from walk(value)
        elif isinstance(node, list):
            for value in node:
                yield from walk(value)
    for request in requests:
        yield from walk(request.json)


def final_lines(table: Table, game_title: str) -> list[str]:
    """The lines of the results message: the last of the channel, not the table's own
    message, headed by the game's title and the table."""
    final = table.history()[-1]
    assert final.id != table.message_id
    lines = final.content.splitlines()
    assert lines[0] == en("result.header", game=game_title, table=table.table_id), lines[0]
    return lines


def final_ranking(table: Table, game_title: str) -> list[tuple[str, str, int]]:
    """(place, name, score) from the results message, the last of the channel."""
    return [(m[1], m[2], int(m[3].replace("\\", ""))) for line in final_lines(table, game_title)
            if (m := re.match(r"^(\d)\. \*\*(\w+)\*\* — (\\?-?\d+)\b", line))]


async def test_three_members_play_stone_age_to_the_end(store_settings: StoreSettings) -> None:
    async with running_bot(store_settings, seed=238) as bot:
        table = await opened_table(bot, "stone_age", "Game night", "stone-age",
                                   ("Anna", "Boris", "Vera"), options="3")
        members = table.members
        how = await play_to_the_end(table, typed_every=30, rng=random.Random(5))

        ranked = final_ranking(table, "Stone Age")
        assert [place for place, _, _ in ranked] == ["1", "2", "3"]
        assert {name for _, name, _ in ranked} == {"Anna", "Boris", "Vera"}
        assert table.table_message.components == []  # the kept message has no live buttons
        record = await bot.app.sv.store.get_archived(table.table_id)
        assert record.status == TableStatus.FINISHED
        # Each player hears their own result by DM.
        for member in members:
            assert f"#{table.table_id} has ended" in table.dm(member)[-1].content
        # All ways of playing were used, and every interaction was answered in time.
        assert how["channel:button"] > 100, how
        assert how["dm:select"] + how["dm:button"] > 100 and how["typed"] > 3, how
        assert answered_in_time(table.results)
        # One game message per table, edited in place: the channel holds the lobby (the
        # command's answer), the start announcement and the results.
        assert len(table.history()) == 3, [m.content[:40] for m in table.history()]


async def test_two_members_play_hunters_and_gatherers_to_the_end(
    store_settings: StoreSettings,
) -> None:
    async with running_bot(store_settings, seed=7) as bot:
        table = await opened_table(bot, "hunters_gatherers", "Tiles", "tiles", ("Gleb", "Dina"),
                                   options="2")
        how = await play_to_the_end(table, typed_every=15, rng=random.Random(3))

        ranked = final_ranking(table, "Carcassonne: Hunters and Gatherers")
        assert len(ranked) == 2 and ranked[0][2] >= ranked[1][2]
        assert {name for _, name, _ in ranked} == {"Gleb", "Dina"}
        record = await bot.app.sv.store.get_archived(table.table_id)
        assert record.status == TableStatus.FINISHED
        assert how["typed"] > 1 and sum(how.values()) > 40, how
        assert how["channel:select"] + how["dm:select"] > 0, how
        assert answered_in_time(table.results)
        # Every custom_id and select value ever sent fits Discord's 100 bytes.
        sent = list(sent_ids(bot.env.http_requests))
        assert len(sent) > sum(how.values())
        assert max(len(i.encode()) for i in sent) <= 100
