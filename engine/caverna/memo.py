"""Memos of answers about a home board, keyed by what the answer depends on.

A home board changes seldom and is asked about constantly (every action space while a
dwarf is placed, every prompt, every seat's animals after every move), so the answers
that depend on a board are memoised by its ``signature()`` and the other inputs. A
memo holds only answers of pure functions, keyed by immutable values: it can never hand
a game another game's answer. The value is computed from the live board on a miss (a
board cannot be a key: it changes in place), so nothing is rebuilt from the key.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")

# Entries a memo keeps before it starts again from empty: games in progress ask about
# their present boards, so a full memo holds mostly answers no longer asked for.
KEPT = 4096


class Memo(Generic[K, V]):
    """A bounded map from a question to its answer; emptied whole once full (cheaper
    than keeping an order of use, and soon filled again by the questions that matter)."""

    __slots__ = ("_answers", "kept")

    def __init__(self, kept: int = KEPT) -> None:
        self.kept = kept
        self._answers: dict[K, V] = {}

    def get(self, question: K, answer: Callable[[], V]) -> V:
        """The answer to ``question``: the memoised one, else ``answer()`` (kept)."""
        found = self._answers.get(question)
        if found is None:
            if len(self._answers) >= self.kept:
                self._answers.clear()
            found = self._answers[question] = answer()
        return found

    def known(self, question: K) -> V | None:
        """The memoised answer to ``question``, if there is one (nothing computed)."""
        return self._answers.get(question)

    def __len__(self) -> int:
        """How many answers are kept now."""
        return len(self._answers)
