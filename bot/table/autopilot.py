"""The built-in autopilot that plays a seat whose player ran out of time.

Two levels: ``random`` picks any legal option; ``greedy`` tries each option and keeps
the one the game's heuristic likes best for that seat. "Back" options are never chosen,
so the autopilot always makes progress.

The greedy autopilot never peeks: it tries its options on a state the seat cannot tell
from the real one (``Game.redraw``), whose hidden part — deck orders, face-down tiles,
other seats' blind cards, the dice to come — is drawn again from the autopilot's own
randomness. Two states that differ only in what the seat cannot see get the same choice
from the same randomness.
"""

from __future__ import annotations

import random
from typing import Any

from pydantic import BaseModel

from engine.core.prompts import Prompt
from engine.core.protocol import Game
from engine.core.redraw import SEED_BITS


def choose(
    game: Game[Any], state: BaseModel, prompt: Prompt, level: str, rnd: random.Random
) -> str:
    """The option key the autopilot plays for ``prompt.seat``, from what that seat may
    know and ``rnd``."""
    options = [o for o in prompt.options if not o.back] or list(prompt.options)
    if level != "greedy" or len(options) == 1:
        return rnd.choice(options).key
    # One guess at the hidden part for all the options, so they are compared on the
    # same dice and draws; the real state is never tried.
    guess = game.redraw(state, prompt.seat, rnd.getrandbits(SEED_BITS))
    best_key, best_value = options[0].key, float("-inf")
    for option in options:
        trial = game.copy(guess)
        game.apply(trial, prompt.seat, option.key)
        value = game.heuristic(trial, prompt.seat) + rnd.random() * 1e-6
        if value > best_value:
            best_key, best_value = option.key, value
    return best_key
