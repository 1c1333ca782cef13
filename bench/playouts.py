"""Engine speed of any registered game: random playouts and greedy-autopilot games.

Prints one JSON object per game (one line each): games/s, actions/game and serialised
state size for random playouts, plain and with every invariant checked after every
action (the fuzzing configuration), measured in the same run; seconds per game when
every seat is on the greedy autopilot (``--greedy N`` games, 0 to skip); the game's own
extra measurements; and the bars the game is held to (``bench.per_game``). Usage:

    python -m bench.playouts [--game NAME] [--games N] [--players P] [--seed S] [--greedy N]

Without ``--game`` every registered game is measured in turn.
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import time
from typing import Any

from bench.per_game import PLAYOUTS, Playouts
from bot.selfplay import selfplay
from bot.table.autopilot import choose
from engine.core.protocol import Game
from engine.registry import games, get_game


def greedy(game: Game[Any], players: int, count: int, seed: int,
           player_means: tuple[str, ...] = ()) -> dict[str, Any]:
    """Play ``count`` games with every seat on the greedy autopilot; with the mean of
    each of ``player_means`` (attributes of the final state's players)."""
    started = time.perf_counter()
    totals: list[int] = []
    by_player: dict[str, list[float]] = {name: [] for name in player_means}
    actions = 0
    for i in range(count):
        # Any: the players' attributes asked for are the game's own, not the protocol's.
        state: Any = game.new(players, seed + i)
        rnd = random.Random(seed + i)
        while prompts := game.pending(state):
            prompt = prompts[0]
            game.apply(state, prompt.seat, choose(game, state, prompt, "greedy", rnd))
            actions += 1
        result = game.result(state)
        totals += [s.total for s in result.scores] if result else []
        for name, values in by_player.items():
            values += [getattr(p, name) for p in state.players]
    seconds = time.perf_counter() - started
    out: dict[str, Any] = {
        "games": count,
        "sec_per_game": round(seconds / count, 2) if count else None,
        "actions_per_game": round(actions / count, 1) if count else 0,
        "mean_total": round(sum(totals) / len(totals), 1) if totals else None,
    }
    for name, values in by_player.items():
        out[f"mean_{name}"] = round(sum(values) / len(values), 2) if values else None
    return out


def measure(name: str, players: int | None, count: int | None, seed: int,
            greedy_games: int | None) -> dict[str, Any]:
    """Every figure of one game's playout bench (None: four players, or as near as the
    game allows; the game's default counts)."""
    setting = PLAYOUTS.get(name, Playouts())
    game = get_game(name)
    # Four seats unless asked otherwise, within what the game allows.
    players = players or min(max(4, game.min_players), game.max_players)
    count = setting.games if count is None else count
    greedy_games = setting.greedy if greedy_games is None else greedy_games
    plain = selfplay(name, players, count, seed, check=False)
    checked = selfplay(name, players, count, seed, check=True)
    speed, checked_speed = plain["games_per_sec"], checked["games_per_sec"]
    met = [speed is not None and speed >= setting.games_per_sec_min
           ] if setting.games_per_sec_min is not None else []
    if setting.state_bytes_max is not None:
        met.append(plain["max_state_bytes"] <= setting.state_bytes_max)
    return {
        "bench": "playouts",
        "game": name,
        "python": platform.python_version(),
        "players": players,
        "games": count,
        "games_per_sec": speed,
        "actions_per_sec": plain["actions_per_sec"],
        "actions_per_game": plain["actions_per_game"],
        "mean_state_bytes": plain["mean_state_bytes"],
        "max_state_bytes": plain["max_state_bytes"],
        "errors": plain["errors"] + checked["errors"],
        "error_samples": plain["error_samples"] + checked["error_samples"],
        "with_invariant_checks": {
            "games_per_sec": checked_speed,
            "slowdown": round(speed / checked_speed, 2) if speed and checked_speed else None,
        },
        "greedy_autopilot": greedy(game, players, greedy_games, seed,
                                   setting.player_means) if greedy_games else None,
        **{key: probe() for key, probe in setting.probes.items()},
        "bar": {
            "games_per_sec_min": setting.games_per_sec_min,
            "state_bytes_max": setting.state_bytes_max,
            "met": all(met) if met else None,
        },
    }


def main() -> None:
    """Measure the game asked for (every registered game if none) and print the figures."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--game", choices=sorted(games()), default=None,
                        help="a registered game (default: every game)")
    parser.add_argument("--games", type=int, default=None,
                        help="random playouts per configuration (default: the game's)")
    parser.add_argument("--players", type=int, default=None,
                        help="seats (default: 4, or as near as the game allows)")
    parser.add_argument("--seed", type=int, default=1000)
    parser.add_argument("--greedy", type=int, default=None,
                        help="greedy-autopilot games, 0 to skip (default: the game's)")
    args = parser.parse_args()
    for name in [args.game] if args.game else list(games()):
        print(json.dumps(measure(name, args.players, args.games, args.seed, args.greedy)),
              flush=True)


if __name__ == "__main__":
    main()
