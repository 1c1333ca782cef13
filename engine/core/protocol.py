"""The protocol every game implements, so the bot needs no game-specific code.

A game object holds no game's state: each method is a function of the state model
passed in (a game may keep memos that never change an answer). ``new`` → (``pending``
→ ``apply``)* → ``result``. States are pydantic models that serialise to JSON and back
without loss.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar

from pydantic import BaseModel

from engine.core.prompts import Event, Prompt
from engine.core.variants import Variant
from engine.core.views import View

S = TypeVar("S", bound=BaseModel)


@dataclass(frozen=True, slots=True)
class SeatScore:
    """One seat's final score: the total and the named parts it is the sum of."""

    seat: int
    total: int
    breakdown: dict[str, int]
    tiebreak: int = 0


@dataclass(frozen=True, slots=True)
class Result:
    """The end of a game: every seat's score, the winners, and why the game ended."""

    scores: list[SeatScore]
    winners: list[int]
    reason: str
    details: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Summary:
    """The few facts every table header needs, the same for every game.

    ``round`` and ``phase`` are None for games without them; ``deciding`` are the seats
    with an open decision; ``scores`` the running score of each seat; ``sections`` the
    game's own public facts (JSON-ready), which only that game's texts interpret.
    """

    round: int | None
    phase: str | None
    deciding: tuple[int, ...]
    scores: tuple[int, ...]
    sections: dict[str, Any] = field(default_factory=dict)


class Game(Protocol[S]):
    """What the bot may ask of any game."""

    name: str
    min_players: int
    max_players: int
    state_type: type[S]
    # The settings a table may choose (``new``'s options), declared once here: the bot
    # offers them from this declaration.
    variants: tuple[Variant, ...]
    # How much a searching player weighs its rivals' heuristic gains against its own
    # (``engine.ai.rewards``): 0 when the heuristic values a rival's position too
    # roughly to steer by, 1 to judge a seat by its gain over its best rival's.
    rivalry: float
    # Whether those rivals' gains are their mean, not the top one's (``engine.ai.rewards``).
    rival_mean: bool
    # Whether a searching player expects the other seats to answer as the greedy player
    # would (``engine.ai.search``) instead of searching their decisions as its own.
    greedy_rivals: bool

    def new(self, players: int, seed: int, options: Mapping[str, Any] | None = None) -> S:
        """Set up a game for ``players`` seats; all randomness comes from ``seed``."""
        ...

    def pending(self, state: S) -> list[Prompt]:
        """The decisions open now, at most one per seat; empty once the game is over."""
        ...

    def apply(self, state: S, seat: int, key: str) -> list[Event]:
        """Carry out ``seat``'s choice ``key``, or raise ``IllegalMove`` changing nothing."""
        ...

    def view(self, state: S, seat: int | None) -> View:
        """What ``seat`` (or an onlooker, for ``None``) may see, as the game's typed view
        model (a :class:`~engine.core.views.View`)."""
        ...

    def summary(self, state: S) -> Summary:
        """Round, phase, whose decision and the running scores, for any table header."""
        ...

    def next_turn(self, state: S, seat: int) -> int | None:
        """Who decides next once ``seat`` has finished the turn it is taking now — only
        when nothing still to be chosen (by anyone) can change it; None otherwise. The
        bot tells that player "you're next", so a guess is worse than silence."""
        ...

    def secrets(self, state: S, seat: int | None) -> list[Any]:
        """What ``seat`` (``None``: an onlooker) must not learn: each item is a value of
        the state (a deck's order, another seat's hidden card) that ``view(state, seat)``
        must never contain. The conformance suite checks views against it."""
        ...

    def copy(self, state: S) -> S:
        """An independent copy of ``state``, as cheap as the game can make it (search
        copies a state for every trial and playout)."""
        ...

    def redraw(self, state: S, seat: int, seed: int) -> S:
        """A state ``seat`` cannot tell from ``state``: everything hidden from that seat
        (what ``secrets(state, seat)`` names: deck orders, face-down tiles, other seats'
        blind cards, the dice to come) put in a canonical order and drawn again from
        ``seed``, the random source reseeded from it. Two states that differ only in what
        ``seat`` cannot see give the same state for the same seed; ``state`` itself is
        left as it was. An AI that simulates decides on such a state, never the real one."""
        ...

    def result(self, state: S) -> Result | None:
        """Final scores once the game is over, else ``None``."""
        ...

    def heuristic(self, state: S, seat: int) -> float:
        """A rough value of ``seat``'s position (higher is better), for a greedy autopilot."""
        ...

    def invariants(self, state: S) -> list[str]:
        """Every broken invariant of ``state``, for fuzzing; empty when all is well."""
        ...

    def dump(self, state: S) -> str:
        """The state as JSON."""
        ...

    def load(self, data: str | bytes | Mapping[str, Any]) -> S:
        """A state from ``dump``'s JSON, as text or already parsed (a stored record
        holds its state parsed, inside the record's own JSON)."""
        ...
