"""Stone Age engine speed: random 4-player playouts.

Prints one JSON object: games/s, actions/game and serialised state size, for plain
playouts and for playouts that also check every invariant after every action (the
fuzzing configuration), measured in the same run. Usage:

    python -m bench.stone_age_playouts [--games N] [--players P] [--seed S]
"""

from __future__ import annotations

import argparse
import json
import platform

from bot.selfplay import selfplay

BAR_GAMES_PER_SEC = 20
BAR_STATE_BYTES = 8192


def main() -> None:
    """Run both configurations and print the figures with the bars they are held to."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1000)
    args = parser.parse_args()
    plain = selfplay("stone_age", args.players, args.games, args.seed, check=False)
    checked = selfplay("stone_age", args.players, args.games, args.seed, check=True)
    print(json.dumps({
        "bench": "stone_age_playouts",
        "python": platform.python_version(),
        "players": args.players,
        "games": args.games,
        "games_per_sec": plain["games_per_sec"],
        "actions_per_sec": plain["actions_per_sec"],
        "actions_per_game": plain["actions_per_game"],
        "mean_state_bytes": plain["mean_state_bytes"],
        "max_state_bytes": plain["max_state_bytes"],
        "errors": plain["errors"] + checked["errors"],
        "with_invariant_checks": {
            "games_per_sec": checked["games_per_sec"],
            "slowdown": round(plain["games_per_sec"] / checked["games_per_sec"], 2),
        },
        "bar": {
            "games_per_sec_min": BAR_GAMES_PER_SEC,
            "state_bytes_max": BAR_STATE_BYTES,
            "met": plain["games_per_sec"] >= BAR_GAMES_PER_SEC
            and plain["max_state_bytes"] <= BAR_STATE_BYTES,
        },
    }))


if __name__ == "__main__":
    main()
