"""Hunters and Gatherers picture speed and size over mid-game and full maps.

Prints one JSON object: render time percentiles (view -> PNG bytes) for maps with
20-45 tiles ("mid") and with the whole deck placed ("full"), and the mean PNG size.
Views come from random growth of the map (``sample_view``) and are prepared before
timing. "warm" is the usual case in a running bot (tile pictures already cached
from earlier renders); "cold" clears the tile caches before every render. Usage:

    python -m bench.render_hunters_gatherers [--renders N] [--seed S]
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import statistics
import time
from typing import Any

from bot.games.hunters_gatherers.picture import render_hunters_gatherers
from bot.games.hunters_gatherers.samples import SAMPLE_NAMES, sample_view
from bot.games.hunters_gatherers.tile_drawing import tile_image
from bot.games.hunters_gatherers.tile_geometry import tile_layout

BAR_MS_P50 = 300


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    index = min(len(ordered) - 1, round(q * (len(ordered) - 1)))
    return ordered[index]


def _time(views: list[tuple[dict[str, Any], str]], cold: bool) -> dict[str, float]:
    times: list[float] = []
    sizes: list[int] = []
    for view, lang in views:
        if cold:
            tile_image.cache_clear()
            tile_layout.cache_clear()
        start = time.perf_counter()
        png = render_hunters_gatherers(view, SAMPLE_NAMES, lang)
        times.append((time.perf_counter() - start) * 1000)
        sizes.append(len(png))
    return {
        "ms_p50": round(statistics.median(times), 2),
        "ms_p99": round(_percentile(times, 0.99), 2),
        "bytes_mean": round(statistics.fmean(sizes)),
    }


def main() -> None:
    """Render ``--renders`` views per map size (after one warm-up) and print the figures."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--renders", type=int, default=30)
    parser.add_argument("--seed", type=int, default=2024)
    args = parser.parse_args()
    pick = random.Random(args.seed)
    sets: dict[str, list[tuple[dict[str, Any], str]]] = {"mid": [], "full": []}
    for i in range(args.renders):
        players = pick.choice((2, 3, 4, 5))
        lang = pick.choice(("ru", "en"))
        sets["mid"].append((sample_view(players, args.seed + i, pick.randint(20, 45),
                                        figures=pick.randint(5, 20)), lang))
        sets["full"].append((sample_view(players, args.seed + i, None,
                                         figures=pick.randint(15, 35)), lang))
    # The first render loads the fonts: a one-off cost per process, not per picture.
    render_hunters_gatherers(sets["mid"][0][0], SAMPLE_NAMES)
    result: dict[str, Any] = {
        "bench": "render_hunters_gatherers",
        "python": platform.python_version(),
        "renders": args.renders,
    }
    for name, views in sets.items():
        result[name] = {"warm": _time(views, cold=False), "cold": _time(views, cold=True)}
    worst = max(result[name]["cold"]["ms_p50"] for name in sets)
    result["bar"] = {"ms_p50_max": BAR_MS_P50, "met": worst <= BAR_MS_P50}
    print(json.dumps(result))


if __name__ == "__main__":
    main()
