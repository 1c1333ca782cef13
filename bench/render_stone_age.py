"""Stone Age picture speed and size over random mid-game views.

Prints one JSON object: render time percentiles (view -> PNG bytes) and the mean PNG
size. The views come from random legal play of 2-4 player games stopped at random
points, prepared before timing so that only rendering is measured. Usage:

    python -m bench.render_stone_age [--renders N] [--seed S]
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import statistics
import time

from bot.games.stone_age.picture import render_stone_age
from bot.games.stone_age.samples import SAMPLE_NAMES, play_view

BAR_MS_P50 = 150


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    index = min(len(ordered) - 1, round(q * (len(ordered) - 1)))
    return ordered[index]


def main() -> None:
    """Render ``--renders`` views once each (after one warm-up) and print the figures."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--renders", type=int, default=50)
    parser.add_argument("--seed", type=int, default=2024)
    args = parser.parse_args()
    pick = random.Random(args.seed)
    views = []
    for i in range(args.renders):
        players = pick.choice((2, 3, 4))
        views.append((play_view(players, args.seed + i, pick.randint(20, 60 * players)),
                      pick.choice(("ru", "en"))))
    # The first render loads the fonts: a one-off cost per process, not per picture.
    warm_view, warm_lang = views[0]
    render_stone_age(warm_view, SAMPLE_NAMES, warm_lang)
    times: list[float] = []
    sizes: list[int] = []
    for view, lang in views:
        start = time.perf_counter()
        png = render_stone_age(view, SAMPLE_NAMES, lang)
        times.append((time.perf_counter() - start) * 1000)
        sizes.append(len(png))
    p50 = statistics.median(times)
    print(json.dumps({
        "bench": "render_stone_age",
        "python": platform.python_version(),
        "renders": len(times),
        "ms_p50": round(p50, 2),
        "ms_p99": round(_percentile(times, 0.99), 2),
        "bytes_mean": round(statistics.fmean(sizes)),
        "bar": {"ms_p50_max": BAR_MS_P50, "met": p50 <= BAR_MS_P50},
    }))


if __name__ == "__main__":
    main()
