"""Values derived from an object that never changes, remembered by that object's identity.

A press reads the same record's settings and digests the same open prompts many times
over; parsing or hashing them once is enough, because nothing changes them in place
(a record is frozen and changes go through ``model_copy``; a prompt is frozen). An
entry keeps its object alive, so its id cannot be taken by another object while the
entry stands; past ``limit`` entries the memo starts afresh.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Generic, TypeVar

T = TypeVar("T")
S = TypeVar("S")


class IdentityMemo(Generic[S, T]):
    """``derive(source)`` computed once per source object (by identity, not equality)."""

    def __init__(self, derive: Callable[[S], T], limit: int = 1024) -> None:
        """Remember ``derive``'s results for at most ``limit`` sources at once."""
        self.derive = derive
        self.limit = limit
        self._seen: dict[int, tuple[S, T]] = {}

    def __call__(self, source: S) -> T:
        """``derive(source)``, from memory when this very object was seen."""
        seen = self._seen.get(id(source))
        if seen is not None and seen[0] is source:
            return seen[1]
        value = self.derive(source)
        if len(self._seen) >= self.limit:
            self._seen.clear()
        self._seen[id(source)] = (source, value)
        return value
