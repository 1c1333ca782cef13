"""AI levels against each other: win rates, scores and time per decision.

For each game and player count, whole games are played straight on the engine with
one focal seat at a level and every other seat at another (``strong`` against three
``normal`` greedy players, say), over fixed seeds; the focal seat moves round the table
from game to game so no seat's advantage counts for it. Reported per match (one JSON
object per line):

- ``win_rate`` of the focal level, a shared win counting as its share, with a 95%
  Wilson interval, and ``chance`` (1 / players) to compare with;
- ``mean_score`` of the focal seat and of the others;
- ``decision_ms`` p50/p99 of every decision the focal level made with a choice to make
  (one-option prompts are not decisions), and the budget it was given;
- ``bars``: the issue's bars for this match where it has one, and whether they are met.

Besides the levels a seat can have, ``random`` plays a uniformly random real option at
every decision: the baseline every level must beat.

Every seat decides through ``engine.ai.decide``: on a state redrawn for it, never the
real one. Usage::

    python -m bench.ai [--games N] [--game NAME] [--players 2,4] [--budget S]
        [--iterations N] [--matches strong:normal,normal:easy] [--seed S]

``--iterations N`` caps a search at N iterations a decision; without ``--budget`` it
then has no time limit, so a match is repeatable (and cheaper to compare with).
"""

from __future__ import annotations

import argparse
import json
import math
import random
import time
from dataclasses import dataclass
from typing import Any

from engine.ai import decide
from engine.ai.greedy import real_options
from engine.registry import games, get_game

# The bars: (focal, others, players) -> the win rate the focal level must reach.
WIN_BARS: dict[tuple[str, str, int], float] = {
    ("strong", "normal", 4): 0.50,
    ("strong", "normal", 2): 0.75,
}
# Caverna's strong player must average this many points in four-player games.
SCORE_BARS: dict[tuple[str, str, int], float] = {("caverna", "strong", 4): 60.0}
P99_OVER_BUDGET_MAX = 1.5
# A baseline no seat is offered: a uniformly random real option at every decision.
RANDOM = "random"


@dataclass
class Tally:
    """What one match gathered."""

    wins: float = 0.0
    games: int = 0
    focal_scores: list[int] | None = None
    other_scores: list[int] | None = None
    times: list[float] | None = None


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a win rate."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def mean(values: list[int] | None) -> float | None:
    """The mean, to one decimal (None for no values)."""
    return round(sum(values) / len(values), 1) if values else None


def percentile(values: list[float], q: float) -> float | None:
    """The ``q`` quantile (nearest rank) of ``values``."""
    if not values:
        return None
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(q * len(ordered)) - 1))]


def play(name: str, players: int, focal: str, others: str, seed: int, focal_seat: int,
         budget: float | None, tally: Tally, iterations: int | None = None) -> None:
    """One game: ``focal_seat`` plays ``focal``, every other seat ``others`` (a
    searching level within ``budget`` seconds and ``iterations`` a decision)."""
    game: Any = get_game(name)
    state = game.new(players, seed)
    rnd = random.Random(seed)
    assert tally.times is not None and tally.focal_scores is not None
    assert tally.other_scores is not None
    while prompts := game.pending(state):
        prompt = prompts[0]
        level = focal if prompt.seat == focal_seat else others
        choice = len(real_options(prompt)) > 1
        started = time.perf_counter()
        key = (rnd.choice(real_options(prompt)).key if level == RANDOM
               else decide(game, state, prompt, level, rnd.getrandbits(62), budget_s=budget,
                         iterations=iterations))
        if choice and prompt.seat == focal_seat:
            tally.times.append(time.perf_counter() - started)
        game.apply(state, prompt.seat, key)
    result = game.result(state)
    tally.games += 1
    if focal_seat in result.winners:
        tally.wins += 1 / len(result.winners)
    for score in result.scores:
        (tally.focal_scores if score.seat == focal_seat else tally.other_scores).append(
            score.total)


def match(name: str, players: int, focal: str, others: str, count: int, seed: int,
          budget: float | None, iterations: int | None = None) -> dict[str, Any]:
    """``count`` games of one match, and its figures (see the module); ``budget`` None
    with ``iterations`` set: searches capped by iterations alone."""
    tally = Tally(focal_scores=[], other_scores=[], times=[])
    started = time.perf_counter()
    for i in range(count):
        play(name, players, focal, others, seed + i, i % players, budget, tally, iterations)
    low, high = wilson(tally.wins, tally.games)
    times = tally.times or []
    p99 = percentile(times, 0.99)
    out: dict[str, Any] = {
        "bench": "ai", "game": name, "players": players, "focal": focal, "others": others,
        "games": tally.games, "budget_s": budget, "iterations": iterations,
        "win_rate": round(tally.wins / tally.games, 3) if tally.games else None,
        "win_rate_ci95": [round(low, 3), round(high, 3)], "chance": round(1 / players, 3),
        "mean_score": {"focal": mean(tally.focal_scores), "others": mean(tally.other_scores)},
        "decisions": len(times),
        "decision_ms": {"p50": round(1000 * (percentile(times, 0.5) or 0), 1),
                        "p99": round(1000 * (p99 or 0), 1)},
        "seconds": round(time.perf_counter() - started, 1),
    }
    bars: dict[str, Any] = {}
    if (win := WIN_BARS.get((focal, others, players))) is not None:
        bars["win_rate_min"] = win
        bars["win_rate_met"] = bool(out["win_rate"] is not None and out["win_rate"] >= win)
    if (score := SCORE_BARS.get((name, focal, players))) is not None:
        bars["mean_score_min"] = score
        bars["mean_score_met"] = bool((out["mean_score"]["focal"] or 0) >= score)
    if focal == "strong":
        bars["p99_over_budget_max"] = P99_OVER_BUDGET_MAX
        bars["p99_met"] = bool(p99 is None or budget is None
                               or p99 <= P99_OVER_BUDGET_MAX * budget)
    out["bars"] = bars
    return out


def main() -> None:
    """Play the matches asked for and print one JSON object per match."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--game", choices=sorted(games()), default=None)
    parser.add_argument("--games", type=int, default=8, help="games per match")
    parser.add_argument("--players", type=lambda s: [int(n) for n in s.split(",")],
                        default=[2, 4])
    parser.add_argument("--budget", type=float, default=None,
                        help="seconds per decision (default 2, or none with --iterations)")
    parser.add_argument("--iterations", type=int, default=None,
                        help="iterations per search decision (repeatable without --budget)")
    parser.add_argument("--matches", type=lambda s: [tuple(m.split(":")) for m in s.split(",")],
                        default=[("strong", "normal"), ("normal", "easy"),
                                 ("strong", "easy"), ("strong", RANDOM), ("normal", RANDOM)])
    parser.add_argument("--seed", type=int, default=2000)
    args = parser.parse_args()
    budget = args.budget if args.budget is not None or args.iterations else 2.0
    for name in [args.game] if args.game else list(games()):
        for players in args.players:
            for focal, others in args.matches:
                print(json.dumps(match(name, players, focal, others, args.games, args.seed,
                                       budget, args.iterations)), flush=True)


if __name__ == "__main__":
    main()
