"""The games Campfire can host, by name: every engine package with a ``game.GAME``.

Nothing lists the games by hand: a new game is a new package under ``engine/`` whose
``game`` module defines ``GAME``. ``hosting`` adds a package from elsewhere for a while
(a game the tests define), found the same way.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from functools import cache
from types import MappingProxyType
from typing import Any

import engine
from engine.core.protocol import Game

_EXTRA: list[str] = []  # packages hosted besides engine/'s own, while ``hosting`` lasts


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
    for package in _EXTRA:
        game = importlib.import_module(f"{package}.game").GAME
        found[game.name] = game
    return MappingProxyType(found)


@contextmanager
def hosting(package: str) -> Iterator[Game[Any]]:
    """Host the game of ``package`` (its ``game.GAME``) while the block runs, as if it
    were a package under ``engine/``; afterwards the registry is as it was."""
    _EXTRA.append(package)
    games.cache_clear()
    try:
        yield get_game(importlib.import_module(f"{package}.game").GAME.name)
    finally:
        _EXTRA.remove(package)
        games.cache_clear()


def get_game(name: str) -> Game[Any]:
    """The game called ``name``; KeyError names the games there are."""
    try:
        return games()[name]
    except KeyError:
        raise KeyError(f"unknown game {name!r}; known: {', '.join(sorted(games()))}") from None
