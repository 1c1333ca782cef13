"""Who decides after the seat deciding now, when that is certain: for "you're next".

Not promised yet (None always): an action can close the last space another seat could
use, or end the work phase, so the next seat is only known once it comes.
"""

from __future__ import annotations

from engine.caverna.state import CavernaState


def next_turn(state: CavernaState, seat: int) -> int | None:
    """The seat that surely decides after ``seat``'s current turn, or None."""
    return None
