"""The operator's figures for Prometheus: the core's ``Metrics`` port kept in one
``CollectorRegistry`` that the running bot owns (never the process-wide default).

Every figure is declared once, in ``FIGURES``: its name (``bot.metrics``), its kind,
its help and its label names — platform and game, and what else tells failures apart
(a refusal's reason, a call's method) — never a user, a chat or a table. What Redis
holds (how deep and how old each outbox is) and how long ago each loop turned are
read when Prometheus scrapes (``refresh``), not kept up to date in between.
"""

from __future__ import annotations

import enum
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TypeVar

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram

from adapters.delivery.outbox import Outbox
from bot import metrics as figures
from bot.metrics import Labels

#: Every figure's name starts so (``campfire_presses_total``).
NAMESPACE = "campfire"
PLATFORM_GAME = ("platform", "game")


class Kind(enum.Enum):
    """How a figure is kept."""

    COUNTER = "counter"  # only ever grows (Prometheus adds ``_total``)
    HISTOGRAM = "histogram"  # a distribution of seconds, in buckets


@dataclass(frozen=True)
class Figure:
    """One figure: its name, kind, help, label names and (a histogram's) buckets."""

    name: str
    kind: Kind
    help: str
    labels: tuple[str, ...]
    buckets: tuple[float, ...] = ()


FIGURES: tuple[Figure, ...] = (
    Figure(figures.PRESSES, Kind.COUNTER, "Buttons pressed.", PLATFORM_GAME),
    Figure(figures.COMMITS, Kind.COUNTER, "Table changes saved.", PLATFORM_GAME),
    Figure(figures.REFUSALS, Kind.COUNTER, "Presses refused, by reason (a catalog code).",
           (*PLATFORM_GAME, "reason")),
    Figure(figures.DELIVERIES, Kind.COUNTER, "Platform calls that delivered, by method.",
           ("platform", "method")),
    Figure(figures.DELIVERY_FAILURES, Kind.COUNTER,
           "Platform calls that failed, by method and what the failure means.",
           ("platform", "method", "kind")),
    # Reminders come every few hours: a minute late is fine, an hour is an outage.
    Figure(figures.REMINDER_LATENESS, Kind.HISTOGRAM,
           "Seconds a reminder was sent after it was due.", PLATFORM_GAME,
           (1, 5, 15, 60, 300, 900, 3600)),
    # A board takes tenths of a second; seconds means the machine is overloaded.
    Figure(figures.PICTURE_SECONDS, Kind.HISTOGRAM, "Seconds a board picture took to draw.",
           PLATFORM_GAME, (0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10)),
)

#: Label names that would say who plays or grow without bound: never a figure's.
PERSONAL_LABELS = frozenset({"user", "user_id", "chat", "chat_id", "table", "table_id"})

Kept = TypeVar("Kept", Counter, Histogram)


class PrometheusMetrics:
    """The ``bot.metrics.Metrics`` port, kept for Prometheus in ``registry``.

    Callers label by the namespace of the ids (``tg``); ``platforms`` names each as an
    operator does (``{"tg": "telegram"}``; a namespace not in it is shown as it is).
    ``clock`` (monotonic seconds) times the loops' heartbeats.
    """

    def __init__(self, registry: CollectorRegistry | None = None,
                 platforms: Mapping[str, str] | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        """Declare every figure of ``FIGURES`` in ``registry`` (a fresh one if none)."""
        self.registry = registry if registry is not None else CollectorRegistry()
        self.platforms = dict(platforms or {})
        self.clock = clock
        self._label_names = {figure.name: figure.labels for figure in FIGURES}
        self._counters = {
            f.name: Counter(f.name, f.help, f.labels, namespace=NAMESPACE,
                            registry=self.registry)
            for f in FIGURES if f.kind is Kind.COUNTER}
        self._histograms = {
            f.name: Histogram(f.name, f.help, f.labels, namespace=NAMESPACE,
                              buckets=f.buckets, registry=self.registry)
            for f in FIGURES if f.kind is Kind.HISTOGRAM}
        #: Each loop's last turn, in ``clock`` seconds (``beat``).
        self.beats: dict[str, float] = {}
        self._outbox_depth = Gauge("outbox_depth", "Messages waiting to be delivered.",
                                   ["platform"], namespace=NAMESPACE, registry=self.registry)
        self._outbox_age = Gauge("outbox_age_seconds",
                                 "How long the oldest waiting message has waited.",
                                 ["platform"], namespace=NAMESPACE, registry=self.registry)
        self._loop_idle = Gauge("loop_idle_seconds", "Seconds since each loop last turned.",
                                ["loop"], namespace=NAMESPACE, registry=self.registry)

    def _series(self, kept: Kept, name: str, labels: Labels) -> Kept:
        """The series of ``kept`` (the figure ``name``) for ``labels``: a label the
        figure declares and ``labels`` lack reads as empty, one it does not declare is
        left out (a figure never grows a label by accident)."""
        values = {key: labels.get(key, "") for key in self._label_names[name]}
        if "platform" in values:
            values["platform"] = self.platform_name(values["platform"])
        return kept.labels(**values)

    def platform_name(self, namespace: str) -> str:
        """``telegram`` for ``tg``: the platform as the operator knows it."""
        return self.platforms.get(namespace, namespace)

    def count(self, name: str, labels: Labels, amount: float = 1.0) -> None:
        """Add ``amount`` to the counter ``name`` (a ``FIGURES`` counter: another name
        is a bug, ``KeyError``)."""
        self._series(self._counters[name], name, labels).inc(amount)

    def observe(self, name: str, value: float, labels: Labels) -> None:
        """Record ``value`` in the histogram ``name`` (a ``FIGURES`` histogram: another
        name is a bug, ``KeyError``)."""
        self._series(self._histograms[name], name, labels).observe(value)

    def beat(self, loop: str) -> None:
        """``loop`` turned just now."""
        self.beats[loop] = self.clock()

    def idle(self) -> dict[str, float]:
        """Seconds since each loop's last turn."""
        now = self.clock()
        return {loop: now - last for loop, last in self.beats.items()}

    async def refresh(self, outboxes: Sequence[Outbox]) -> None:
        """Read what is only known at a scrape: each outbox's depth and age (from
        Redis: an outage raises), each loop's time since its last turn."""
        for outbox in outboxes:
            depth, age = await outbox.backlog()
            platform = self.platform_name(outbox.platform)
            self._outbox_depth.labels(platform).set(depth)
            self._outbox_age.labels(platform).set(age)
        for loop, seconds in self.idle().items():
            self._loop_idle.labels(loop).set(seconds)
