"""The greedy player: try each option once and keep what the heuristic likes best.

It decides on a redrawn state (``engine.ai``), so a trial of "roll the dice" sees dice
of its own drawing, not the real ones. ``noise`` is the share of decisions it makes at
random instead (the easy level): a player that still takes what lies in front of it
most of the time, but misses a good move now and then.
"""

from __future__ import annotations

import random
from typing import Any

from engine.core.prompts import Option, Prompt
from engine.core.protocol import Game


def real_options(prompt: Prompt) -> list[Option]:
    """The options that decide something: every one but the steps back (all of them
    when there is nothing else, so a player always makes progress)."""
    return [o for o in prompt.options if not o.back] or list(prompt.options)


def greedy(game: Game[Any], info: Any, prompt: Prompt, rnd: random.Random,
           noise: float = 0.0) -> str:
    """The key of the option whose trial on a copy of ``info`` (a redrawn state) the
    heuristic values most for ``prompt.seat``; with chance ``noise`` a random one."""
    options = real_options(prompt)
    if len(options) == 1:
        return options[0].key
    if noise and rnd.random() < noise:
        return rnd.choice(options).key
    return favourite(game, info, prompt.seat, [o.key for o in options], rnd)


def favourite(game: Game[Any], info: Any, seat: int, keys: list[str],
              rnd: random.Random) -> str:
    """The one of ``keys`` whose trial on a copy of ``info`` the heuristic values most
    for ``seat``: the greedy player's choice."""
    best_key, best_value = keys[0], float("-inf")
    for key in keys:
        trial = game.copy(info)
        game.apply(trial, seat, key)
        # A tiny random term breaks ties without favouring the first option listed.
        value = game.heuristic(trial, seat) + rnd.random() * 1e-6
        if value > best_value:
            best_key, best_value = key, value
    return best_key
