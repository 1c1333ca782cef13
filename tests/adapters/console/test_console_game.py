"""The console chat end to end: a whole Stone Age game, a piped script, garbled lines.

The game is played in-process through ``ConsoleChat`` (output into a ``StringIO``)
exactly as a person would: read the printed messages, find the player whose private
prompt has buttons, type ``name: <number>``. Seats, seed and choices are seeded, so the
game is the same on every run.
"""

from __future__ import annotations

import asyncio
import io
import re
import subprocess
from pathlib import Path

import pytest
from console_harness import (
    Players,
    Session,
    Shown,
    answers,
    campfire_command,
    console_env,
    parse,
)

from adapters.console.chat import ConsoleChat
from adapters.store import Storage, StoreSettings, TableNotFound, TableStatus, open_storage
from bot.i18n.catalog import default_catalog
from bot.table.turns import load_state, replay, state_dict
from engine.registry import get_game

CATALOG = default_catalog()
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
RANKED = re.compile(r"^(?P<place>\d)\. (?P<name>\S+) — (?P<total>-?\d+) \(")
MAX_PRESSES = 3000
#: Rendering every move costs ~25 ms; pictures are on for the opening and the ending.
PICTURE_OPENING = 15


async def open_and_start(s: Session, players: Players) -> str:
    """Lobby by commands: anna opens a 3-player table, boris and vera join, anna starts."""
    await s.say("anna: /new stone_age 3-3")
    tid = await s.table_id()
    for name in ("boris", "vera"):
        joined = answers(parse(await s.say(f"{name}: /join")), name)
        assert [a.text for a in joined] == [
            CATALOG.plain("ru", "lobby.done.join", table=tid, name=name)]
    players.feed(await s.say("anna: /start"))
    return tid


def _near_end(state: dict[str, object]) -> bool:
    """The deck can refill the card row at most once more, or a building pile ran out."""
    deck, piles = state["deck"], state["piles"]
    assert isinstance(deck, list) and isinstance(piles, list)
    return bool(state["last_round"]) or len(deck) <= 4 or min(len(p) for p in piles) <= 1


async def test_full_game_through_the_console(ru_session: Session) -> None:
    """Three players play Stone Age to the end by typing button numbers only."""
    s = ru_session
    players = Players(seed=11)
    tid = await open_and_start(s, players)
    assert len(players.waiting()) == 1, "placement starts with exactly one player asked"
    table_messages: list[Shown] = []
    presses = refusals = 0
    last: list[Shown] = []
    while (choice := players.next_press()) is not None:
        assert presses < MAX_PRESSES, "the game did not end"
        if presses == PICTURE_OPENING:
            s.app.sv.pictures = False
        if not s.app.sv.pictures and _near_end((await s.app.sv.store.get(tid)).state):
            s.app.sv.pictures = True
        name, number = choice
        last = players.feed(await s.say(f"{name}: {number}"))
        presses += 1
        # Every button a player is offered must be playable: no refusal, ever.
        refusals += sum(1 for a in answers(last, name) if a.alert)
        table_messages += [m for m in last if m.is_table]
    assert refusals == 0

    # The last press printed the results: ranked scores and the winner line.
    final = [m for m in last if m.is_table]
    assert len(final) == 1 and final[0].slot == f"table:{tid}"
    lines = final[0].lines
    header = CATALOG.plain("ru", "result.header", game=CATALOG.plain("ru", "sa.title"),
                           table=tid)
    assert lines[0] == header
    ranked = [m for line in lines if (m := RANKED.match(line))]
    assert [int(m["place"]) for m in ranked] == [1, 2, 3]
    assert {m["name"] for m in ranked} == {"anna", "boris", "vera"}
    totals = [int(m["total"]) for m in ranked]
    assert totals == sorted(totals, reverse=True)
    winner_lines = [line for line in lines if line.startswith("🏆")]
    assert len(winner_lines) == 1 and ranked[0]["name"] in winner_lines[0]
    assert final[0].pictures, "the results message carries the final board"

    # The store agrees: finished, archived, scores as printed, log replays the game.
    store = s.app.sv.store
    with pytest.raises(TableNotFound):
        await store.get(tid)
    record = await store.get_archived(tid)
    assert record.status == TableStatus.FINISHED
    game = get_game("stone_age")
    result = game.result(load_state(game, record))
    assert result is not None
    names = [record.meta["names"][uid] for uid in record.seats]  # type: ignore[index]
    assert {names[sc.seat]: sc.total for sc in result.scores} == \
        {m["name"]: int(m["total"]) for m in ranked}
    log = await store.action_log(tid, archived=True)
    assert sum(1 for e in log if e.kind == "move") == presses
    assert state_dict(replay(game, record, log)) == record.state

    # Pictures of the table message were written, named after table and version.
    drawn = [Path(p) for m in table_messages for p in m.pictures]
    assert len(drawn) > PICTURE_OPENING // 2
    for path in drawn:
        assert path.parent == s.pictures_dir and path.name.startswith(f"{tid}-")
        assert path.read_bytes()[:8] == PNG_MAGIC


