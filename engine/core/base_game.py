"""The bookkeeping every game object does the same way: applying a choice through its
:class:`~engine.core.machine.Machine` and counting it, the open prompts, the result
once the game is over, and the state as JSON.

A game subclasses :class:`BaseGame`, names its machine and its final scoring, and
keeps only what is its own (setup, views, summary, heuristic, invariants).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping
from typing import Any, Generic, Protocol, Self, TypeVar

from engine.core.machine import Machine
from engine.core.prompts import Event, Prompt
from engine.core.protocol import Result
from engine.core.variants import Variant


class GameState(Protocol):
    """What the bookkeeping needs of a state: a count of the choices applied, and
    pydantic's JSON round trip."""

    actions: int

    def model_dump_json(self) -> str:
        """The state as JSON."""
        ...

    @classmethod
    def model_validate_json(cls, json_data: str | bytes, /) -> Self:
        """A state from JSON."""
        ...

    @classmethod
    def model_validate(cls, obj: Any, /) -> Self:
        """A state from parsed JSON."""
        ...


S = TypeVar("S", bound=GameState)


class BaseGame(ABC, Generic[S]):
    """The shared half of a game object (see the module's docstring)."""

    name: str
    min_players: int
    max_players: int
    state_type: type[S]
    machine: Machine[S]
    # The settings a table may choose at setup, each declared once (none by default).
    variants: tuple[Variant, ...] = ()
    # A searching player judges a seat by its own heuristic gain alone unless the game
    # says otherwise (``Game.rivalry``).
    rivalry: float = 0.0
    rival_mean: bool = False
    # A searching player searches every seat's decisions unless the game says otherwise
    # (``Game.greedy_rivals``).
    greedy_rivals: bool = False

    def pending(self, state: S) -> list[Prompt]:
        """The open decisions."""
        return self.machine.pending(state)

    def apply(self, state: S, seat: int, key: str) -> list[Event]:
        """Carry out a choice and everything automatic that follows it."""
        events: list[Event] = []
        self.machine.apply_key(state, seat, key, events)
        state.actions += 1
        self.carry_on(state, events)
        return events

    def carry_on(self, state: S, events: list[Event]) -> None:
        """Everything automatic after a choice, up to the next decision: nothing, for a
        game whose steps move the game along themselves."""

    def result(self, state: S) -> Result | None:
        """Final scores once the game is over."""
        return self.final_result(state) if self.machine.over(state) else None

    @abstractmethod
    def final_result(self, state: S) -> Result:
        """The final scores of a finished game."""

    def copy(self, state: S) -> S:
        """An independent copy: through JSON unless the game has a cheaper way."""
        return self.load(self.dump(state))

    def dump(self, state: S) -> str:
        """The state as JSON."""
        return state.model_dump_json()

    def load(self, data: str | bytes | Mapping[str, Any]) -> S:
        """A state from JSON, as text or already parsed."""
        if isinstance(data, str | bytes):
            return self.state_type.model_validate_json(data)
        return self.state_type.model_validate(data)


