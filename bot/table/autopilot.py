"""The autopilot: what plays an AI player's seat, or a seat whose player ran out of time.

It plays through ``engine.ai.decide`` at the seat's AI level (``easy``, ``normal``,
``strong``; the names the autopilot had before the AI had levels, ``random`` and
``greedy``, read as the levels that play alike: ``bot.table.settings.current_level``).
Every level decides on a state redrawn for the seat from the autopilot's own
randomness, never on the real one, so it sees no die, card or tile before a player
could; steps back are never chosen, so it always makes progress.
"""

from __future__ import annotations

import random
from typing import Any

from pydantic import BaseModel

from bot.table.settings import current_level
from engine.ai import decide
from engine.core.prompts import Prompt
from engine.core.protocol import Game
from engine.core.redraw import SEED_BITS


def choose(
    game: Game[Any], state: BaseModel, prompt: Prompt, level: str, rnd: random.Random,
    *, budget_s: float = 2.0,
) -> str:
    """The option key the autopilot plays for ``prompt.seat`` at ``level``, from what
    that seat may know and ``rnd``, thinking at most about ``budget_s`` seconds."""
    return decide(game, state, prompt, current_level(level), rnd.getrandbits(SEED_BITS),
                  budget_s=budget_s)
