"""The solo game: accumulating spaces holding 6 or more goods, kept for 1 ruby each
(``keep:<space>``) or cleared (``clear``)."""

from __future__ import annotations

from typing import Any

from engine.caverna.decisions.options import kind_label, opt
from engine.caverna.rounds import clear_space
from engine.caverna.state import CavernaState, ClearStep
from engine.core.errors import IllegalMove
from engine.core.prompts import Event, Option
from engine.core.steps import StepRules


def _clear_options(state: CavernaState, step: ClearStep) -> list[Option]:
    opts = []
    if state.players[step.seat].goods["ruby"] >= 1:
        opts = [opt(f"keep:{s}", "keep_space", space=s, goods=dict(state.space(s).goods))
                for s in step.spaces]
    return [*opts, opt("clear", "clear", spaces=list(step.spaces))]


def _apply_clear(state: CavernaState, step: ClearStep, key: str, events: list[Event]) -> None:
    head, _, space = key.partition(":")
    player = state.players[step.seat]
    if key == "clear":
        state.pop(step.seat)
        for s in step.spaces:
            clear_space(state, s, events)
    elif head == "keep" and space in step.spaces and player.goods["ruby"] >= 1:
        player.goods["ruby"] -= 1
        step.spaces.remove(space)
        events.append(Event("space_kept", step.seat, {"space": space}))
        if not step.spaces:
            state.pop(step.seat)
    else:
        raise IllegalMove("unknown_option", key=key)


STEPS: dict[str, StepRules[CavernaState, Any]] = {
    "clear": StepRules(_clear_options, _apply_clear, kind_label),
}
