"""The games Campfire can host, by name: every engine package with a ``game.GAME``.

Nothing lists the games by hand: a new game is a new package under ``engine/`` whose
``game`` module defines ``GAME``.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Mapping
from functools import cache
from types import MappingProxyType
from typing import Any

import engine
from engine.core.protocol import Game


@cache
def games() -> Mapping[str, Game[Any]]:
    """Every game engine by name, in a stable order."""
    found: dict[str, Game[Any]] = {}
    for info in sorted(pkgutil.iter_modules(engine.__path__), key=lambda i: i.name):
        if not info.ispkg or info.name == "core":
            continue
        try:
            module = importlib.import_module(f"engine.{info.name}.game")
        except ModuleNotFoundError as exc:
            if exc.name == f"engine.{info.name}.game":
                continue  # a package of helpers, not a game
            raise
        game = getattr(module, "GAME", None)
        if game is not None:
            found[game.name] = game
    return MappingProxyType(found)


def get_game(name: str) -> Game[Any]:
    """The game called ``name``; KeyError names the games there are."""
    try:
        return games()[name]
    except KeyError:
        raise KeyError(f"unknown game {name!r}; known: {', '.join(sorted(games()))}") from None
