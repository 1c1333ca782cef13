"""Random legal playouts of any game, for self-play, fuzzing and benchmarks.

The player is uniform: at each step it picks one open prompt and one of its options
at random (its own generator, separate from the game's). Because the options are
exactly the legal moves, an ``IllegalMove`` here is an engine bug and counts as one.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from engine.core.protocol import Game, Result


@dataclass
class Playout:
    """What one playout did."""

    seed: int
    actions: int = 0
    state_bytes: list[int] = field(default_factory=list)
    result: Result | None = None
    error: str | None = None


def random_moves(game: Game[Any], state: Any, agent: random.Random, count: int) -> bool:
    """Apply up to ``count`` choices of the uniform player ``agent`` to ``state``; True
    when the game is over (no prompt left) afterwards."""
    for _ in range(count):
        prompts = game.pending(state)
        if not prompts:
            return True
        prompt = agent.choice(prompts)
        game.apply(state, prompt.seat, agent.choice(prompt.options).key)
    return not game.pending(state)


def random_playout(
    game: Game[Any],
    players: int,
    seed: int,
    *,
    check: bool = True,
    max_actions: int = 100_000,
    sample_every: int = 50,
) -> Playout:
    """Play one game with random legal choices.

    With ``check`` the game's invariants are verified after every action. Any crash,
    broken invariant, or a game that does not end within ``max_actions`` is reported
    in ``error``, never hidden.
    """
    out = Playout(seed=seed)
    agent = random.Random(seed)
    try:
        state = game.new(players, seed)
        while True:
            prompts = game.pending(state)
            if not prompts:
                break
            if out.actions >= max_actions:
                out.error = f"no end after {max_actions} actions"
                return out
            prompt = agent.choice(prompts)
            if not prompt.options:
                out.error = f"empty prompt for seat {prompt.seat}: {prompt.label.code}"
                return out
            key = agent.choice(prompt.options).key
            game.apply(state, prompt.seat, key)
            out.actions += 1
            if check:
                broken = game.invariants(state)
                if broken:
                    out.error = f"after {out.actions} actions ({key}): {'; '.join(broken)}"
                    return out
            if out.actions % sample_every == 0:
                out.state_bytes.append(len(game.dump(state)))
        out.state_bytes.append(len(game.dump(state)))
        out.result = game.result(state)
        if out.result is None:
            out.error = "no prompts left but the game has no result"
    except Exception as exc:  # a crash is counted, never hidden
        out.error = f"{type(exc).__name__}: {exc}"
    return out
