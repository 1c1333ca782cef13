"""The built-in autopilot that plays a seat whose player ran out of time.

Two levels: ``random`` picks any legal option; ``greedy`` tries each option on a copy
of the state and keeps the one the game's heuristic likes best for that seat. "Back"
options are never chosen, so the autopilot always makes progress.
"""

from __future__ import annotations

import random
from typing import Any

from pydantic import BaseModel

from engine.core.prompts import Prompt
from engine.core.protocol import Game


def choose(
    game: Game[Any], state: BaseModel, prompt: Prompt, level: str, rnd: random.Random
) -> str:
    """The option key the autopilot plays for ``prompt.seat``."""
    options = [o for o in prompt.options if not o.back] or list(prompt.options)
    if level != "greedy" or len(options) == 1:
        return rnd.choice(options).key
    best_key, best_value = options[0].key, float("-inf")
    # Each trial starts from the stored form: serialising once and loading per option
    # is cheaper than a deep copy of a large state (Caverna: about 0.3 ms against 0.7).
    frozen = game.dump(state)
    for option in options:
        trial = game.load(frozen)
        game.apply(trial, prompt.seat, option.key)
        value = game.heuristic(trial, prompt.seat) + rnd.random() * 1e-6
        if value > best_value:
            best_key, best_value = option.key, value
    return best_key
