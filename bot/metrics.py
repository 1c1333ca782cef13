"""The operator's figures as the core reports them: a port, so that the core counts
without knowing who reads the counts (``adapters.ops`` keeps them for Prometheus).

A figure is named here once (``PRESSES``, ``COMMITS``…) and labelled by platform and
game only — never by user, chat or table: an operator asks "are Telegram's Caverna
presses failing?", and a label per person would grow without bound and say who plays.
The platform is the namespace of the ids (``tg`` of ``tg:123``); the adapter that keeps
the figures names it as an operator does (``telegram``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Protocol

from bot.storage import TableRecord

#: Label values by label name (``{"platform": "tg", "game": "caverna"}``).
Labels = Mapping[str, str]

# The figures the core and the delivery layer report (``adapters.ops.metrics.FIGURES``
# declares how each is kept).
PRESSES = "presses"  # buttons pressed: platform, game
COMMITS = "commits"  # table changes saved: platform, game
REFUSALS = "refusals"  # changes refused: platform, game, reason (a catalog code)
DELIVERIES = "deliveries"  # platform calls that delivered: platform, method
DELIVERY_FAILURES = "delivery_failures"  # calls that failed: platform, method, kind
REMINDER_LATENESS = "reminder_lateness"  # seconds a reminder fired after it was due
PICTURE_SECONDS = "picture_seconds"  # seconds a board picture took to draw

#: The game of a press whose table is unknown (a forged token, a table gone).
NO_GAME = "none"


class Metrics(Protocol):
    """Where figures go (``Services.metrics``); every call is cheap and never fails."""

    def count(self, name: str, labels: Labels, amount: float = 1.0) -> None:
        """Add ``amount`` to the counter ``name`` of ``labels``."""
        ...

    def observe(self, name: str, value: float, labels: Labels) -> None:
        """Record one ``value`` (seconds) of the distribution ``name``."""
        ...

    def beat(self, loop: str) -> None:
        """The loop ``loop`` (the sender, the due loop) finished a turn: it is alive."""
        ...


class NoMetrics:
    """The default ``Metrics``: figures nobody reads are not kept."""

    def count(self, name: str, labels: Labels, amount: float = 1.0) -> None:
        """Forgotten."""

    def observe(self, name: str, value: float, labels: Labels) -> None:
        """Forgotten."""

    def beat(self, loop: str) -> None:
        """Forgotten."""


def namespace(some_id: str) -> str:
    """The platform namespace of a user or chat id (``tg`` of ``tg:-100:7``)."""
    return some_id.partition(":")[0]


def table_labels(record: TableRecord) -> dict[str, str]:
    """The labels of a figure about ``record``: the platform its chat is on, its game."""
    return {"platform": namespace(record.chat_id), "game": record.game}
