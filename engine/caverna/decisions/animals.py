"""Animals: which to keep when they do not all fit (``keep:<animals>``), which kinds get
a young when the room leaves a choice (``young:<animals>``; ``none`` for nothing)."""

from __future__ import annotations

from typing import Any

from engine.caverna.animals import keep_options
from engine.caverna.breeding import born, breed_options
from engine.caverna.components import FARM_ANIMALS
from engine.caverna.decisions.options import animals_key, animals_of, kind_label, opt
from engine.caverna.receiving import keep_animals
from engine.caverna.state import BreedStep, CavernaState, OverflowStep
from engine.core.errors import IllegalMove
from engine.core.prompts import Event, Option
from engine.core.steps import StepRules


def _overflow_choices(state: CavernaState, seat: int) -> list[dict[str, int]]:
    player = state.players[seat]
    return keep_options(player.board, player.animals, len(player.dwarfs))


def _overflow_options(state: CavernaState, step: OverflowStep) -> list[Option]:
    return [
        opt(f"keep:{animals_key(k)}", "keep", animals=k)
        for k in _overflow_choices(state, step.seat)
    ]


def _apply_overflow(state: CavernaState, step: OverflowStep, key: str,
                    events: list[Event]) -> None:
    head, _, arg = key.partition(":")
    keep = animals_of(arg) if head == "keep" else None
    choices = _overflow_choices(state, step.seat)
    if keep is None:
        raise IllegalMove("unknown_option", key=key)
    full = {k: keep.get(k, 0) for k in FARM_ANIMALS}
    if full not in choices:
        raise IllegalMove("unknown_option", key=key)
    state.pop(step.seat)
    keep_animals(state, step.seat, full, events)


def _breed_options(state: CavernaState, step: BreedStep) -> list[Option]:
    return [
        opt(f"young:{animals_key(o)}", "young", animals=o)
        for o in breed_options(state, step.seat, step.limit)
    ]


def _apply_breed(state: CavernaState, step: BreedStep, key: str, events: list[Event]) -> None:
    head, _, arg = key.partition(":")
    young = animals_of(arg) if head == "young" else None
    if young is None or young not in breed_options(state, step.seat, step.limit):
        raise IllegalMove("unknown_option", key=key)
    state.pop(step.seat)
    born(state, step.seat, young, events)


STEPS: dict[str, StepRules[CavernaState, Any]] = {
    "overflow": StepRules(_overflow_options, _apply_overflow, kind_label),
    "breed": StepRules(_breed_options, _apply_breed, kind_label),
}
