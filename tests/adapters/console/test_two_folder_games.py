"""A game defined only under ``tests/`` (``tests/tiny_game``) plays on the console.

Hosted through the registries' hooks for the test alone, it is opened by its name,
played to the end by typing the numbers of the buttons printed, and told by its own
texts; ``/rules`` answers from its rules book. Nothing here names the game: every game
the tests define is played the same way (the shipped games have their own, longer
whole-game tests).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from console_harness import Players, answers, console_session, parse

from adapters.store import TableNotFound, TableStatus
from bot.games import manifests
from bot.i18n.catalog import default_catalog
from bot.rules.lookup import load_books
from bot.table.turns import load_state, replay, state_dict

MAX_PRESSES = 500


async def test_a_game_of_two_folders_plays_to_the_end_on_the_console(
    tmp_path: Path, own_game: str
) -> None:
    entry = manifests()[own_game]
    catalog = default_catalog()
    async with console_session(tmp_path, "ru") as s:
        players = Players(seed=3)
        await s.say(f"anna: /new {own_game} 2-2")
        tid = await s.table_id()
        assert not [a for a in answers(parse(await s.say("boris: /join"))) if a.alert]
        players.feed(await s.say("anna: /start"))
        presses = 0
        last = []
        while (choice := players.next_press()) is not None:
            assert presses < MAX_PRESSES, "the game did not end"
            who, number = choice
            last = players.feed(await s.say(f"{who}: {number}"))
            assert not [a for a in answers(last, who) if a.alert], last
            presses += 1

        [final] = [m for m in last if m.is_table]
        title = catalog.plain("ru", entry.title_code)
        assert final.lines[0] == catalog.plain("ru", "result.header", game=title, table=tid)
        record = await s.app.sv.store.get_archived(tid)
        assert record.status == TableStatus.FINISHED
        with pytest.raises(TableNotFound):
            await s.app.sv.store.get(tid)
        result = entry.game.result(load_state(entry.game, record))
        assert result is not None
        reason = catalog.plain("ru", f"{entry.prefix}.result.reason.{result.reason}")
        assert reason in final.lines
        assert any(line.startswith("🏆") for line in final.lines)
        log = await s.app.sv.store.action_log(tid, archived=True)
        assert sum(1 for e in log if e.kind == "move") == presses
        assert state_dict(replay(entry.game, record, log)) == record.state

        # Its result was kept and rated: the chat's leaderboard and a player's record.
        board = "\n".join(i.text for i in parse(await s.say("anna: /статистика")))
        assert catalog.plain("ru", "stats.chat_header") in board and title in board
        mine = "\n".join(i.text for i in parse(await s.say("boris: /stats я")))
        assert "📊" in mine and "рейтинг" in mine and title in mine

        # /rules answers from the game's own rules book, found by one of its aliases.
        [book] = [b for b in load_books([entry.rules_file()]).values()]
        said = parse(await s.say(f"anna: /rules {entry.aliases[0]}"))
        assert book.topics[0].title.ru in "\n".join(i.text for i in said), said
