"""How good a position is for every seat, as a number in [0, 1] per seat.

A finished game is judged by its result: a winner scores 1, any other seat less the
further it is behind the best of the others. An unfinished one by the game's heuristic
(``Game.heuristic``) for each seat against what the same heuristic said where the search
began (``baseline``): what a seat gained since, squashed into (0, 1). Each seat is judged
by its own gain, not by its lead over rivals: the heuristics value a rival's position
roughly (what lies open on the board for them, say), and a player steered by those
rough rival values was seen to spoil its own game to dent theirs.
"""

from __future__ import annotations

import math
from typing import Any

from engine.core.protocol import Game

# Points of gain (or lead, at the end) that make a position about three quarters won:
# a few turns' income in each of the three games (their heuristics count in points).
SCALE = 8.0


def _squash(points: float) -> float:
    return 1.0 / (1.0 + math.exp(-points / SCALE))


def baseline(game: Game[Any], state: Any, seats: int) -> list[float]:
    """Every seat's heuristic value of ``state``: what a search's gains are measured from."""
    return [game.heuristic(state, s) for s in range(seats)]


def rewards(game: Game[Any], state: Any, base: list[float]) -> list[float]:
    """Every seat's reward in [0, 1] for ``state`` (see the module); ``base`` is the
    ``baseline`` of the position the search began from."""
    result = game.result(state)
    if result is None:
        return [_squash(game.heuristic(state, s) - b) for s, b in enumerate(base)]
    totals = [0.0] * len(base)
    for score in result.scores:
        totals[score.seat] = float(score.total)
    won = set(result.winners)
    out = []
    for s, total in enumerate(totals):
        rival = max((t for j, t in enumerate(totals) if j != s), default=total - 2 * SCALE)
        out.append(1.0 if s in won else 0.5 * _squash(total - rival))
    return out
