"""The figures' table and the port that keeps them: every figure the core reports is
declared, none is labelled by person, chat or table, and what is counted shows in the
bot's own registry (never the process's default one) under the platform's name."""

from __future__ import annotations

import pytest
from prometheus_client import REGISTRY, generate_latest
from prometheus_client.samples import Sample

from adapters.edge.registry import platform_names
from adapters.ops.health import stale_loops
from adapters.ops.metrics import FIGURES, PERSONAL_LABELS, Kind, PrometheusMetrics
from bot import metrics as figures
from bot.metrics import NoMetrics, namespace
from tests.adapters.ops.scrape import samples, total

#: Every figure name ``bot.metrics`` declares.
REPORTED = {figures.PRESSES, figures.COMMITS, figures.REFUSALS, figures.DELIVERIES,
            figures.DELIVERY_FAILURES, figures.REMINDER_LATENESS, figures.PICTURE_SECONDS}


def scraped(metrics: PrometheusMetrics) -> list[Sample]:
    return samples(generate_latest(metrics.registry).decode())


def test_every_reported_figure_is_declared_once() -> None:
    names = [figure.name for figure in FIGURES]
    assert sorted(names) == sorted(REPORTED)


def test_figures_are_labelled_by_platform_and_never_by_person() -> None:
    for figure in FIGURES:
        assert figure.labels[0] == "platform", figure
        assert not PERSONAL_LABELS & set(figure.labels), figure
        if figure.kind is Kind.HISTOGRAM:
            assert list(figure.buckets) == sorted(set(figure.buckets)), figure
        else:
            assert figure.buckets == (), figure


def test_counts_show_under_the_platforms_name_in_the_bots_own_registry() -> None:
    metrics = PrometheusMetrics(platforms=platform_names())
    labels = {"platform": "tg", "game": "stone_age"}
    metrics.count(figures.PRESSES, labels)
    metrics.count(figures.PRESSES, labels, 2)
    metrics.count(figures.DELIVERY_FAILURES, {"platform": "dc", "method": "send",
                                              "kind": "transient"})
    found = scraped(metrics)
    assert total(found, "campfire_presses_total", platform="telegram", game="stone_age") == 3
    assert total(found, "campfire_delivery_failures_total", platform="discord",
                 method="send", kind="transient") == 1
    # Nothing went into the process-wide registry, and another bot keeps its own.
    assert REGISTRY.get_sample_value("campfire_presses_total",
                                     {"platform": "telegram", "game": "stone_age"}) is None
    assert total(scraped(PrometheusMetrics()), "campfire_presses_total") == 0


def test_a_label_the_figure_does_not_declare_is_left_out() -> None:
    metrics = PrometheusMetrics()
    metrics.count(figures.COMMITS, {"platform": "con", "game": "caverna", "user": "con:anna"})
    found = scraped(metrics)
    [sample] = [s for s in found if s.name == "campfire_commits_total"]
    assert sample.labels == {"platform": "con", "game": "caverna"}  # unknown: as it is


def test_a_figure_of_the_wrong_kind_or_unknown_is_a_bug() -> None:
    metrics = PrometheusMetrics()
    with pytest.raises(KeyError):
        metrics.count(figures.PICTURE_SECONDS, {"platform": "tg", "game": "caverna"})
    with pytest.raises(KeyError):
        metrics.observe("no_such_figure", 1.0, {})


def test_a_histogram_counts_and_sums_what_it_observes() -> None:
    metrics = PrometheusMetrics()
    for seconds in (0.2, 0.4, 30.0):
        metrics.observe(figures.REMINDER_LATENESS, seconds, {"platform": "tg", "game": "g"})
    found = scraped(metrics)
    assert total(found, "campfire_reminder_lateness_count", game="g") == 3
    assert total(found, "campfire_reminder_lateness_sum", game="g") == pytest.approx(30.6)
    assert total(found, "campfire_reminder_lateness_bucket", game="g", le="1.0") == 2


def test_heartbeats_say_how_long_each_loop_has_been_idle() -> None:
    now = [100.0]
    metrics = PrometheusMetrics(clock=lambda: now[0])
    metrics.beat("tg sender")
    now[0] += 5
    metrics.beat("tg due loop")
    now[0] += 1
    assert metrics.idle() == {"tg sender": 6.0, "tg due loop": 1.0}
    assert stale_loops(metrics.idle(), 5.5) == {"tg sender": "no turn for 6 s"}
    assert stale_loops({}, 1.0) == {}


def test_the_default_port_keeps_nothing_and_ids_name_their_platform() -> None:
    quiet = NoMetrics()
    quiet.count(figures.PRESSES, {})
    quiet.observe(figures.PICTURE_SECONDS, 1.0, {})
    quiet.beat("x")
    assert namespace("tg:-100:7") == "tg" and namespace("con:anna") == "con"
    assert platform_names() == {"tg": "telegram", "dc": "discord"}
