"""Protocol-level checks shared by every game's property tests: random games keep
every invariant, and a state saved to JSON mid-game and loaded again plays on exactly
like the original."""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import Any

from pydantic import BaseModel

from engine.core.playout import Playout, random_moves, random_playout
from engine.core.protocol import Game

# Random games are played in this many parametrized chunks, to spread them over workers.
CHUNKS = 20


def chunk_seeds(chunk: int, total: int) -> range:
    """The seeds of one of CHUNKS equal parts of ``total`` games (at least one)."""
    per_chunk = max(1, total // CHUNKS)
    return range(chunk * per_chunk, (chunk + 1) * per_chunk)


def replayed(game: Game[Any], players: int, seed: int) -> Playout:
    """A random game played twice from ``seed`` with the same choices: the same result
    after the same number of actions."""
    a = random_playout(game, players, seed, check=False)
    b = random_playout(game, players, seed, check=False)
    assert a.result == b.result and a.actions == b.actions
    return a


def checked_playouts(game: Game[Any], games: Iterable[tuple[int, int]],
                     reasons: set[str]) -> list[Playout]:
    """Play each (seed, players) game with every invariant checked after every action:
    each ends, for one of ``reasons``, with no error, and its totals are the sums of
    their breakdowns."""
    runs = []
    for seed, players in games:
        run = random_playout(game, players, seed, check=True)
        assert run.error is None, f"seed {seed}, {players} players: {run.error}"
        assert run.result is not None
        for score in run.result.scores:
            assert score.total == sum(score.breakdown.values())
        assert run.result.reason in reasons
        runs.append(run)
    return runs


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
    random_moves(game, state, agent, cut)
    text = game.dump(state)
    copy = game.load(text)
    assert game.dump(copy) == text
    agent_state = agent.getstate()
    original = play_on(game, state, agent)
    agent.setstate(agent_state)
    assert play_on(game, copy, agent) == original
