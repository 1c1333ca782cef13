"""``/log``: a table told again from its action log, also one played under older rules."""

from __future__ import annotations

import random

import pytest

from bot.storage import ActionKind
from bot.table import log as table_log
from engine.registry import get_game
from tests.bot.helpers import ANNA, BORIS, Harness, plain


async def _played(h: Harness, moves: int) -> str:
    table_id = await h.started(ANNA, BORIS)
    rnd = random.Random(5)
    for _ in range(moves):
        await h.play_one(table_id, rnd)
    return table_id


async def test_a_log_the_engine_takes_whole_is_told_whole(h: Harness) -> None:
    table_id = await _played(h, 6)
    record = await h.get(table_id)
    log = await h.store.action_log(table_id)
    events, whole = table_log.replay_events(get_game(record.game), record, log)
    assert whole and events


async def test_a_move_from_older_rules_ends_the_telling_there(
        h: Harness, monkeypatch: pytest.MonkeyPatch) -> None:
    table_id = await _played(h, 6)
    record = await h.get(table_id)
    log = await h.store.action_log(table_id)
    moves = [i for i, e in enumerate(log) if e.kind == ActionKind.MOVE]
    cut = moves[3]
    # A key this engine never offers stands for one an older version of the rules asked.
    tampered = [*log[:cut], log[cut].model_copy(update={"key": "no-such-step"}), *log[cut + 1:]]
    game = get_game(record.game)
    told_before, _ = table_log.replay_events(game, record, log[:cut])
    events, whole = table_log.replay_events(game, record, tampered)
    assert not whole
    assert events == told_before

    async def load_any(store: object, wanted: str) -> object:
        return record, tampered

    monkeypatch.setattr(table_log, "load_any", load_any)
    lines = plain((await h.text(ANNA, f"/log {table_id} 60")).answer).splitlines()
    assert lines[-1] == h.t("log.older_rules")
    assert len(lines) == 2 + len(h.sv.presenter.event_lines(record, "en", told_before))
