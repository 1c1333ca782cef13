"""Stacks of open steps, one per seat, innermost last.

A choice that needs several steps (Stone Age's payments, Caverna's nested actions)
pushes a step on its seat's stack and pops it when done; a step below waits for the one
above. The stacks are a plain ``dict[int, list[step]]`` field of the state, so they dump
and load with it. A seat whose stack empties is dropped from the dict, so "anyone
deciding?" is just "any stacks?".
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TypeVar

from engine.core.steps import Step, Turn

T = TypeVar("T", bound=Step)


def push(stacks: dict[int, list[T]], step: T) -> None:
    """Open ``step`` on top of its seat's stack."""
    stacks.setdefault(step.seat, []).append(step)


def top(stacks: dict[int, list[T]], seat: int) -> T | None:
    """The innermost open step of ``seat``, if any."""
    stack = stacks.get(seat)
    return stack[-1] if stack else None


def pop(stacks: dict[int, list[T]], seat: int) -> T:
    """Close the innermost step of ``seat`` (its stack goes once empty)."""
    stack = stacks[seat]
    step = stack.pop()
    if not stack:
        del stacks[seat]
    return step


def stack_depth(stacks: Mapping[int, Sequence[Step]], step: Step, below: int) -> int:
    """``step``'s number for its prompt: 1 for the first step of a turn (a ``Turn``),
    else its place on its seat's stack plus the ``below`` steps that stack sits on."""
    if isinstance(step, Turn):
        return 1
    return len(stacks[step.seat]) + below
