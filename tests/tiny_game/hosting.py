"""Hosting the tests' own games through the registries' hooks, for one test at a time.

``GAMES`` are the games defined under ``tests/`` (engine package, manifest package);
``with_test_games`` adds their names to the registered ones for a parametrisation, and
``hosted(name)`` hosts the game ``name`` while its block runs when it is one of them —
a shipped game needs nothing. Nothing is left registered afterwards.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from contextlib import ExitStack, contextmanager

from bot import games as bot_games
from engine import registry

# Engine name -> (engine package, manifest package).
GAMES: dict[str, tuple[str, str]] = {
    "charm_nim": ("tests.tiny_game.engine", "tests.tiny_game.bot"),
}


def with_test_games(names: Iterable[str]) -> list[str]:
    """``names`` (the registered games) and the tests' own games, sorted."""
    return sorted({*names, *GAMES})


@contextmanager
def hosted(name: str) -> Iterator[None]:
    """Host ``name`` while the block runs if it is one of the tests' games."""
    with ExitStack() as stack:
        if name in GAMES:
            engine_package, manifest_package = GAMES[name]
            stack.enter_context(registry.hosting(engine_package))
            stack.enter_context(bot_games.hosting(manifest_package))
        yield
