"""The platforms Campfire serves, as one table: ``campfire`` reads it for its commands
and for what it serves by default, and ``adapters.edge.serve`` starts any set of them.

A platform that serves from the network (Telegram, Discord) names its *starter*: a
function that reads its settings and returns how to start it on a ``runtime.Core``
(an async context manager: serving while inside, stopped gracefully on exit). Several
of them share one process, one core and one Redis. The console owns the terminal
instead: it runs alone, with options of its own, and is what ``campfire`` runs when
no platform's token is set.
"""

from __future__ import annotations

import argparse
import importlib
from collections.abc import Callable, Mapping
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the runtime reads this table (``platform_names``): no import cycle
    from adapters.runtime import Core

#: How one platform starts on a core: served while inside, stopped on exit.
Start = Callable[["Core"], AbstractAsyncContextManager[object]]


@dataclass(frozen=True)
class Edge:
    """One platform: how ``campfire`` names it, when it is served, how it starts."""

    title: str
    summary: str  # the help of ``campfire <name>``
    # Served by ``campfire`` without a command when this variable is set.
    token_env: str | None = None
    # ``module:function`` returning its ``Start`` once its settings are read; imported
    # only when served (the Telegram stack costs the console a third of its start-up).
    starter: str | None = None
    # A platform that owns the terminal runs alone instead: its options, its main.
    options: Callable[[argparse.ArgumentParser], None] | None = None
    main: Callable[[argparse.Namespace], int] | None = None
    # The namespace of its ids (``tg`` of ``tg:123``), which also names its outbox in
    # Redis, for a platform that sends through one: a move made on a table's page
    # queues the chat's messages there.
    outbox: str | None = None
    # ``module:function`` checking its Mini Apps' init data with its token — (init data,
    # token, now) -> who it proves, or None — for the table's page.
    mini_apps: str | None = None

    def start(self) -> Start:
        """Read the platform's settings (``ValueError`` when one is wrong) and return
        how it starts."""
        if self.starter is None:
            raise ValueError(f"{self.title} is not served beside other platforms")
        made: Start = imported(self.starter)()
        return made

    def mini_app_check(self, environ: Mapping[str, str]) -> Callable[[str, float], Any] | None:
        """Its check of Mini App init data, bound to its token in ``environ``: (init data,
        now) -> who it proves, or None; None without Mini Apps or a token."""
        token = environ.get(self.token_env) if self.token_env else None
        if self.mini_apps is None or not token:
            return None
        check = imported(self.mini_apps)
        return lambda init_data, now: check(init_data, token, now)


def imported(ref: str) -> Any:
    """The object ``module:name`` names, its module imported now (a platform's code is
    imported only when it is served)."""
    module, _, name = ref.partition(":")
    return getattr(importlib.import_module(module), name)


def _console_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--seed", type=int, default=None,
                        help="seed seat orders and game seeds, to replay a session "
                             "(default: CAMPFIRE_SEED, else random)")
    parser.add_argument("--no-pictures", action="store_true",
                        help="render no pictures (faster for scripted runs)")


def _console_main(args: argparse.Namespace) -> int:
    from adapters.console.run import main_console

    return main_console(getattr(args, "seed", None),
                        pictures=not getattr(args, "no_pictures", False))


CONSOLE = "console"
PLATFORMS: Mapping[str, Edge] = {
    CONSOLE: Edge("the console", "play in a terminal chat (the default without tokens)",
                  options=_console_options, main=_console_main),
    # Telegram before Discord: started in this order, stopped in the reverse.
    "telegram": Edge("Telegram", "serve Telegram (the default with TELEGRAM_TOKEN set)",
                     token_env="TELEGRAM_TOKEN", starter="adapters.telegram.service:starter",
                     outbox="tg", mini_apps="adapters.telegram.mini_app:mini_app_viewer"),
    "discord": Edge("Discord", "serve Discord (the default with DISCORD_TOKEN set; with "
                               "TELEGRAM_TOKEN too, both)",
                    token_env="DISCORD_TOKEN", starter="adapters.discord.service:starter",
                    outbox="dc"),
    # Last: started once the chats are, stopped first.
    "web": Edge("the tables' pages", "serve the tables' pages in the browser (the default "
                                     "with CAMPFIRE_WEB_URL set)",
                token_env="CAMPFIRE_WEB_URL", starter="adapters.web.service:starter"),
}


def platform_names() -> dict[str, str]:
    """Each platform's name by the namespace of its ids (``{"tg": "telegram"}``), for
    platforms that send from an outbox (the others' ids are shown as they are)."""
    return {edge.outbox: name for name, edge in PLATFORMS.items() if edge.outbox}


def served_by_default(environ: Mapping[str, str]) -> list[str]:
    """The platforms whose token is set, in the table's order; the console when none."""
    return [name for name, edge in PLATFORMS.items()
            if edge.token_env and environ.get(edge.token_env)] or [CONSOLE]
