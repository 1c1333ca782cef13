"""What a page worker drew lately, kept for the next viewer who asks the same.

Pages of one table at one version look alike for every viewer in the same seat (and
every spectator), so a worker draws each once: when a move is announced, every open
page of that table reads afresh at once, and without this each read would draw again.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Hashable
from typing import Generic, TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class Recent(Generic[K, V]):
    """The ``size`` values kept last, by key; the oldest is forgotten first."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._kept: OrderedDict[K, V] = OrderedDict()

    def get(self, key: K) -> V | None:
        """The value kept for ``key``, if it still is."""
        value = self._kept.get(key)
        if value is not None:
            self._kept.move_to_end(key)
        return value

    def keep(self, key: K, value: V) -> V:
        """Keep ``value`` for ``key`` (forgetting the oldest beyond ``size``); returns it."""
        self._kept[key] = value
        self._kept.move_to_end(key)
        while len(self._kept) > self.size:
            self._kept.popitem(last=False)
        return value
