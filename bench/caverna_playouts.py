"""Caverna engine speed: random playouts, and games the greedy autopilot plays.

Prints one JSON object: games/s, actions/game and serialised state size, for plain
playouts and for playouts that also check every invariant after every action, measured
in the same run, with the bar issue 11 holds the engine to (at least 5 four-player games
per second without invariant checks, state at most 16 KB); then seconds per game when
every seat is on the greedy autopilot (``--greedy N`` games, 0 to skip), with their
average total and begging markers per player. Usage:

    python -m bench.caverna_playouts [--games N] [--players P] [--seed S] [--greedy N]
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import time
from typing import Any

from bot.selfplay import selfplay
from bot.table.autopilot import choose
from engine.caverna.caverna_game import CAVERNA

BAR_GAMES_PER_SEC = 5
BAR_STATE_BYTES = 16 * 1024


def greedy(players: int, games: int, seed: int) -> dict[str, Any]:
    """Play ``games`` games with every seat on the greedy autopilot."""
    started = time.perf_counter()
    totals: list[int] = []
    begging: list[int] = []
    actions = 0
    for i in range(games):
        state = CAVERNA.new(players, seed + i)
        rnd = random.Random(seed + i)
        while prompts := CAVERNA.pending(state):
            prompt = prompts[0]
            CAVERNA.apply(state, prompt.seat, choose(CAVERNA, state, prompt, "greedy", rnd))
            actions += 1
        result = CAVERNA.result(state)
        totals += [s.total for s in result.scores] if result else []
        begging += [p.begging for p in state.players]
    seconds = time.perf_counter() - started
    return {
        "games": games,
        "sec_per_game": round(seconds / games, 2) if games else None,
        "actions_per_game": round(actions / games, 1) if games else 0,
        "mean_total": round(sum(totals) / len(totals), 1) if totals else None,
        "mean_begging": round(sum(begging) / len(begging), 2) if begging else None,
    }


def main() -> None:
    """Run both configurations and print the figures with the bars they are held to."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1000)
    parser.add_argument("--greedy", type=int, default=2)
    args = parser.parse_args()
    plain = selfplay("caverna", args.players, args.games, args.seed, check=False)
    checked = selfplay("caverna", args.players, args.games, args.seed, check=True)
    print(json.dumps({
        "bench": "caverna_playouts",
        "python": platform.python_version(),
        "players": args.players,
        "games": args.games,
        "games_per_sec": plain["games_per_sec"],
        "actions_per_sec": plain["actions_per_sec"],
        "actions_per_game": plain["actions_per_game"],
        "mean_state_bytes": plain["mean_state_bytes"],
        "max_state_bytes": plain["max_state_bytes"],
        "errors": plain["errors"] + checked["errors"],
        "error_samples": plain["error_samples"] + checked["error_samples"],
        "with_invariant_checks": {
            "games_per_sec": checked["games_per_sec"],
            "slowdown": round(plain["games_per_sec"] / checked["games_per_sec"], 2)
            if plain["games_per_sec"] and checked["games_per_sec"] else None,
        },
        "greedy_autopilot": greedy(args.players, args.greedy, args.seed)
        if args.greedy else None,
        "bar": {
            "games_per_sec_min": BAR_GAMES_PER_SEC,
            "state_bytes_max": BAR_STATE_BYTES,
            "met": plain["games_per_sec"] is not None
            and plain["games_per_sec"] >= BAR_GAMES_PER_SEC
            and plain["max_state_bytes"] <= BAR_STATE_BYTES,
        },
    }))


if __name__ == "__main__":
    main()
