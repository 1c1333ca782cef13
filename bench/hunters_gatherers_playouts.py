"""Hunters and Gatherers engine speed: random playouts and the cost of finding spots.

Prints one JSON object: games/s, actions/game and state size for random 4-player
playouts (plain, and with every invariant checked after every action, measured in the
same run), and the time to list the legal spots of a tile against the size of the map.

    python -m bench.hunters_gatherers_playouts [--games N] [--players P]
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import time

from bot.selfplay import selfplay
from engine.hunters_gatherers.geometry import Placement, legal_placements
from engine.hunters_gatherers.tiles import tile, tiles_of

BAR_GAMES_PER_SEC = 10


def spot_search_cost(sizes: tuple[int, ...], repeats: int = 200) -> list[dict[str, float]]:
    """Microseconds to list every legal (spot, rotation) of a random tile, by map size."""
    rnd = random.Random(7)
    land = [t.id for t in tiles_of("land")]
    start = next(t.id for t in tiles_of("start"))
    board = {(0, 0): Placement(tile(start), 0)}
    pile = land[:]
    rnd.shuffle(pile)
    out = []
    for size in sizes:
        while len(board) < size and pile:
            candidate = tile(pile.pop())
            found = legal_placements(board, candidate)
            if found:
                pos, rotation = rnd.choice(found)
                board[pos] = Placement(candidate, rotation)
        probes = [tile(t) for t in rnd.sample(land, 20)]
        started = time.perf_counter()
        for i in range(repeats):
            legal_placements(board, probes[i % len(probes)])
        micros = (time.perf_counter() - started) / repeats * 1e6
        out.append({"tiles_on_map": len(board), "us_per_search": round(micros, 1)})
    return out


def main() -> None:
    """Run the playouts and the spot search; print the figures with the bar."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1000)
    args = parser.parse_args()
    plain = selfplay("hunters_gatherers", args.players, args.games, args.seed, check=False)
    checked = selfplay("hunters_gatherers", args.players, args.games, args.seed, check=True)
    print(json.dumps({
        "bench": "hunters_gatherers_playouts",
        "python": platform.python_version(),
        "players": args.players,
        "games": args.games,
        "games_per_sec": plain["games_per_sec"],
        "actions_per_game": plain["actions_per_game"],
        "mean_state_bytes": plain["mean_state_bytes"],
        "max_state_bytes": plain["max_state_bytes"],
        "errors": plain["errors"] + checked["errors"],
        "with_invariant_checks": {"games_per_sec": checked["games_per_sec"]},
        "spot_search": spot_search_cost((1, 10, 20, 40, 60, 79)),
        "bar": {"games_per_sec_min": BAR_GAMES_PER_SEC,
                "met": plain["games_per_sec"] >= BAR_GAMES_PER_SEC},
    }))


if __name__ == "__main__":
    main()
