"""AI players through the Telegram adapter, end to end against FakeTelegram: Anna
opens a table of three with ``/new … ai=1 level=strong``, Boris joins by button, and
they play Stone Age to its end by the buttons they are shown, the AI deciding in the
bot's real worker process between their moves. Nothing is sent to anybody but the
group and the two people (a message to an AI could not even be addressed on
Telegram), and the results name the AI seat."""

from __future__ import annotations

import logging
import random
import re

import pytest

from tests.adapters.telegram.e2e_helpers import (
    SEAT_LINE,
    SEND_METHODS,
    GroupTable,
    StartBot,
    datas,
    en,
    players,
)
from tests.adapters.telegram.fake_api import FakeTelegram

MAX_PRESSES = 2500
AI_NAME = "🤖 AI 1 (strong)"


async def test_two_people_and_an_ai_play_a_whole_game_on_telegram(
    tg: FakeTelegram, start_bot: StartBot, caplog: pytest.LogCaptureFixture
) -> None:
    anna, boris = players(tg, "Anna", "Boris")
    nobody = tg.add_user("Nobody")  # stands in for the AI's seat: it never has buttons
    group = tg.add_group("Game night", members=[anna, boris])
    caplog.set_level(logging.WARNING)
    async with start_bot() as running:
        running.app.sv.rng = random.Random(4)
        table = GroupTable(tg, running, group, [anna, boris])
        await table.open_lobby("/new stone_age 3 en ai=1 level=strong")
        assert f"Players (3, 3–3): Anna, {AI_NAME}, Boris" in (table.table_message.text or "")
        before = len(tg.messages_in(group))
        start = next(d for d in datas(table.table_message) if ".start." in d)
        query = await table.press(anna, table.table_message, start)
        assert query.answer is not None and not query.answer.show_alert
        announce = next(m for m in tg.messages_in(group)[before:]
                        if m.text and m.text.startswith("🎲"))
        by_name = {"Anna": anna, "Boris": boris, AI_NAME: nobody}
        table.seats = [by_name[name.strip()] for _, name in
                       sorted(SEAT_LINE.findall(announce.text or ""))]
        assert len(table.seats) == 3 and nobody in table.seats
        where = await table.play_through(MAX_PRESSES)
        assert where["group"] > 20 and where["dm"] > 20, where

        final = tg.messages_in(group)[-1]
        lines = (final.text or "").splitlines()
        assert lines[0] == en("result.header", game="Stone Age", table=table.table_id)
        ranked = [m for line in lines if (m := re.match(r"^(\d)\. (.+) — (-?\d+)", line))]
        assert {m[2] for m in ranked} == {"Anna", "Boris", AI_NAME}
        for user in (anna, boris):
            assert f"#{table.table_id} has ended" in (tg.messages_in(user)[-1].text or "")
    # Every message went to the group or to one of the two people, and nothing failed.
    to = {str(c.params.get("chat_id")) for c in tg.calls if c.method in SEND_METHODS}
    assert to == {str(group.id), str(anna.id), str(boris.id)}, to
    assert tg.messages_in(nobody) == []
    assert tg.errors() == [] and tg.unanswered_callbacks == []
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR], caplog.text
