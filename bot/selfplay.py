"""Self-play: many random legal games of one game, summarised as one JSON object."""

from __future__ import annotations

import time
from typing import Any

from engine.core.playout import random_playout
from engine.registry import get_game


def selfplay(
    game_name: str, players: int, games: int, seed: int, *, check: bool = True
) -> dict[str, Any]:
    """Play ``games`` games from seeds ``seed, seed+1, …`` and report speed and outcomes.

    ``errors`` counts games that crashed, broke an invariant or did not end; the first
    few messages are kept in ``error_samples`` so a failure is never silent.
    """
    game = get_game(game_name)
    started = time.perf_counter()
    runs = [random_playout(game, players, seed + i, check=check) for i in range(games)]
    seconds = time.perf_counter() - started
    failed = [r for r in runs if r.error]
    finished = [r for r in runs if r.result is not None and not r.error]
    sizes = [b for r in runs for b in r.state_bytes]
    mean_scores = [
        round(sum(r.result.scores[s].total for r in finished if r.result) / len(finished), 2)
        for s in range(players)
    ] if finished else []
    return {
        "game": game_name,
        "players": players,
        "games": games,
        "errors": len(failed),
        "error_samples": [f"seed {r.seed}: {r.error}" for r in failed[:5]],
        "checked_invariants": check,
        "seconds": round(seconds, 3),
        "games_per_sec": round(games / seconds, 2) if seconds else None,
        "actions_per_game": round(sum(r.actions for r in runs) / games, 1) if games else 0,
        "actions_per_sec": round(sum(r.actions for r in runs) / seconds, 1) if seconds else None,
        "mean_state_bytes": round(sum(sizes) / len(sizes), 1) if sizes else 0,
        "max_state_bytes": max(sizes, default=0),
        "mean_scores": mean_scores,
    }
