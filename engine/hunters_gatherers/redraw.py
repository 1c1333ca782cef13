"""Hunters and Gatherers' hidden part drawn again (``Game.redraw``).

Every seat knows the same: the map, the tile in hand, the tiles set aside (each was
shown when it fitted nowhere) and how many tiles each face-down pile holds. What is
left of the land tiles can be in any order in the land pile, and what is left of the
bonus tiles in any order in the bonus pile; a land tile is never a bonus tile, so the
two piles are two pools. The random source is drawn afresh too (the game draws from
it only at setup, but a redrawn state must not carry the real one).
"""

from __future__ import annotations

from engine.core.redraw import Redraw
from engine.hunters_gatherers.state import HuntersGatherersState


def redeal(state: HuntersGatherersState, seed: int) -> HuntersGatherersState:
    """Draw both piles of ``state`` again from ``seed``, in place (the caller hands in
    a copy it owns), and return it. Every seat sees the same, so no seat is asked for."""
    redraw = Redraw.from_seed(seed)
    (state.draw,) = redraw.redeal([state.draw])
    (state.bonus,) = redraw.redeal([state.bonus])
    state.rng = redraw.dice
    return state
