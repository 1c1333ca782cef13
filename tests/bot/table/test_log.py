"""``/log``: a table's events told again from its action log, and a log that no longer
replays said to be one."""

from __future__ import annotations

from bot.storage import Action, ActionKind
from tests.bot.helpers import ANNA, BORIS, Harness, plain


async def test_the_events_of_the_moves_are_told_again(h: Harness) -> None:
    table_id = await h.started(ANNA, BORIS)
    record = await h.get(table_id)
    [prompt] = await h.prompts(table_id)
    await h.text(h.user_at(record, prompt.seat), f"/move {table_id} place:forest:2")
    lines = plain((await h.text(ANNA, f"/log {table_id}")).answer).splitlines()
    assert lines[0] == h.t("log.header", game="Stone Age", table=table_id, n=len(lines) - 1)
    assert f"{h.user_at(record, prompt.seat).name} sends 2 people to the forest" in lines


async def test_a_log_written_while_the_game_asked_otherwise_is_said_to_be_one(
    h: Harness,
) -> None:
    """A move an earlier version logged where the game now asks nothing (the order of
    a hut and a field, say) no longer applies on replay: /log says so, not a crash."""
    table_id = await h.started(ANNA, BORIS)
    record = await h.get(table_id)
    [prompt] = await h.prompts(table_id)
    old = Action(key="do:hut", user_id=record.seats[prompt.seat], seat=prompt.seat,
                 kind=ActionKind.MOVE)
    await h.store.commit(table_id, record.version, record, old)
    reply = await h.text(ANNA, f"/log {table_id}")
    assert plain(reply.answer) == h.t("log.unreadable", table=table_id)
