"""A game whose heuristic reads the whole position it is given, hidden part and all: a
player deciding on it would follow a peek wherever it led, so a test of fairness run
on it catches any leak of the real hidden part into a decision."""

from __future__ import annotations

import random
from typing import Any

from pydantic import BaseModel

from engine.core.protocol import Game


class Omniscient:
    """``game`` with the all-seeing heuristic (everything else is the game's own)."""

    def __init__(self, game: Game[Any]) -> None:
        """Wrap ``game``."""
        self.game = game

    def __getattr__(self, name: str) -> Any:
        return getattr(self.game, name)

    def heuristic(self, state: BaseModel, seat: int) -> float:
        """A value that changes with any byte of the state."""
        return random.Random(self.game.dump(state)).random() * 10
