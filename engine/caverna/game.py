"""Caverna: The Cave Farmers, registered: the registry hosts every ``game.GAME``."""

from engine.caverna.caverna_game import CAVERNA as GAME

__all__ = ["GAME"]
