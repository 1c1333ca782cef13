"""What a state keeps beside its value: work done for exactly the state as it is now
(a game's listing of options or counts), never part of what the state is.

An :class:`Aside` compares equal to any other of its kind (two states are equal
whatever was worked out for them), is not hashable, and copies — shallow, deep or
pickled — start empty, so a copied or reloaded state simply works things out again.
:func:`forgetting_after` wraps a step's ``apply`` so that whatever was kept is dropped
once a key has been applied, taken or refused.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Self, TypeVar

from mypy_extensions import mypyc_attr

from engine.core.prompts import Event
from engine.core.steps import Apply

S = TypeVar("S")
T = TypeVar("T")


# Compiled (engine.compiled), yet each game's own kind of aside subclasses it.
@mypyc_attr(allow_interpreted_subclasses=True)
class Aside:
    """Base of what a state keeps beside its value (see the module); a subclass's
    ``__init__`` takes no arguments and makes it empty."""

    __slots__ = ()

    def __eq__(self, other: object) -> bool:
        return isinstance(other, type(self))

    __hash__ = None  # type: ignore[assignment]

    def __copy__(self) -> Self:
        return type(self)()

    def __deepcopy__(self, memo: dict[int, Any]) -> Self:
        return type(self)()

    def __reduce__(self) -> tuple[type[Self], tuple[()]]:
        return type(self), ()  # pickled empty, like a copy


def forgetting_after(apply: Apply[S, T], forget: Callable[[S], None]) -> Apply[S, T]:
    """``apply``, after which ``forget`` drops what was kept for the state (it may have
    changed), whether the key was taken or refused."""

    def applying(state: S, step: T, key: str, events: list[Event]) -> None:
        try:
            apply(state, step, key, events)
        finally:
            forget(state)

    return applying
