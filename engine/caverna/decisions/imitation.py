"""Imitation: which occupied space to copy (``copy:<space>``), paying its food."""

from __future__ import annotations

from typing import Any

from engine.caverna.decisions.options import opt
from engine.caverna.decisions.payment import pay_then
from engine.caverna.listing import was_listed
from engine.caverna.spaces import imitation_targets
from engine.caverna.state import CavernaState, ImitateStep
from engine.core.errors import IllegalMove
from engine.core.prompts import Event, Label, Option
from engine.core.steps import StepRules


def _imitate_options(state: CavernaState, step: ImitateStep) -> list[Option]:
    return [
        opt(f"copy:{s}", "copy", space=s, cost=step.cost)
        for s in imitation_targets(state, step.seat, step.dwarf, step.cost)
    ]


def _apply_imitate(state: CavernaState, step: ImitateStep, key: str, events: list[Event]) -> None:
    head, _, target = key.partition(":")
    if head != "copy" or (not was_listed(state, step, key) and target not in imitation_targets(
            state, step.seat, step.dwarf, step.cost)):
        raise IllegalMove("cannot_imitate", key=key)
    state.pop(step.seat)
    events.append(Event("imitated", step.seat, {"space": target, "cost": step.cost}))
    pay_then(state, step.seat, {"food": step.cost}, f"imitate:{target}:{step.dwarf}", events)


def _imitate_label(state: CavernaState, step: ImitateStep) -> Label:
    return Label("cav.prompt.imitate", {"cost": step.cost})


STEPS: dict[str, StepRules[CavernaState, Any]] = {
    "imitate": StepRules(_imitate_options, _apply_imitate, _imitate_label),
}
