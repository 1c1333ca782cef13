"""The decision machinery every engine shares: who decides, what they are asked, and
carrying out their answer.

An engine describes its decisions as data, a :class:`Machine`: a table from step kind
to :class:`~engine.core.steps.StepRules`, plus four small functions of the state that
are the only things the engines really differ in — whether the game is over, which
seats decide now, which step each of them faces (the top of its stack, or a
:class:`~engine.core.steps.Turn` read off the phase) and how deep that step is (the
prompt's ``step`` number). ``pending`` and ``apply_key`` are then written once.

Engines keep their own ways of storing steps (Stone Age and Caverna stack pydantic
steps per seat, Hunters and Gatherers keeps its three fixed steps in flat fields): the
machine only asks for the current step, so no stored state changes shape.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Generic, TypeVar

from engine.core.errors import IllegalMove
from engine.core.prompts import Event, Prompt
from engine.core.steps import Step, StepRules

S = TypeVar("S")


def no_args(state: object, seat: int) -> Mapping[str, Any]:
    """A refusal that mentions nothing."""
    return {}


class Machine(Generic[S]):
    """One engine's decisions: its table of step rules and how to read its state.

    ``deciding`` lists the seats with a decision open (in prompt order); ``current``
    is the step ``seat`` faces, only asked for deciding seats; ``depth`` is that step's
    number for the prompt (1 for the first step of a decision); ``refusal`` gives the
    arguments of a ``not_your_turn`` refusal.

    A plain class, not a dataclass: mypyc compiles this module (:mod:`engine.compiled`)
    and cannot compile a generic dataclass. Nothing changes a machine once made.
    """

    __slots__ = ("current", "deciding", "depth", "over", "refusal", "rules")

    def __init__(self, rules: Mapping[str, StepRules[S, Any]], over: Callable[[S], bool],
                 deciding: Callable[[S], Sequence[int]], current: Callable[[S, int], Step],
                 depth: Callable[[S, Step], int],
                 refusal: Callable[[S, int], Mapping[str, Any]] = no_args) -> None:
        self.rules = rules
        self.over = over
        self.deciding = deciding
        self.current = current
        self.depth = depth
        self.refusal = refusal

    def prompt_for(self, state: S, seat: int) -> Prompt | None:
        """The decision open for ``seat`` now, if any."""
        if seat not in self.deciding(state):
            return None
        return self._prompt(state, seat)

    def _prompt(self, state: S, seat: int) -> Prompt:
        step = self.current(state, seat)
        rules = self.rules[step.kind]
        # Positional: a dataclass takes keywords at about twice the cost, and every
        # prompt of every game is made here.
        return Prompt(seat, rules.label(state, step), tuple(rules.options(state, step)),
                      self.depth(state, step))

    def pending(self, state: S) -> list[Prompt]:
        """Every open decision, one per deciding seat."""
        return [self._prompt(state, seat) for seat in self.deciding(state)]

    def apply_key(self, state: S, seat: int, key: str, events: list[Event]) -> None:
        """Carry out ``seat``'s choice ``key`` in the step it faces, or raise
        ``IllegalMove`` changing nothing (each step's ``apply`` checks before it acts)."""
        if self.over(state):
            raise IllegalMove("game_over")
        if seat not in self.deciding(state):
            raise IllegalMove("not_your_turn", **self.refusal(state, seat))
        step = self.current(state, seat)
        self.rules[step.kind].apply(state, step, key, events)
