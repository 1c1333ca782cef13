"""What a home board knows about itself until it is edited: its signature, its
furnishings, its stored spaces in order, and any other pure function of the board.

A board changes seldom (a tile laid, a furnishing, a stable, a sowing: a few dozen times
a game) and is asked about constantly (every action space while a dwarf is placed, every
seat's animals after every move), so what is derived from it is worked out once and kept
beside it in a :class:`BoardFacts` until :meth:`HomeBoard.edit
<engine.caverna.board.HomeBoard.edit>` opens a space for changing. Everything kept is
shared with whoever asks, so it is immutable (tuples, frozensets, read-only mappings).

The facts are an :class:`~engine.core.aside.Aside`: no part of the board's value, equal
for any two boards, and empty in a JSON round trip, a deep copy or a pickle.

They also say whether the board's spaces are shared with a copy of the board
(``shared``): ``engine.caverna.copying`` lets a copied state's boards share their spaces
and facts with the original's (most boards are never edited again before the copy is
dropped), and the first edit of either board then gives it spaces of its own.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from engine.caverna.memo import Memo
from engine.core.aside import Aside

B = TypeVar("B")
T = TypeVar("T")

# What one space holds, in ``board.SPACE_FIELDS`` order.
SpaceValue = tuple[str | None, str | None, bool, str | None, int, str | None]


class Signature:
    """Everything stored on a board as one hashable value, its hash worked out once:
    the stored spaces' keys, then each one's fields, in storage order. Two boards with
    equal signatures are equal, so an answer about a board may be memoised by it (a
    memo hashes it for every question; a board keeps its signature until edited)."""

    __slots__ = ("_hash", "value")

    def __init__(self, value: tuple[tuple[str, ...], tuple[SpaceValue, ...]]) -> None:
        self.value = value
        self._hash = hash(value)

    def __eq__(self, other: object) -> bool:
        return self is other or (
            isinstance(other, Signature) and self._hash == other._hash
            and self.value == other.value)

    def __hash__(self) -> int:
        return self._hash

    def __repr__(self) -> str:
        return f"Signature({self.value!r})"


# The signature object of each board value seen lately: boards that are equal share one,
# so the memo keys holding it compare by identity (no call to ``Signature.__eq__``).
_SIGNATURES: Memo[tuple[tuple[str, ...], tuple[SpaceValue, ...]], Signature] = Memo()


def signature_of(value: tuple[tuple[str, ...], tuple[SpaceValue, ...]]) -> Signature:
    """The signature of a board whose stored spaces read ``value`` (see
    :class:`Signature`), the same object as for an equal board asked about lately."""
    return _SIGNATURES.get(value, lambda: Signature(value))


class BoardFacts(Aside):
    """Answers about one board as it is now, by the function that gave them, and
    whether its spaces are shared with a copy (see the module)."""

    __slots__ = ("answers", "shared")

    def __init__(self) -> None:
        self.answers: dict[Callable[[Any], Any], Any] = {}
        self.shared = False

    def get(self, question: Callable[[B], T], board: B) -> T:
        """``question(board)``, worked out on the first asking (``board`` is the board
        these facts are about)."""
        try:
            found: T = self.answers[question]
        except KeyError:  # asked seldom: a board is asked the same again and again
            found = self.answers[question] = question(board)
        return found
