"""Sowing: grain and vegetables from the supply onto empty fields."""

from __future__ import annotations

from engine.caverna.board import SOWN, Crop
from engine.caverna.feeding import pay
from engine.caverna.receiving import settle_animals
from engine.caverna.spaces import empty_fields
from engine.caverna.state import CavernaState
from engine.core.prompts import Event


def sow(state: CavernaState, seat: int, grain: int, vegetable: int, events: list[Event]) -> None:
    """Sow ``grain`` grain and ``vegetable`` vegetable fields, from the supply."""
    player = state.players[seat]
    pay(player, {"grain": grain, "vegetable": vegetable}, {})
    fields = empty_fields(player)
    for i, pos in enumerate(fields[:grain + vegetable]):
        crop: Crop = "grain" if i < grain else "vegetable"
        space = player.board.edit(pos)
        space.crop = crop
        space.crop_count = SOWN[crop]
    events.append(Event("sowed", seat, {"grain": grain, "vegetable": vegetable}))
    settle_animals(state, seat, events)
