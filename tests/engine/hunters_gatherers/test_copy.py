"""The game's copy of a state: equal to a JSON round trip, and independent of the
original both ways, however either is played on."""

from __future__ import annotations

import random
from typing import Any

import pytest
from pydantic import BaseModel

from engine.core.rng import ScriptedRandom
from engine.hunters_gatherers.game import GAME
from engine.hunters_gatherers.state import HuntersGatherersState
from tests.engine.round_trip import random_moves


def _mutable_shared(a: Any, b: Any, path: str = "state") -> list[str]:
    """Where ``a`` and ``b`` hold the very same object that could be changed in place
    (a list, dict or set, or a pydantic model that is not frozen)."""
    out: list[str] = []
    if isinstance(a, BaseModel):
        if a is b and not a.model_config.get("frozen"):
            out.append(path)
        for name in type(a).model_fields:
            out += _mutable_shared(getattr(a, name), getattr(b, name), f"{path}.{name}")
    elif isinstance(a, list | dict | set):
        if a is b:
            out.append(path)
        if isinstance(a, dict):
            for key in a:
                out += _mutable_shared(a[key], b[key], f"{path}[{key!r}]")
        elif isinstance(a, list):
            for i, (x, y) in enumerate(zip(a, b, strict=True)):
                out += _mutable_shared(x, y, f"{path}[{i}]")
    elif isinstance(a, tuple):
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            out += _mutable_shared(x, y, f"{path}[{i}]")
    return out


def _states(seed: int) -> list[HuntersGatherersState]:
    """States along one random game, from its start to its end (saved through JSON,
    not by the copy under test)."""
    state = GAME.new(2 + seed % 4, seed)
    agent = random.Random(seed)
    out = [GAME.load(GAME.dump(state))]
    while GAME.pending(state):
        random_moves(GAME, state, agent, 1 + agent.randrange(40))
        out.append(GAME.load(GAME.dump(state)))
    return out


@pytest.mark.parametrize("seed", range(4))
def test_a_copy_is_the_round_trip_and_shares_nothing_that_changes(seed: int) -> None:
    for state in _states(seed):
        copied = GAME.copy(state)
        assert copied == GAME.load(GAME.dump(state))
        assert GAME.dump(copied) == GAME.dump(state)
        assert _mutable_shared(state, copied) == []


@pytest.mark.parametrize("seed", range(4))
def test_playing_on_a_copy_leaves_the_original_alone_and_back(seed: int) -> None:
    for n, state in enumerate(_states(seed)):
        before = GAME.dump(state)
        copied = GAME.copy(state)
        random_moves(GAME, copied, random.Random(n), 60)
        assert GAME.dump(state) == before
        # And the other way round: the original played on, the copy stays.
        copied = GAME.copy(state)
        random_moves(GAME, state, random.Random(n + 1), 60)
        assert GAME.dump(copied) == before


def test_a_scripted_random_source_is_copied_too() -> None:
    state = GAME.new(2, 1)
    state.rng = ScriptedRandom(values=[1, 2, 3])
    copied = GAME.copy(state)
    assert copied.rng == state.rng and copied.rng is not state.rng
    state.rng.randint(0, 9)
    assert isinstance(copied.rng, ScriptedRandom) and copied.rng.pos == 0
    assert copied.rng.values is not state.rng.values
