"""How good a position is for every seat, as a number in [0, 1] per seat.

A finished game is judged by its result: a winner scores 1, any other seat less the
further it is behind the best of the others. An unfinished one by the game's heuristic
(``Game.heuristic``) for each seat against what the same heuristic said where the search
began (``baseline``): what a seat gained since, less ``Game.rivalry`` times what the
rival that gained most gained, squashed into (0, 1).

How much the rivals' gains count is the game's to say, as it depends on how its
heuristic values a rival's position. Caverna's values a rival's roughly (what lies open
on the board for them, say), and a player steered by those rough rival values was seen
to spoil its own game to dent theirs: it judges each seat by its own gain alone. Stone
Age's prices what is left of the game, which every seat loses alike as the game draws
to its end: judged by its own gain alone, a seat shuns what brings the end nearer (a
card, a building) and compares positions at different depths of the tree unfairly,
while against its rivals' gains what all seats share cancels out. A game may judge a
seat against its rivals' mean gain instead of the top one's (``Game.rival_mean``; the
same with two seats).
"""

from __future__ import annotations

import math
from typing import Any

from engine.core.protocol import Game, Result

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
    if result is not None:
        return _final(result, len(base))
    gains = [game.heuristic(state, s) - b for s, b in enumerate(base)]
    if not game.rivalry or len(gains) < 2:
        return [_squash(g) for g in gains]
    if game.rival_mean:
        # Each seat against its rivals' mean gain: less noisy than the top one's, which
        # is whoever a lucky draw favoured in that determinization.
        total = sum(gains)
        return [_squash(g - game.rivalry * (total - g) / (len(gains) - 1)) for g in gains]
    # Each seat against the rival that gained most: the one to beat, so that a seat
    # that merely keeps up with the average of three rivals is not content.
    top, second = sorted(gains, reverse=True)[:2]
    return [_squash(g - game.rivalry * (second if g == top else top)) for g in gains]


def reward(game: Game[Any], state: Any, base: list[float], seat: int) -> float:
    """``seat``'s reward alone (what ``rewards`` gives it): judging no other seat's
    position when the game weighs no rival's gain."""
    if game.rivalry or game.result(state) is not None:
        return rewards(game, state, base)[seat]
    return _squash(game.heuristic(state, seat) - base[seat])


def _final(result: Result, seats: int) -> list[float]:
    """Every seat's reward for a finished game: 1 for a winner, less the further behind."""
    totals = [0.0] * seats
    for score in result.scores:
        totals[score.seat] = float(score.total)
    won = set(result.winners)
    out = []
    for s, total in enumerate(totals):
        rival = max((t for j, t in enumerate(totals) if j != s), default=total - 2 * SCALE)
        out.append(1.0 if s in won else 0.5 * _squash(total - rival))
    return out
