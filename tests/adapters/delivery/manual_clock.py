"""The delivery sender's clock in the tests: it starts at ``T0`` and moves only when a
test moves it."""

from __future__ import annotations

T0 = 1_700_000_000.0


class Clock:
    """A clock that moves only when told (set ``now``)."""

    def __init__(self, now: float = T0) -> None:
        self.now = now

    def __call__(self) -> float:
        """The current time, in unix seconds."""
        return self.now
