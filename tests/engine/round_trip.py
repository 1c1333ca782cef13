"""A protocol-level check shared by every game's property tests: a state saved to JSON
mid-game and loaded again plays on exactly like the original."""

from __future__ import annotations

import random
from typing import Any

from pydantic import BaseModel

from engine.core.protocol import Game


def play_on(game: Game[Any], state: BaseModel, agent: random.Random) -> list[str]:
    """Play to the end with ``agent``; every choice with its events, then the final JSON."""
    trace = []
    while prompts := game.pending(state):
        prompt = agent.choice(prompts)
        key = agent.choice(prompt.options).key
        events = game.apply(state, prompt.seat, key)
        trace.append(f"{prompt.seat}:{key}:{[(e.code, e.seat, e.args) for e in events]}")
    trace.append(game.dump(state))
    return trace


def assert_round_trip_continues(game: Game[Any], players: int, seed: int, cut: int) -> None:
    """Play ``cut`` random choices, copy the state through JSON, and check that the copy
    and the original play on identically under the same choices."""
    state = game.new(players, seed)
    agent = random.Random(seed)
    for _ in range(cut):
        prompts = game.pending(state)
        if not prompts:
            break
        prompt = agent.choice(prompts)
        game.apply(state, prompt.seat, agent.choice(prompt.options).key)
    text = game.dump(state)
    copy = game.load(text)
    assert game.dump(copy) == text
    agent_state = agent.getstate()
    original = play_on(game, state, agent)
    agent.setstate(agent_state)
    assert play_on(game, copy, agent) == original
