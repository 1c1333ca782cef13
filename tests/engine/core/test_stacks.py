"""Stacks of open steps: innermost last, a seat's empty stack dropped."""

from __future__ import annotations

from engine.core.stacks import pop, push, top
from engine.core.steps import Turn


def test_the_innermost_step_is_on_top() -> None:
    stacks: dict[int, list[Turn]] = {}
    push(stacks, Turn("outer", 1))
    push(stacks, Turn("inner", 1))
    assert top(stacks, 1) == Turn("inner", 1)
    assert top(stacks, 0) is None


def test_popping_the_last_step_drops_the_seat() -> None:
    stacks: dict[int, list[Turn]] = {}
    push(stacks, Turn("only", 2))
    assert pop(stacks, 2) == Turn("only", 2)
    assert stacks == {}
