"""The ``campfire`` command."""

from __future__ import annotations

import argparse
import json
import os
import sys

from adapters.console.run import main_console
from adapters.store import VolatileRedis
from bot.selfplay import selfplay
from engine.registry import games


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="campfire", description="Campfire: board games in group chats."
    )
    sub = parser.add_subparsers(dest="command")
    con = sub.add_parser("console", help="play in a terminal chat (the default without tokens)")
    con.add_argument("--seed", type=int, default=None,
                     help="seed seat orders and game seeds, to replay a session "
                          "(default: CAMPFIRE_SEED, else random)")
    con.add_argument("--no-pictures", action="store_true",
                     help="render no pictures (faster for scripted runs)")
    sub.add_parser("telegram", help="serve Telegram (the default with TELEGRAM_TOKEN set)")
    sub.add_parser("discord", help="serve Discord (the default with DISCORD_TOKEN set; "
                                   "with TELEGRAM_TOKEN too, both)")
    sp = sub.add_parser("selfplay", help="play random legal games and report speed and errors")
    sp.add_argument("--game", required=True, choices=sorted(games()))
    sp.add_argument("--players", type=int, default=4)
    sp.add_argument("--games", type=int, default=10)
    sp.add_argument("--seed", type=int, default=1)
    sp.add_argument("--json", action="store_true", help="print one JSON line")
    sp.add_argument("--no-check", action="store_true", help="skip invariant checks (faster)")
    return parser


def main(argv: list[str] | None = None) -> int:
    """Entry point; returns the process exit code."""
    args = _parser().parse_args(argv)
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
    if args.command == "console":
        return main_console(args.seed, pictures=not args.no_pictures)
    both = os.environ.get("TELEGRAM_TOKEN") and os.environ.get("DISCORD_TOKEN")
    if args.command == "discord" or (args.command is None and os.environ.get("DISCORD_TOKEN")):
        # Imported here, like Telegram's stack below.
        from adapters.discord.service import main_discord

        try:
            return main_discord(with_telegram=bool(both) and args.command is None)
        except (VolatileRedis, RuntimeError) as err:  # one line, not a traceback
            print(str(err), file=sys.stderr)
            return 2
    if args.command == "telegram" or (args.command is None and os.environ.get("TELEGRAM_TOKEN")):
        # Imported here: the Telegram stack (PTB, aiohttp) costs the console a third of
        # its start-up time.
        from adapters.telegram.service import main_telegram

        try:
            return main_telegram()
        except VolatileRedis as err:  # one line, not a traceback
            print(str(err), file=sys.stderr)
            return 2
    return main_console()


if __name__ == "__main__":
    sys.exit(main())
