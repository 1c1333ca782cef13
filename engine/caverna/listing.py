"""The options last listed for each seat, kept beside the state they were listed for.

Between two moves the engine would list a step's options more than once: after a move
it looks for a step with one real option (:mod:`engine.caverna.forced`), then
``pending`` lists the same step's options for the prompt, and applying the key pressed
checks it again (a work turn weighs every action space each time). A state keeps what was
listed for it in a :class:`Listing`, a private attribute. ``Game.copy`` hands it on to
the copy (:func:`carried`): the copy is equal to the state, so the same options hold,
and search copies a state to ask for its prompt or to try a key on it. Nothing else
carries it: the JSON, the view, a copy for a seat's trial (``state.fresh_asides``) and a
state loaded from JSON start without one and simply list again.

What a listing holds is true of exactly the state it was made on, so every key applied
to the state forgets it (``engine.core.aside.forgetting_after``, around each step's
``apply``), whether the key is taken or refused; a step's ``apply`` may skip only what
listing the key already did (:func:`was_listed`), never a check listing does not make.

A state edited by hand (the scenario tests) must forget what was listed for it:
:func:`forget`.
"""

from __future__ import annotations

from typing import Any, TypeVar

from engine.core.aside import Aside, forgetting_after
from engine.core.prompts import Option
from engine.core.steps import Options, Step, StepRules

S = TypeVar("S")
T = TypeVar("T", bound=Step)


class Listing(Aside):
    """Per seat: the step listed and its options, for the state holding this listing.

    It is no part of the state's value: any two listings are equal (two states are
    equal whatever was listed for them), and a copy of one (pickled too) is empty."""

    __slots__ = ("by_seat",)

    def __init__(self) -> None:
        self.by_seat: dict[int, tuple[Step, list[Option]]] = {}



def _listing(state: Any) -> Listing:
    found: Listing = state.__pydantic_private__["_listing"]
    return found


def carried(state: Any) -> Listing:
    """A listing for a copy of ``state`` (equal to it): what was listed for the state.
    The option lists are shared: a kept list is never changed (it is read by copy)."""
    out = Listing()
    out.by_seat.update(_listing(state).by_seat)
    return out


def forget(state: Any) -> None:
    """Forget every listing kept for ``state`` (after changing it by hand)."""
    _listing(state).by_seat.clear()


def was_listed(state: Any, step: Step, key: str) -> bool:
    """Was ``key`` among the options listed for ``step`` on ``state`` as it is now?"""
    found = _listing(state).by_seat.get(step.seat)
    if found is None or not (found[0] is step or found[0] == step):
        return False
    return any(option.key == key for option in found[1])


def kept_options(options: Options[S, T]) -> Options[S, T]:
    """``options``, listed once per state and step: kept on the state and read back."""

    def listed(state: S, step: T) -> list[Option]:
        by_seat = _listing(state).by_seat
        found = by_seat.get(step.seat)
        if found is not None and (found[0] is step or found[0] == step):
            return list(found[1])
        made = options(state, step)
        by_seat[step.seat] = (step, list(made))
        return made

    return listed


def keeping(rules: StepRules[S, Any]) -> StepRules[S, Any]:
    """A step kind's rules whose options are kept on the state until a key is applied."""
    return StepRules(kept_options(rules.options), forgetting_after(rules.apply, forget),
                     rules.label)

