"""The former draft name of the Caverna protocol object, kept as an alias for the tests
written against it. Use :mod:`engine.caverna.caverna_game` (``CAVERNA``) in new code.
"""

from __future__ import annotations

from engine.caverna.caverna_game import CAVERNA, CavernaGame, new_game
from engine.caverna.results import sheet
from engine.caverna.scoring import PlayerTally
from engine.caverna.state import CavernaState
from engine.caverna.view import tally as player_tally

CAVERNA_DRAFT = CAVERNA


def tally(state: CavernaState, seat: int) -> PlayerTally:
    """What ``seat`` brings to the score pad now."""
    return player_tally(state.players[seat])


def scores(state: CavernaState, seat: int) -> dict[str, int]:
    """The score sheet's lines for ``seat`` as things stand."""
    return sheet(state, seat)


__all__ = ["CAVERNA", "CAVERNA_DRAFT", "CavernaGame", "new_game", "scores", "tally"]
