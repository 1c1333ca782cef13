"""Rules look-up speed: how long ``/rules <game> <words>`` takes to find its topics.

Prints one JSON object per hosted game: the time to build its index, and per-query
percentiles over a fixed set of questions players ask (both languages, typos, prefixes,
a word that matches nothing). Speed is measured here, never asserted in tests. Usage:

    python -m bench.rules_lookup [--rounds N]
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import time

from bot.games import manifests
from bot.rules import RulesLibrary

QUESTIONS = (
    "", "tools", "инструменты", "инстрвменты", "hunt", "охота кубики", "feeding hunger",
    "прокорм", "end of game", "конец игры", "tiger deer", "тигр", "хижина", "hut",
    "forest gold", "лес золото", "bonus tile", "meadow", "низина", "zzzz", "card",
)


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def main() -> None:
    """Look every question up ``--rounds`` times in every game's book; print the figures."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=20)
    args = parser.parse_args()
    library = RulesLibrary()
    for name in manifests():
        started = time.perf_counter()
        library.index(name)
        build_ms = (time.perf_counter() - started) * 1000
        times: list[float] = []
        hits = 0
        for _ in range(args.rounds):
            for question in QUESTIONS:
                t0 = time.perf_counter()
                found = library.lookup(name, question, "ru", limit=3 if question else 100)
                times.append((time.perf_counter() - t0) * 1000)
                hits += bool(found)
        print(json.dumps({
            "bench": "rules_lookup", "game": name, "python": platform.python_version(),
            "index_build_ms": round(build_ms, 2), "queries": len(times),
            "query_ms_p50": round(statistics.median(times), 3),
            "query_ms_p99": round(_percentile(times, 0.99), 3),
            "answered_share": round(hits / len(times), 2),
        }))


if __name__ == "__main__":
    main()
