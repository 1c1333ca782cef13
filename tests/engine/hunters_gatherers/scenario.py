"""Building game states by hand for scenario tests: scripted piles, tiles laid directly."""

from __future__ import annotations

from collections.abc import Sequence

from engine.core.prompts import Event
from engine.hunters_gatherers.game import GAME, setup, start
from engine.hunters_gatherers.state import (
    FeatureKind,
    Figure,
    FigureKind,
    HuntersGatherersState,
    PlacedTile,
)
from tests.engine.events import codes as codes
from tests.engine.events import first as first


def scripted(
    players: int = 2,
    *,
    draw: Sequence[str] = (),
    bonus: Sequence[str] = (),
    laid: Sequence[tuple[int, int, str, int]] = (),
    figures: Sequence[tuple[int, int, FigureKind, FeatureKind, int, int]] = (),
) -> HuntersGatherersState:
    """A game whose piles are exactly ``draw``/``bonus`` (drawn first to last), with the
    ``laid`` tiles ``(x, y, tile, rotation)`` already on the map and the ``figures``
    ``(x, y, kind, feature, index, seat)`` on them; the first tile is then drawn."""
    state = setup(players, draw=list(draw), bonus=list(bonus))
    for x, y, tile_id, rotation in laid:
        state.discards.remove(tile_id)
        state.tiles = (*state.tiles, PlacedTile(x=x, y=y, tile=tile_id, rotation=rotation))
    for x, y, kind, feature, index, seat in figures:
        state.figures.append(
            Figure(x=x, y=y, kind=kind, feature=feature, index=index, seat=seat)
        )
        if kind == "hut":
            state.players[seat].huts -= 1
        else:
            state.players[seat].members -= 1
    start(state, GAME.cache)
    return state


def play(state: HuntersGatherersState, seat: int, *keys: str) -> list[Event]:
    """Apply several keys for one seat; all their events."""
    events: list[Event] = []
    for key in keys:
        events += GAME.apply(state, seat, key)
    return events
