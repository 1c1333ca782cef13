"""The ``campfire`` command."""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Mapping

from adapters.edge.registry import PLATFORMS, served_by_default
from adapters.edge.serve import serve_main
from adapters.ratings_cli import rebuild_main
from bot.selfplay import selfplay
from engine.registry import games


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="campfire", description="Campfire: board games in group chats."
    )
    sub = parser.add_subparsers(dest="command")
    for name, edge in PLATFORMS.items():
        platform = sub.add_parser(name, help=edge.summary)
        if edge.options is not None:
            edge.options(platform)
    sp = sub.add_parser("selfplay", help="play random legal games and report speed and errors")
    sp.add_argument("--game", required=True, choices=sorted(games()))
    sp.add_argument("--players", type=int, default=4)
    sp.add_argument("--games", type=int, default=10)
    sp.add_argument("--seed", type=int, default=1)
    sp.add_argument("--json", action="store_true", help="print one JSON line")
    sp.add_argument("--no-check", action="store_true", help="skip invariant checks (faster)")
    ratings = sub.add_parser("ratings", help="players' ratings: rebuild them from the "
                             "kept results")
    ratings.add_argument("action", choices=["rebuild"])
    return parser


def with_command(argv: list[str], environ: Mapping[str, str]) -> list[str]:
    """``argv`` with the platform served by default named first when it starts with an
    option: ``campfire --seed 3`` is ``campfire console --seed 3`` on a machine without
    tokens (the options belong to the platform that runs)."""
    if argv and argv[0].startswith("-") and argv[0] not in ("-h", "--help"):
        return [served_by_default(environ)[0], *argv]
    return argv


def main(argv: list[str] | None = None) -> int:
    """Entry point; returns the process exit code."""
    args = _parser().parse_args(with_command(sys.argv[1:] if argv is None else argv,
                                             os.environ))
    if args.command == "selfplay":
        game = games()[args.game]
        if not game.min_players <= args.players <= game.max_players:
            print(f"{args.game} takes {game.min_players}-{game.max_players} players",
                  file=sys.stderr)
            return 2
        report = selfplay(args.game, args.players, args.games, args.seed,
                          check=not args.no_check)
        if args.json:
            print(json.dumps(report, ensure_ascii=False))
        else:
            for k, v in report.items():
                print(f"{k:>18}: {v}")
        return 1 if report["errors"] else 0
    if args.command == "ratings":
        return rebuild_main()
    # A platform named, else every platform whose token is set (the console if none).
    names = [args.command] if args.command in PLATFORMS else served_by_default(os.environ)
    first = PLATFORMS[names[0]]
    if first.main is not None:  # it owns the terminal: alone
        return first.main(args)
    return serve_main(names)


if __name__ == "__main__":
    sys.exit(main())
