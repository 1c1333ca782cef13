"""AI players on the console: a Russian table of one person and two AI players (one
asked for by ``/new``, one seated by the lobby's button) plays Stone Age to its end,
the person typing button numbers only. The AI decide in a real worker process (the
console's bot is built as a deployment's is); nothing is ever printed to an AI, and the
results name the AI seats as AI, in Russian."""

from __future__ import annotations

from console_harness import Players, Session, answers, parse

from adapters.store import TableStatus
from bot.i18n.catalog import default_catalog

CATALOG = default_catalog()
MAX_PRESSES = 2000


async def test_a_person_and_two_ai_players_finish_a_game_on_the_console(
    ru_session: Session
) -> None:
    s = ru_session
    s.app.sv.pictures = False  # the words are the point here
    lobby = parse(await s.say("anna: /new stone_age 3 ии=1 уровень=сильный"))
    tid = await s.table_id()
    [table] = [m for m in lobby if m.is_table]
    assert "anna, 🤖 ИИ 1 (сильный)" in table.text
    [(typed, _)] = [(n, label) for n, label in table.buttons if label == "🤖 + лёгкий ИИ"]
    seated = parse(await s.say(f"anna: {typed}"))
    assert [a.text for a in answers(seated, "anna")] == [
        CATALOG.plain("ru", "lobby.done.ai", table=tid, name="🤖 ИИ 2 (лёгкий)")]
    players = Players(seed=3)
    printed = players.feed(await s.say("anna: /start"))
    presses = 0
    while (choice := players.next_press()) is not None:
        assert presses < MAX_PRESSES, "the game did not end"
        name, number = choice
        assert name == "anna"  # the only one ever asked
        last = players.feed(await s.say(f"{name}: {number}"))
        assert not any(a.alert for a in answers(last, name))
        printed += last
        presses += 1
    record = await s.app.sv.store.get_archived(tid)
    assert record.status == TableStatus.FINISHED
    log = await s.app.sv.store.action_log(tid, archived=True)
    assert {e.user_id for e in log if e.kind == "move"} == {"con:anna", "autopilot"}
    assert sum(1 for e in log if e.kind == "move" and e.user_id == "con:anna") == presses
    # Private messages went to the person only; the results name the AI seats.
    assert {m.dm_to for m in printed if m.dm_to is not None} == {"anna"}
    [final] = [m for m in printed if m.is_table][-1:]
    assert final.lines[0].startswith("🏁")
    assert "🤖 ИИ 1 (сильный)" in final.text and "🤖 ИИ 2 (лёгкий)" in final.text
