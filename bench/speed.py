"""Engine speed for search, this tree against a base commit in the same run.

Search plays many games inside one decision, so what counts is how fast an engine
applies moves and copies states. For each game, four-player random legal games (a
uniformly random open prompt, a uniformly random option: the playout of
``engine.core.playout``, without invariant checks or state sampling) are played on
both trees, and states sampled along them are copied (``Game.copy`` where the tree has
it, else through JSON as search had to before). Reported per game and tree:

- ``games_per_sec`` and ``actions_per_game``;
- ``copy_us``: mean microseconds per state copy, and ``copy_ms_per_game``: what one
  copy after every action of a game would cost;
- ``bar``: the issue's games-per-second bar and whether this tree meets it;

- ``compiled``: whether the tree ran its game's compiled modules (``engine.compiled``;
  the base has none), and for this tree ``source``: its figures on the engines' source
  (``CAMPFIRE_ENGINES=python``), so what compiling adds shows apart;

and ``speedup`` (head games/s over base games/s). The engines are compiled first when
this source has no build yet. Each tree runs in its own process
(``--driver``), base and head taking turns ``--rounds`` times; the best round of each
counts, so a busy moment on a shared machine hurts neither more than the other.

    python -m bench.speed [--game NAME] [--games N] [--players P] [--rounds R]
        [--base 8bfe800]
"""

from __future__ import annotations

import argparse
import importlib
import json
import random
import subprocess
import sys
import time
from typing import Any

BASE = "8bfe800"  # issue 24's base
GAMES = ("stone_age", "hunters_gatherers", "caverna")
# Issue 24: four-player random games per second on one core, without invariant checks.
BARS = {"stone_age": 100.0, "hunters_gatherers": 40.0, "caverna": 30.0}
COPY_SAMPLES = 20  # states copied per game, spread along it


def _copier(game: Any) -> Any:
    """The tree's cheapest copy: ``Game.copy`` if it has one, else JSON both ways."""
    copy = getattr(game, "copy", None)
    return copy if copy is not None else (lambda s: game.load(game.dump(s)))


def _ran_compiled(game: str) -> bool:
    """Did this process load ``game``'s compiled modules (asked once it is loaded)?"""
    try:
        from engine.compiled import MODULES, compiled
    except ImportError:  # a tree from before the engines were compiled
        return False
    own = [name for name in MODULES if name.startswith(f"engine.{game}.")]
    return bool(own) and all(compiled(importlib.import_module(name)) for name in own)


def drive(config: dict[str, Any]) -> dict[str, Any]:
    """One tree's figures for ``config`` (run inside that tree's process)."""
    from engine.registry import get_game

    game = get_game(config["game"])
    copy = _copier(game)
    players, count, seed = config["players"], config["games"], config["seed"]
    samples: list[Any] = []
    actions = 0
    started = time.perf_counter()
    for i in range(count):
        agent = random.Random(seed + i)
        state = game.new(players, seed + i)
        while prompts := game.pending(state):
            prompt = agent.choice(prompts)
            game.apply(state, prompt.seat, agent.choice(prompt.options).key)
            actions += 1
            if i == 0 and actions % 25 == 0:
                samples.append(copy(state))
    seconds = time.perf_counter() - started
    samples = samples[:: max(1, len(samples) // COPY_SAMPLES)]
    started = time.perf_counter()
    rounds = 20
    for _ in range(rounds):
        for state in samples:
            copy(state)
    copy_s = (time.perf_counter() - started) / (rounds * len(samples)) if samples else 0.0
    per_game = actions / count if count else 0.0
    return {"games_per_sec": round(count / seconds, 2), "actions_per_game": round(per_game, 1),
            "copy_us": round(copy_s * 1e6, 1),
            "copy_ms_per_game": round(copy_s * per_game * 1000, 1),
            "compiled": _ran_compiled(config["game"])}


def _best(runs: list[dict[str, Any]]) -> dict[str, Any]:
    """The round with the most games per second (copy time: the least of any round)."""
    best = dict(max(runs, key=lambda r: r["games_per_sec"]))
    best["copy_us"] = min(r["copy_us"] for r in runs)
    best["copy_ms_per_game"] = min(r["copy_ms_per_game"] for r in runs)
    return best


def bench(args: argparse.Namespace) -> list[dict[str, Any]]:
    """Every game asked for, on the base and on this tree."""
    # Imported here, not at the top: the driver runs in the base tree, which may
    # have no bench.trees.
    from bench.trees import HEAD_TREE, base_tree, head_commit, run_driver
    from engine.compiled import SWITCH, build

    try:
        build()
    except (subprocess.CalledProcessError, OSError) as exc:
        print(f"engines not compiled, measuring their source: {exc}", file=sys.stderr)
    commit = head_commit()
    out = []
    with base_tree(args.base) as tree:
        for name in [args.game] if args.game else list(GAMES):
            config = {"game": name, "players": args.players, "games": args.games,
                      "seed": args.seed}
            base_runs, head_runs, source_runs = [], [], []
            for _ in range(args.rounds):
                base_runs.append(run_driver(__file__, tree, config))
                head_runs.append(run_driver(__file__, HEAD_TREE, config))
                source_runs.append(run_driver(__file__, HEAD_TREE, config, {SWITCH: "python"}))
            base, head = _best(base_runs), _best(head_runs)
            head["source"] = _best(source_runs)
            bar = BARS.get(name)
            out.append({
                "bench": "speed", "game": name, "players": args.players,
                "games": args.games, "rounds": args.rounds,
                "base": {"commit": args.base, **base}, "head": {"commit": commit, **head},
                "speedup": round(head["games_per_sec"] / base["games_per_sec"], 2),
                "bar": {"games_per_sec_min": bar,
                        "met": bar is not None and head["games_per_sec"] >= bar},
            })
    return out


def main(argv: list[str] | None = None) -> int:
    """Print one JSON object per game (``--driver``: one tree's figures)."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--driver", help=argparse.SUPPRESS)
    parser.add_argument("--game", choices=GAMES, default=None)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1000)
    parser.add_argument("--base", default=BASE, help="the commit to compare with")
    args = parser.parse_args(argv)
    if args.driver:
        print(json.dumps(drive(json.loads(args.driver))))
        return 0
    for row in bench(args):
        print(json.dumps(row), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
