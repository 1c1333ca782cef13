"""What a move shows that was not known before: a die rolled, a tile drawn, a card
turned up. Such a move cannot be taken back, since its outcome is now known.

The engine already declares what is hidden, through ``Game.secrets``: everything an
onlooker must not see, the random generator's position among it (Stone Age and
Caverna keep their generator there; Hunters and Gatherers its tile piles). A move that
changes that hidden part has consumed randomness or brought something hidden into the
open, so the rule needs nothing game by game, and a new game gets it from the
declaration it must make anyway.
"""

from __future__ import annotations

import json
from typing import Any

from engine.core.protocol import Game


def hidden_part(game: Game[Any], state: Any) -> str:
    """What an onlooker may not see of ``state``, as canonical JSON (compared before
    and after a move by ``reveals``)."""
    return json.dumps(game.secrets(state, None), sort_keys=True, default=str)


def reveals(game: Game[Any], hidden_before: str, state_after: Any) -> bool:
    """Did the move that led to ``state_after`` from a state whose ``hidden_part`` was
    ``hidden_before`` show anything random or hidden?"""
    return hidden_part(game, state_after) != hidden_before
