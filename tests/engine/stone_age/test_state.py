"""The state's copy (``GAME.copy``, ``engine.stone_age.state.copy_state``): equal to
the JSON round trip, sharing nothing mutable with the original, and independent of it
both ways over random games (open steps, scripted dice and a state stored before
``blind`` existed included)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest
from pydantic import BaseModel

from engine.core.playout import random_moves
from engine.core.rng import ScriptedRandom
from engine.stone_age.game import GAME
from engine.stone_age.state import StoneAgeState, deep_copy

# Longer than any Stone Age game: a copy played this long has reached its end.
MAX_ACTIONS = 20_000


def _moments(seed: int) -> Iterator[StoneAgeState]:
    """A random game of 2 to 4 players, paused after every action."""
    agent = random.Random(seed)
    state = GAME.new(agent.choice([2, 3, 4]), seed)
    while prompts := GAME.pending(state):
        prompt = agent.choice(prompts)
        GAME.apply(state, prompt.seat, agent.choice(prompt.options).key)
        yield state


def _mutables(value: Any, path: str = "state") -> Iterator[tuple[str, Any]]:
    """Every model, list and dict inside ``value``, with where it lies."""
    if isinstance(value, BaseModel):
        yield path, value
        for name, field in value.__dict__.items():
            yield from _mutables(field, f"{path}.{name}")
    elif isinstance(value, list | dict):
        yield path, value
        items = value.items() if isinstance(value, dict) else enumerate(value)
        for key, item in items:
            yield from _mutables(item, f"{path}[{key!r}]")


def _shared(a: Any, b: Any) -> list[str]:
    """The places where ``a`` and ``b`` hold one and the same mutable object."""
    ids = {id(obj) for _, obj in _mutables(a)}
    return [path for path, obj in _mutables(b) if id(obj) in ids]


@pytest.mark.parametrize("seed", range(6))
def test_the_copy_equals_the_round_trip_and_shares_nothing(seed: int) -> None:
    steps = 0
    for state in _moments(seed):
        copied = GAME.copy(state)
        assert copied == GAME.load(GAME.dump(state))
        assert GAME.dump(copied) == GAME.dump(state)
        assert _shared(state, copied) == []
        steps += bool(state.stacks)
    assert steps > 0  # open steps (rolls, payments, picks) were copied too


def test_a_scripted_random_source_is_copied_too() -> None:
    state = GAME.new(2, 1)
    state.rng = ScriptedRandom(values=[3, 4])
    copied = GAME.copy(state)
    assert copied.rng == state.rng and _shared(state, copied) == []


def test_a_state_stored_before_blind_draws_copies_like_its_round_trip() -> None:
    state = GAME.new(3, 5)
    data = state.model_dump()
    for player in data["players"]:
        del player["blind"]
    old = GAME.load(data)
    assert GAME.copy(old) == GAME.load(GAME.dump(old))


@pytest.mark.parametrize("seed", range(4))
def test_playing_on_a_copy_never_changes_the_original_nor_the_other_way(seed: int) -> None:
    agent = random.Random(seed)
    for i, state in enumerate(_moments(seed + 100)):
        if i % 25:
            continue
        before = GAME.dump(state)
        copied = GAME.copy(state)
        # Play the copy to its end: the original does not move.
        assert random_moves(GAME, copied, agent, MAX_ACTIONS)
        assert GAME.dump(state) == before
        # And a copy left alone does not move with the original.
        kept = GAME.copy(state)
        if not (prompts := GAME.pending(state)):
            break  # the game is over
        prompt = agent.choice(prompts)
        GAME.apply(state, prompt.seat, agent.choice(prompt.options).key)
        assert GAME.dump(kept) == before


def test_the_sharing_check_sees_a_shared_list() -> None:
    """The check above can fail: a copy that keeps one list of the original is caught."""
    state = GAME.new(2, 3)
    copied = GAME.copy(state)
    copied.players[1].cards = state.players[1].cards
    assert _shared(state, copied) == ["state.players[1].cards"]


def test_deep_copy_copies_models_lists_and_dicts_all_the_way_down() -> None:
    value = {"a": [state := GAME.new(2, 4)], "b": ("x", 1)}
    copied = deep_copy(value)
    assert copied == value and _shared(value, copied) == []
    assert copied["a"][0] == state and copied["b"] is value["b"]
