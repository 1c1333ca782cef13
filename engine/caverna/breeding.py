"""Breeding: one young per kind with two or more animals, when the room houses it; the
furnishings that reward births."""

from __future__ import annotations

from collections.abc import Mapping
from itertools import combinations

from engine.caverna.animals import newborn_options
from engine.caverna.receiving import furnishing_effects, receive
from engine.caverna.state import BreedStep, CavernaState
from engine.core.prompts import Event


def breed(state: CavernaState, seat: int, events: list[Event], limit: int | None = None) -> None:
    """Breeding: young for each kind with 2 or more that can be housed; asks when the
    room (or the loot's limit of 2 kinds) leaves a choice."""
    options = breed_options(state, seat, limit)
    if not options:
        events.append(Event("no_young", seat))
    elif len(options) == 1:
        born(state, seat, options[0], events)
    else:
        state.push(BreedStep(seat=seat, limit=limit))


def breed_options(state: CavernaState, seat: int, limit: int | None) -> list[dict[str, int]]:
    """The sets of young the player could get (largest first; none if no young at all)."""
    player = state.players[seat]
    options = [o for o in newborn_options(player.board, player.animals, len(player.dwarfs)) if o]
    if limit is None:
        return options
    out: list[dict[str, int]] = []
    for option in options:
        kinds = list(option)
        candidates = [option] if len(kinds) <= limit else [
            dict.fromkeys(c, 1) for c in combinations(kinds, limit)
        ]
        for c in candidates:
            if c not in out:
                out.append(c)
    return out


def born(state: CavernaState, seat: int, young: Mapping[str, int], events: list[Event]) -> None:
    """The young join the family's herds; furnishings that reward births pay out."""
    player = state.players[seat]
    for kind, n in young.items():
        player.animals[kind] += n
    count = sum(young.values())
    events.append(Event("young_born", seat, {"animals": dict(young)}))
    bonus: dict[str, int] = {}
    for effect in furnishing_effects(state, seat, "on_birth"):
        animal = effect.params.get("animal")
        if isinstance(animal, str) and young.get(animal):
            for g, n in effect.goods().items():
                bonus[g] = bonus.get(g, 0) + n * young[animal]
    for effect in furnishing_effects(state, seat, "breed_bonus"):
        table = effect.params.get("food_by_newborns") or {}
        food = int(table.get(count, table.get(str(count), 0))) if count else 0
        if food:
            bonus["food"] = bonus.get("food", 0) + food
    receive(state, seat, bonus, events)
