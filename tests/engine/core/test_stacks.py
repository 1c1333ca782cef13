"""Stacks of open steps: innermost last, a seat's empty stack dropped."""

from __future__ import annotations

from dataclasses import dataclass

from engine.core.stacks import pop, push, stack_depth, top
from engine.core.steps import Turn


@dataclass(frozen=True)
class Stored:
    """A step kept on a stack (not a ``Turn``)."""

    kind: str
    seat: int


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


def test_a_turn_is_step_one_and_a_stored_step_counts_its_place_and_what_it_sits_on() -> None:
    stacks: dict[int, list[Stored]] = {}
    push(stacks, Stored("outer", 1))
    push(stacks, Stored("inner", 1))
    assert stack_depth(stacks, Turn("work", 1), 5) == 1
    assert stack_depth(stacks, Stored("inner", 1), 0) == 2
    assert stack_depth(stacks, Stored("inner", 1), 1) == 3
