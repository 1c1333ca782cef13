"""What a step of a decision is, and the rules that go with each kind of step.

Every engine asks its players in steps: Stone Age's "how many workers" after "where",
Caverna's nested action parts, the tile's spot, rotation and figure in Hunters and
Gatherers. A step is any value with a ``kind`` (which rules apply) and a ``seat`` (the
seat it belongs to). Steps that must survive between moves are pydantic models kept on
the state (see :mod:`engine.core.stacks`), so states dump and load losslessly; the
first step of a turn is read off the state's own phase fields and needs no storing:
it is a :class:`Turn`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Generic, Protocol, TypeVar

from engine.core.prompts import Event, Label, Option

S = TypeVar("S")
T = TypeVar("T")


class Step(Protocol):
    """A step of a decision: its ``kind`` names its rules, ``seat`` the seat it is for.

    Read-only properties, so pydantic models whose ``kind`` is a ``Literal`` fit.
    """

    @property
    def kind(self) -> str:
        """The name of the step's rules in its engine's table."""
        ...

    @property
    def seat(self) -> int:
        """The seat the step belongs to."""
        ...


@dataclass(frozen=True, slots=True)
class Turn:
    """A step that is not stored but follows from the state's phase: the first step of
    a turn (Stone Age's placing, Caverna's work, a tile's spot). Never dumped, so the
    stored states keep their shape."""

    kind: str
    seat: int


# The options a step offers now, in display order.
Options = Callable[[S, T], list[Option]]
# Carry out a key in a step, or raise ``IllegalMove`` before changing anything.
Apply = Callable[[S, T, str, list[Event]], None]
# The question a step asks, as a translatable label.
Labeller = Callable[[S, T], Label]


class StepRules(Generic[S, T]):
    """What one kind of step does: the options it offers, how a key is carried out and
    the question it asks. An engine's table maps each step kind to one of these, so a
    new kind of decision is one row, not a branch in every dispatcher.

    A plain class, not a dataclass: mypyc compiles this module (:mod:`engine.compiled`)
    and cannot compile a generic dataclass. Nothing changes a row once made."""

    __slots__ = ("apply", "label", "options")

    def __init__(self, options: Options[S, T], apply: Apply[S, T],
                 label: Labeller[S, T]) -> None:
        self.options = options
        self.apply = apply
        self.label = label


def fixed_label(code: str) -> Callable[[object, object], Label]:
    """A labeller for steps whose question mentions nothing: always ``code``."""
    label = Label(code)
    return lambda state, step: label
