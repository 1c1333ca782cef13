"""Do this tree and a base commit play exactly the same games? The check behind every
speed change that must not change the rules.

For each player count, random legal playouts (the uniform player of
``engine.core.playout``, seeded by the game's seed) are played to the end on both trees,
and the JSON of every final state (``Game.dump``) is hashed: a digest per tree and
player count. Equal digests mean every game ended in exactly the same state. Each tree
runs in its own process (``--driver``), like ``bench.speed``.

    python -m bench.same_games [--game NAME] [--seeds N] [--players 1 2 4] [--base COMMIT]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
from typing import Any


def digest(game_name: str, players: int, seeds: int, first: int, copies: bool = False
           ) -> str:
    """The hash of the final states of ``seeds`` random playouts (run inside a tree);
    with ``copies``, a move is tried on a copy before each move (see the module)."""
    from engine.registry import get_game

    game = get_game(game_name)
    out = hashlib.sha256()
    for seed in range(first, first + seeds):
        agent, other = random.Random(seed), random.Random(-seed)
        state = game.new(players, seed)
        while prompts := game.pending(state):
            if copies:
                trial = game.copy(state)
                tried = other.choice(game.pending(trial))
                game.apply(trial, tried.seat, other.choice(tried.options).key)
            prompt = agent.choice(prompts)
            game.apply(state, prompt.seat, agent.choice(prompt.options).key)
        out.update(game.dump(state).encode())
    return out.hexdigest()[:16]


def main(argv: list[str] | None = None) -> int:
    """Print the digests of both trees per player count; exit 1 if any differ."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--driver", help=argparse.SUPPRESS)
    parser.add_argument("--game", default="caverna")
    parser.add_argument("--seeds", type=int, default=30)
    parser.add_argument("--first", type=int, default=1)
    parser.add_argument("--players", type=int, nargs="+", default=[1, 2, 4])
    parser.add_argument("--base", default="main", help="the commit to compare with")
    parser.add_argument("--copies", action="store_true",
                        help="also play each game trying moves on copies (head only)")
    args = parser.parse_args(argv)
    if args.driver:
        config = json.loads(args.driver)
        print(json.dumps({str(p): digest(config["game"], p, config["seeds"], config["first"],
                                         config.get("copies", False))
                          for p in config["players"]}))
        return 0
    # Imported here, not at the top: the driver runs in the base tree, which may
    # have no bench.trees.
    from bench.trees import HEAD_TREE, base_tree, run_driver

    config = {"game": args.game, "seeds": args.seeds, "first": args.first,
              "players": args.players}
    with base_tree(args.base) as tree:
        base = run_driver(__file__, tree, config)
    head = run_driver(__file__, HEAD_TREE, config)
    same = base == head
    row: dict[str, Any] = {"bench": "same_games", "game": args.game, "seeds": args.seeds,
                           "base": {"commit": args.base, **base}, "head": head}
    if args.copies:
        row["head_via_copies"] = run_driver(__file__, HEAD_TREE, {**config, "copies": True})
        same = same and row["head_via_copies"] == head
    print(json.dumps({**row, "same": same}))
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
