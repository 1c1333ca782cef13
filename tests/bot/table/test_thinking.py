"""Where an AI decides (``bot.table.thinking``): the same decision in the caller and in
a real worker process; a worker process killed mid-thought is replaced and the
decision still comes; and while an AI thinks on one table, the bot answers another.

Timing is never asserted against a clock of its own: the latency test measures the
other table's answer against the AI's think time, in the same run."""

from __future__ import annotations

import asyncio
import json
import os
import random
import signal
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bot.table.autopilot import choose
from bot.table.thinking import Thinker, decide
from engine.registry import get_game
from tests.bot.helpers import ANNA, BORIS, GROUP, Harness, plain
from tests.bot.table.slow_thinking import DIR_ENV, SECONDS_ENV, slow_decide
from tests.conftest import TEST_AI_BUDGET_S

GAMES = ("stone_age", "hunters_gatherers", "caverna")
#: How long the slow AI sleeps before deciding in the latency test (the other table's
#: answer is compared with it, not with a fixed bound).
THINK_S = 1.5
#: Safety nets for waits on facts (never asserted as timings).
SAFETY_S = 60.0


def _position(name: str, moves: int = 12) -> tuple[Any, int, dict[str, Any]]:
    """A game of ``name`` a few random moves in: (the state, the seat asked, the state
    as a record holds it)."""
    game = get_game(name)
    state = game.new(3, 5)
    rnd = random.Random(name)
    for _ in range(moves):
        prompt = game.pending(state)[0]
        game.apply(state, prompt.seat, rnd.choice([o for o in prompt.options
                                                   if not o.back]).key)
    seat = game.pending(state)[0].seat
    return state, seat, json.loads(game.dump(state))


@pytest.fixture
def thinking_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A folder where the slow AI's processes note themselves (set before they start)."""
    folder = tmp_path / "thinking"
    folder.mkdir()
    monkeypatch.setenv(DIR_ENV, str(folder))
    yield folder


async def test_in_the_caller_it_decides_what_the_autopilot_chooses() -> None:
    thinker = Thinker(workers=0, budget_s=TEST_AI_BUDGET_S)
    for name in GAMES:
        state, seat, stored = _position(name)
        game = get_game(name)
        prompt = next(p for p in game.pending(state) if p.seat == seat)
        for level in ("easy", "normal"):
            expected = choose(game, state, prompt, level, random.Random("t:9"))
            assert await thinker.decide(name, stored, seat, level, "t:9") == expected
        # A strong AI's search stops on the clock, so its answer may vary: one of the
        # prompt's real options.
        strong = await thinker.decide(name, stored, seat, "strong", "t:9")
        assert strong in [o.key for o in prompt.options if not o.back]


async def test_a_decision_asked_again_while_it_is_thought_out_is_thought_once() -> None:
    calls: list[str] = []

    def counting(game: str, state: str, seat: int, level: str, seed: str,
                 budget_s: float) -> str:
        calls.append(seed)
        return decide(game, state, seat, level, seed, budget_s)

    thinker = Thinker(workers=0, work=counting)
    _, seat, stored = _position("caverna")
    first, again = await asyncio.gather(thinker.decide("caverna", stored, seat, "normal", "a:1"),
                                        thinker.decide("caverna", stored, seat, "normal", "a:1"))
    assert first == again and calls == ["a:1"]
    await thinker.decide("caverna", stored, seat, "normal", "a:2")  # another decision
    await thinker.decide("caverna", stored, seat, "normal", "a:1")  # asked once it was done
    assert calls == ["a:1", "a:2", "a:1"]


async def test_a_worker_process_decides_as_the_caller_does(thinking_dir: Path) -> None:
    """The real pool: only names, JSON and numbers cross over, and the worker process
    rebuilds the same state and prompt."""
    pool, inline = Thinker(workers=1), Thinker(workers=0)
    try:
        for name in GAMES:
            _, seat, stored = _position(name)
            for level in ("easy", "normal"):
                assert await pool.decide(name, stored, seat, level, "s:1") == \
                    await inline.decide(name, stored, seat, level, "s:1")
    finally:
        pool.close()


async def _noted(folder: Path, more_than: int) -> list[int]:
    """The process ids the slow AI noted, once there are more than ``more_than``."""
    deadline = time.monotonic() + SAFETY_S
    while len(noted := [int(p.name) for p in folder.iterdir()]) <= more_than:
        assert time.monotonic() < deadline, "the AI never started thinking"
        await asyncio.sleep(0.01)
    return noted


async def test_a_thinking_process_killed_is_replaced_and_the_decision_comes(
    thinking_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(SECONDS_ENV, "0.5")
    thinker = Thinker(workers=1, work=slow_decide)
    _, seat, stored = _position("stone_age")
    try:
        deciding = asyncio.create_task(thinker.decide("stone_age", stored, seat, "normal", "k"))
        [first] = await _noted(thinking_dir, 0)
        os.kill(first, signal.SIGKILL)  # mid-thought
        key = await asyncio.wait_for(deciding, SAFETY_S)
        second = [p for p in await _noted(thinking_dir, 1) if p != first]
        assert second, "the decision was not asked again in a new process"
        assert key == await Thinker(workers=0).decide("stone_age", stored, seat, "normal", "k")
    finally:
        thinker.close()


async def test_the_bot_answers_another_table_while_an_ai_thinks(
    h: Harness, thinking_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Table A: Anna and a slow AI; her move is followed by the AI's, which thinks in
    its own process. Meanwhile Boris asks about table B: he is answered long before
    the AI has decided, and A's answer comes once it has."""
    monkeypatch.setenv(SECONDS_ENV, str(THINK_S))
    h.sv.thinker = Thinker(workers=1, work=slow_decide)
    try:
        thinking = await h.new_table(ANNA, "2", "en", "ai=1")
        other = await h.started(BORIS, ANNA, chat=GROUP)
        await h.press(ANNA, h.lobby_token(thinking, "start"), GROUP)  # may think: warm-up
        record = await h.get(thinking)
        [prompt] = await h.prompts(thinking)
        assert record.seats[prompt.seat] == ANNA.id
        before = len(list(thinking_dir.iterdir()))
        token = h.move_tokens(h.dm_prompt(record, prompt.seat), prompt)[0]
        started = time.monotonic()
        moving = asyncio.create_task(h.press(ANNA, token))
        await _noted(thinking_dir, before)  # the AI is thinking now
        asked = time.monotonic()
        reply = await h.text(BORIS, f"/status {other}")
        answered = time.monotonic() - asked
        assert not moving.done(), "the AI had decided before the other table was answered"
        assert reply.out and f"#{other}" in plain(reply.out[0].message.text)
        assert not (await asyncio.wait_for(moving, SAFETY_S)).alert
        think = time.monotonic() - started
        assert think >= THINK_S  # the AI's move came with Anna's answer
        assert answered < think / 3, (answered, think)
        log = await h.store.action_log(thinking)
        assert log[-1].user_id == "autopilot"
    finally:
        h.sv.thinker.close()
