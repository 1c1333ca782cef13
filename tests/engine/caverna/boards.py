"""Home boards for the Caverna board tests: tiles laid by their spots' names."""

from __future__ import annotations

from engine.caverna.board import HomeBoard, new_home_board
from engine.caverna.landscape import find_placement, lay


def put(board: HomeBoard, tile: str, text: str) -> dict[str, int]:
    """Lay ``tile`` at the spot named ``text`` (e.g. "2,3", "4,3+4,2"); what it yields."""
    return lay(board, find_placement(board, tile, text))


def board_with(*tiles: tuple[str, str]) -> HomeBoard:
    """A new home board with each (tile, spot) laid in order."""
    board = new_home_board()
    for tile, text in tiles:
        put(board, tile, text)
    return board
