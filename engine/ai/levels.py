"""The levels a computer player plays at, as data, and the one way to ask for a move.

- ``easy``: greedy, but a third of its decisions are random;
- ``normal``: greedy (each option tried once on a redrawn state);
- ``strong``: information-set MCTS (``engine.ai.search``) within a time budget per
  decision.

Every level decides on ``Game.redraw(state, seat, seed)``, never on ``state`` itself
(see ``engine.ai``).
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field, replace
from typing import Any, Literal

from engine.ai.greedy import greedy, real_options
from engine.ai.search import SearchLimits, search
from engine.core.prompts import Prompt
from engine.core.protocol import Game
from engine.core.redraw import SEED_BITS

LevelName = Literal["easy", "normal", "strong"]


@dataclass(frozen=True, slots=True)
class Level:
    """How a level plays: ``greedy`` with ``noise``, or ``search`` within ``limits``."""

    way: Literal["greedy", "search"]
    noise: float = 0.0
    limits: SearchLimits = field(default_factory=SearchLimits)


LEVELS: dict[str, Level] = {
    "easy": Level("greedy", noise=1 / 3),
    "normal": Level("greedy"),
    "strong": Level("search"),
}


def decide(game: Game[Any], state: Any, prompt: Prompt, level: str, seed: int,
           budget_s: float | None = None, iterations: int | None = None) -> str:
    """The key ``level`` plays for ``prompt.seat`` on ``state``, from ``seed``:
    ``budget_s`` (seconds) and ``iterations`` override a searching level's limits (an
    iteration cap with no time limit makes a search repeatable)."""
    options = real_options(prompt)
    if len(options) == 1:
        return options[0].key
    way = LEVELS[level]
    rnd = random.Random(seed)
    info = game.redraw(state, prompt.seat, rnd.getrandbits(SEED_BITS))
    if way.way == "greedy":
        return greedy(game, info, prompt, rnd, way.noise)
    limits = way.limits
    if budget_s is not None:
        limits = replace(limits, seconds=budget_s)
    if iterations is not None:
        limits = replace(limits, iterations=iterations,
                         seconds=limits.seconds if budget_s is not None else math.inf)
    return search(game, info, prompt, rnd, limits)
