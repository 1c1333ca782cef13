"""Forging a weapon: its strength (``forge:<strength>``)."""

from __future__ import annotations

from typing import Any

from engine.caverna.decisions.options import kind_label, opt
from engine.caverna.state import CavernaState, ForgeStep
from engine.caverna.weapons import forge, forge_strengths
from engine.core.errors import IllegalMove
from engine.core.keys import keyed_number
from engine.core.prompts import Event, Option
from engine.core.steps import StepRules


def _forge_options(state: CavernaState, step: ForgeStep) -> list[Option]:
    player = state.players[step.seat]
    return [opt(f"forge:{s}", "forge", strength=s) for s in forge_strengths(player, step.dwarf)]


def _apply_forge(state: CavernaState, step: ForgeStep, key: str, events: list[Event]) -> None:
    strength = keyed_number(key, "forge")
    if strength is None or strength not in forge_strengths(state.players[step.seat], step.dwarf):
        raise IllegalMove("cannot_forge", key=key)
    state.pop(step.seat)
    forge(state, step.seat, step.dwarf, strength, events)


STEPS: dict[str, StepRules[CavernaState, Any]] = {
    "forge": StepRules(_forge_options, _apply_forge, kind_label),
}
