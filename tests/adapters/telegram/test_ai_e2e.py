"""AI players through the Telegram adapter, end to end against FakeTelegram: Anna
opens a table of three with ``/new … ai=1 level=strong``, Boris joins by button, and
they play Stone Age to its end by the buttons they are shown, the AI deciding in the
bot's real worker process between their moves. Nothing is sent to anybody but the
group and the two people (a message to an AI could not even be addressed on
Telegram), and the results name the AI seat."""

from __future__ import annotations

import asyncio
import logging
import random
import re
from collections.abc import Mapping
from functools import partial
from typing import Any

import pytest

from bot.table.thinking import Thinker
from tests.adapters.telegram.e2e_helpers import (
    SEAT_LINE,
    SEND_METHODS,
    GroupTable,
    StartBot,
    bot_is_idle,
    datas,
    en,
    players,
    settle,
    wait_until,
)
from tests.adapters.telegram.fake_api import CallbackPress, FakeTelegram

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


class GatedThinker(Thinker):
    """An AI that decides as a normal one would, but only once the test lets it."""

    def __init__(self) -> None:
        super().__init__(workers=0, budget_s=0.01)
        self.asked = asyncio.Event()
        self.go = asyncio.Event()

    async def decide(self, game: str, state: Mapping[str, Any], seat: int, level: str,
                     seed: str) -> str:
        self.asked.set()
        await self.go.wait()
        return await super().decide(game, state, seat, level, seed)


async def test_a_press_that_hands_the_turn_to_an_ai_is_answered_before_it_thinks(
    tg: FakeTelegram, start_bot: StartBot
) -> None:
    """Anna starts a table where the AI plays first or right after her: her press is
    answered while the AI has not decided yet (it thinks in a due job the press owes),
    and the AI's move follows once it has."""
    [anna] = players(tg, "Anna")
    nobody = tg.add_user("Nobody")  # stands in for the AI's seat
    group = tg.add_group("Solo", members=[anna])
    async with start_bot() as running:
        running.app.sv.rng = random.Random(4)
        gate = GatedThinker()
        running.app.sv.thinker = gate
        table = GroupTable(tg, running, group, [anna])
        await table.open_lobby("/new stone_age 2 en ai=1 level=normal")
        start = next(d for d in datas(table.table_message) if ".start." in d)
        query = tg.user_presses(anna, table.table_message, start)

        def answered_or_asked(pressed: CallbackPress) -> bool:
            return pressed.answered or gate.asked.is_set()

        async def asked_or_idle() -> bool:
            """Has the AI been asked (True), or did the bot settle without asking it?"""
            streak = 0
            while streak < 2 and not gate.asked.is_set():
                streak = streak + 1 if await bot_is_idle(running, tg) else 0
                await asyncio.sleep(0.002)
            return gate.asked.is_set()

        for _ in range(40):
            await wait_until(partial(answered_or_asked, query), 10.0, "an answer")
            if await asked_or_idle():
                break
            # Anna's turn went on: she presses again.
            table.seats = [anna if user_id == f"tg:{anna.id}" else nobody
                           for user_id in (await table.record()).seats]
            choice = table.next_press(from_dm=True) or table.next_press()
            assert choice is not None
            user, message, data = choice
            query = tg.user_presses(user, message, data)
        else:
            raise AssertionError("the AI was never asked")
        version = (await table.record()).version
        await wait_until(lambda: query.answered, 10.0, "the press's answer")
        assert query.answer is not None and not query.answer.show_alert
        assert (await table.record()).version == version  # the AI has not moved yet
        gate.go.set()
        await settle(running, tg)
        log = await running.app.sv.store.action_log(table.table_id)
        assert log[-1].version > version and any(
            e.user_id == "autopilot" and e.version > version for e in log)
