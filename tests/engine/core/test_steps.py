"""Steps and their rules: a Turn is a step, a fixed label mentions nothing."""

from __future__ import annotations

from engine.core.prompts import Label
from engine.core.steps import Step, Turn, fixed_label


def test_a_turn_is_a_step() -> None:
    step: Step = Turn("spot", 3)
    assert (step.kind, step.seat) == ("spot", 3)


def test_a_fixed_label_ignores_state_and_step() -> None:
    label = fixed_label("x.prompt.act")
    assert label(None, Turn("act", 0)) == Label("x.prompt.act")