async def test_garbled_lines_get_a_hint_and_change_nothing(ru_session: Session) -> None:
    """A line without a colon, a button that does not exist, someone else's button."""
    s = ru_session
    players = Players()
    tid = await open_and_start(s, players)
    (who,) = players.waiting()
    before = await s.app.sv.store.get(tid)
    log_before = await s.app.sv.store.action_log(tid)

    assert await s.say("no colon here") == \
        "? Write lines as `name: text` (or `name dm: text`). Example: anna: /help\n"
    assert await s.say("anna: 999") == "? There is no button [999].\n"
    assert await s.say("anna: 0") == "? There is no button [0].\n"
    other = next(n for n in ("anna", "boris", "vera") if n != who)
    number = players.prompts[who][0][0]
    refused = answers(parse(await s.say(f"{other}: {number}")))
    assert [(a.where, a.alert, a.text) for a in refused] == \
        [(other, True, CATALOG.plain("ru", "press.not_your_button", name=who))]

    after = await s.app.sv.store.get(tid)
    assert after.version == before.version and after.state == before.state
    assert await s.app.sv.store.action_log(tid) == log_before
    # The prompt still works for its owner.
    played = players.feed(await s.say(f"{who}: {number}"))
    assert not answers(played, who) and any(m.is_table for m in played)
    assert (await s.app.sv.store.get(tid)).version == before.version + 1


async def test_private_messages_name_the_player_after_a_restart(ru_session: Session) -> None:
    """A fresh console (as after a restart) names the addressee of a private message."""
    s = ru_session
    players = Players()
    await open_and_start(s, players)
    (who,) = players.waiting()
    restarted = ConsoleChat(s.app, s.chat.buttons, io.StringIO(), s.pictures_dir, lang="ru")
    out = restarted.out
    assert isinstance(out, io.StringIO)
    # The player takes their buttons from /status in the new console and plays on
    # until the turn passes: the next player is told privately.
    await restarted.handle_line(f"{who}: /status")
    table = next(m for m in parse(out.getvalue()) if m.where == "group")
    labels = [label for _, label in players.prompts[who]]
    assert [label for _, label in table.playable()] == labels
    number = table.playable()[0][0]
    others: set[str] = set()
    for _ in range(5):
        seen = len(out.getvalue())
        await restarted.handle_line(f"{who}: {number}")
        shown = parse(out.getvalue()[seen:])
        others = {m.where for m in shown if m.where.startswith("DM → ") and who not in m.where}
        if others:
            break
        mine = [m for m in shown if m.dm_to == who and m.playable()]
        assert mine, "the player keeps deciding until the turn passes"
        number = mine[-1].playable()[0][0]
    assert others, "the turn passed to another player"
    assert {h.removeprefix("DM → ") for h in others} <= {"anna", "boris", "vera"}, others


async def _read_store(data_dir: Path, tid: str) -> tuple[TableStatus, int]:
    async with open_storage(StoreSettings(data_dir=data_dir)) as storage:
        return await _status_and_moves(storage, tid)


async def _status_and_moves(storage: Storage, tid: str) -> tuple[TableStatus, int]:
    record = await storage.games.get(tid)
    moves = sum(1 for e in await storage.games.action_log(tid) if e.kind == "move")
    return record.status, moves


def test_piped_script_through_the_real_command(tmp_path: Path) -> None:
    """``campfire`` with a script on stdin: lobby by buttons, then typed moves, then status."""
    # A short number presses a button of the newest message with buttons, so the
    # lobby's are known in advance: [1] join … [3] start, each time it is printed.
    cycles = 4
    script = ["anna: /new stone_age 3-3", "boris: 1", "vera: 1", "anna: 3"]
    # Seat order is random: every player tries a typed move in turn, and exactly the
    # one whose turn it is succeeds (so each cycle makes at least one move).
    script += ["anna: /move 1", "boris: /move 1", "vera: /move 1"] * cycles
    script += ["anna: /status", ""]
    env = console_env(CAMPFIRE_DATA_DIR=str(tmp_path / "data"))
    proc = subprocess.run(campfire_command(), input="\n".join(script), cwd=tmp_path, env=env,
                          capture_output=True, text=True, encoding="utf-8", timeout=60,
                          check=False)
    assert proc.returncode == 0, proc.stderr
    assert "Traceback" not in proc.stderr
    items = parse(proc.stdout)
    tables = [m for m in items if m.is_table]
    tid = tables[0].slot.removeprefix("table:")  # type: ignore[union-attr]
    joined = [a.text for a in answers(items) if not a.alert]
    assert joined == [CATALOG.plain("ru", "lobby.done.join", table=tid, name=name)
                      for name in ("boris", "vera")]
    started = [m for m in items if m.where == "group" and m.slot is None]
    seats = sorted(line.split(". ", 1)[1] for line in started[0].lines[1:])
    assert seats == ["anna", "boris", "vera"]

    refused = [a for a in answers(items) if a.alert]
    not_your_turn = CATALOG.plain("ru", "reason.not_your_turn")
    assert all(a.text == not_your_turn for a in refused), [a.text for a in refused]
    moves = 3 * cycles - len(refused)
    assert moves >= cycles
    status = tables[-1]  # /status brought the table down as its last message
    assert status.lines[0] == CATALOG.plain(
        "ru", "table.header_phase", game=CATALOG.plain("ru", "sa.title"), table=tid, round=1,
        phase=CATALOG.plain("ru", "sa.phase.placement"))
    assert any(line.startswith("➡️ ") for line in status.lines)

    pictures = [tmp_path / p for m in tables for p in m.pictures]
    assert pictures and all(p.read_bytes()[:8] == PNG_MAGIC for p in pictures)
    assert asyncio.run(_read_store(tmp_path / "data", tid)) == (TableStatus.RUNNING, moves)
