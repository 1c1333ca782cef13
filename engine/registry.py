"""The games Campfire can host, by name."""

from __future__ import annotations

from typing import Any

from engine.core.protocol import Game
from engine.hunters_gatherers.game import GAME as HUNTERS_GATHERERS
from engine.stone_age.game import GAME as STONE_AGE

GAMES: dict[str, Game[Any]] = {
    STONE_AGE.name: STONE_AGE,
    HUNTERS_GATHERERS.name: HUNTERS_GATHERERS,
}


def get_game(name: str) -> Game[Any]:
    """The game called ``name``; KeyError names the games there are."""
    try:
        return GAMES[name]
    except KeyError:
        raise KeyError(f"unknown game {name!r}; known: {', '.join(sorted(GAMES))}") from None
