"""The shared machine: prompts from the table, refusals before any change."""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest

from engine.core.errors import IllegalMove
from engine.core.machine import Machine
from engine.core.prompts import BACK, Event, Label, Option
from engine.core.stacks import pop, push, top
from engine.core.steps import Step, StepRules, Turn, fixed_label


@dataclass
class Toy:
    """Seat 0 counts up; ``open`` pushes a step that only goes back."""

    count: int = 0
    over: bool = False
    stacks: dict[int, list[Turn]] = field(default_factory=dict)


def _count_options(state: Toy, step: Turn) -> list[Option]:
    return [Option("up", Label("toy.up")), Option("open", Label("toy.open"))]


def _count_apply(state: Toy, step: Turn, key: str, events: list[Event]) -> None:
    if key == "up":
        state.count += 1
        events.append(Event("counted", step.seat))
    elif key == "open":
        push(state.stacks, Turn("inner", step.seat))
    else:
        raise IllegalMove("unknown_option", key=key)


def _inner_apply(state: Toy, step: Turn, key: str, events: list[Event]) -> None:
    if key != "back":
        raise IllegalMove("unknown_option", key=key)
    pop(state.stacks, step.seat)


def _current(state: Toy, seat: int) -> Step:
    return top(state.stacks, seat) or Turn("count", seat)


MACHINE: Machine[Toy] = Machine(
    rules={
        "count": StepRules(_count_options, _count_apply, fixed_label("toy.count")),
        "inner": StepRules(lambda s, t: [BACK], _inner_apply, fixed_label("toy.inner")),
    },
    over=lambda s: s.over,
    deciding=lambda s: [] if s.over else [0],
    current=_current,
    depth=lambda s, step: 1 + len(s.stacks.get(step.seat, [])) - (step.kind == "inner"),
)


def test_pending_asks_the_deciding_seat_from_the_table() -> None:
    (prompt,) = MACHINE.pending(Toy())
    assert (prompt.seat, prompt.label.code, prompt.keys(), prompt.step) == (
        0, "toy.count", ["up", "open"], 1)
    assert MACHINE.prompt_for(Toy(), 1) is None


def test_a_pushed_step_is_asked_next_and_back_leaves_it() -> None:
    state, events = Toy(), list[Event]()
    MACHINE.apply_key(state, 0, "open", events)
    (prompt,) = MACHINE.pending(state)
    assert (prompt.label.code, prompt.keys(), prompt.step) == ("toy.inner", ["back"], 1)
    MACHINE.apply_key(state, 0, "back", events)
    assert state.stacks == {}


def test_refusals() -> None:
    with pytest.raises(IllegalMove, match="not_your_turn"):
        MACHINE.apply_key(Toy(), 1, "up", [])
    with pytest.raises(IllegalMove, match="game_over"):
        MACHINE.apply_key(Toy(over=True), 0, "up", [])
    with pytest.raises(IllegalMove, match="unknown_option"):
        MACHINE.apply_key(Toy(), 0, "down", [])
