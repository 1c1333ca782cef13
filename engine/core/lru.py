"""A bounded memo that forgets its least recently used entry first: what an engine's
caches (Hunters and Gatherers' maps) and a page worker's drawings both keep."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Hashable
from typing import Generic, TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class Lru(Generic[K, V]):
    """A map of at most ``kept`` entries that forgets the least recently used first."""

    __slots__ = ("_entries", "kept")

    def __init__(self, kept: int) -> None:
        if kept < 1:
            raise ValueError(f"an Lru must keep at least one entry, not {kept}")
        self.kept = kept
        self._entries: OrderedDict[K, V] = OrderedDict()

    def get(self, key: K) -> V | None:
        """The value kept for ``key`` (now the most recently used), or None."""
        found = self._entries.get(key)
        if found is not None:
            self._entries.move_to_end(key)
        return found

    def put(self, key: K, value: V) -> V:
        """Keep ``value`` for ``key`` as the most recently used; returns ``value``."""
        entries = self._entries
        size = len(entries)
        entries[key] = value
        if len(entries) == size:  # replaced: a new key is last already (no second hash)
            entries.move_to_end(key)
        while len(entries) > self.kept:
            entries.popitem(last=False)
        return value

    def __len__(self) -> int:
        """How many entries are kept now."""
        return len(self._entries)

    def __contains__(self, key: object) -> bool:
        """Whether ``key`` is kept (without making it the most recently used)."""
        return key in self._entries

    def clear(self) -> None:
        """Forget every entry."""
        self._entries.clear()
