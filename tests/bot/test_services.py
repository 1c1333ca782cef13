"""What a press remembers of the version it committed (bot/services.py): the prompts and
the state it made, so its messages neither parse the state again nor see another one."""

from __future__ import annotations

import random
from typing import Any

import pytest
from pydantic import BaseModel

from bot.table.turns import load_state
from engine.registry import get_game
from tests.bot.helpers import ANNA, BORIS, Harness, dm


@pytest.mark.parametrize("name", ["stone_age", "caverna", "hunters_gatherers"])
async def test_a_move_parses_its_state_once_and_keeps_the_state_it_made(
    h: Harness, monkeypatch: pytest.MonkeyPatch, name: str,
) -> None:
    table_id = await h.started(ANNA, BORIS, game=name)
    game = get_game(name)
    parsed: list[object] = []
    original = game.state_type.model_validate

    def counting(cls: type[BaseModel], obj: Any, *args: Any, **kwargs: Any) -> BaseModel:
        parsed.append(obj)
        return original(obj, *args, **kwargs)

    monkeypatch.setattr(game.state_type, "model_validate", classmethod(counting))
    rnd = random.Random(5)
    for _ in range(12):
        record = await h.get(table_id)
        prompt = (await h.prompts(table_id))[0]
        user = h.user_at(record, prompt.seat)
        token = rnd.choice(h.move_tokens(h.dm_prompt(record, prompt.seat), prompt))
        parsed.clear()
        reply = await h.press(user, token, dm(user))
        assert not reply.alert and reply.out
        # The move's own copy (the press checks against the prompts already open).
        assert len(parsed) == 1
        committed = await h.get(table_id)
        kept = h.sv.view_state(committed)
        assert kept == load_state(game, committed)
        assert h.sv.prompts(committed) == game.pending(kept)
