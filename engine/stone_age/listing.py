"""What placement counted on a state, kept beside the state it was counted for.

Each placement is checked against the same facts several times: after a move the
engine looks for the next seat that can place (:func:`engine.stone_age.flow.advance`),
``pending`` then lists that seat's places for the prompt, and applying the key
pressed checks it again. Each of them walked every location over every player's
workers. A state keeps what was counted for it in a :class:`Listing`, a private
attribute that nothing else carries: the JSON, the view, ``Game.copy`` and a state
loaded from JSON all start without one and simply count again (the pattern of
:mod:`engine.caverna.listing`).

What a listing holds is true of exactly the state it was made on, so it is forgotten
whenever the state may change: after every key applied to it, taken or refused
(``engine.core.aside.forgetting_after``, around each step's ``apply``), and before each
thing ``advance`` does by itself. A state changed by hand (the scenario tests) must
forget it too: :func:`forget`. """

from __future__ import annotations

from typing import Any, TypeVar

from engine.core.aside import Aside, forgetting_after
from engine.core.steps import StepRules

S = TypeVar("S")

# The open places of one seat, in board order, with the numbers of people each takes.
Places = dict[str, list[int]]


class Listing(Aside):
    """For the state holding it: the workers of all players on each location, how many
    players stand there and how many village places are taken (``tally``, once
    counted), and each seat's open places (``places``, once listed).

    It is no part of the state's value: any two listings are equal (two states are
    equal whatever was counted for them), and a copy of one (pickled too) is empty."""

    __slots__ = ("places", "tally")

    def __init__(self) -> None:
        self.tally: tuple[dict[str, int], dict[str, int], int] | None = None
        self.places: dict[int, Places] = {}



def listing(state: Any) -> Listing:
    """The listing kept for ``state`` as it is now."""
    found: Listing = state.__pydantic_private__["_listing"]
    return found


def fresh() -> dict[str, Any]:
    """The private attributes of a state copied by hand: nothing counted."""
    return {"_listing": Listing()}


def forget(state: Any) -> None:
    """Forget everything counted for ``state`` (it may have changed)."""
    kept = listing(state)
    if kept.tally is not None:
        kept.tally = None
        kept.places.clear()


def forgetting(rules: StepRules[S, Any]) -> StepRules[S, Any]:
    """A step kind's rules whose ``apply`` forgets what was counted for the state."""
    return StepRules(rules.options, forgetting_after(rules.apply, forget), rules.label)
