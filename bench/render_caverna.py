"""Caverna picture speed and size, and sample pictures for people to look at.

Prints one JSON object: render time percentiles (view -> PNG bytes) and the mean PNG
size and height, by player count (1, 4, 7) over views taken throughout random games
(``picture_samples.played_views``, prepared before timing), and writes sample PNGs of
1-, 4- and 7-player games (early, middle, end, and home-board prompts) in both
languages to ``--out`` (a fresh temporary folder unless given). Usage:

    python -m bench.render_caverna [--games N] [--seed S] [--out DIR]
"""

from __future__ import annotations

import argparse
import io
import json
import platform
import random
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from PIL import Image

from bot.games.caverna.picture import render_caverna
from bot.games.caverna.picture_samples import SAMPLE_NAMES, Sample, played_views, write_samples

BAR_MS_P50 = 300
PLAYER_COUNTS = (1, 4, 7)


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    index = min(len(ordered) - 1, round(q * (len(ordered) - 1)))
    return ordered[index]


def _time(samples: list[tuple[Sample, str]]) -> dict[str, float]:
    times: list[float] = []
    sizes: list[int] = []
    heights: list[int] = []
    for (view, focus), lang in samples:
        start = time.perf_counter()
        png = render_caverna(view, SAMPLE_NAMES, lang, focus)
        times.append((time.perf_counter() - start) * 1000)
        sizes.append(len(png))
        heights.append(Image.open(io.BytesIO(png)).height)
    return {
        "renders": len(times),
        "ms_p50": round(statistics.median(times), 2),
        "ms_p99": round(_percentile(times, 0.99), 2),
        "bytes_mean": round(statistics.fmean(sizes)),
        "height_max": max(heights),
    }


def main() -> None:
    """Render views of ``--games`` games per player count and print the figures."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args()
    pick = random.Random(args.seed)
    sets: dict[int, list[tuple[Sample, str]]] = {}
    for players in PLAYER_COUNTS:
        sets[players] = [(sample, pick.choice(("ru", "en")))
                         for game in range(args.games)
                         for sample in played_views(players, args.seed + game, every=60)]
    # The first render loads the fonts and the catalog: a one-off cost per process.
    render_caverna(sets[1][0][0][0], SAMPLE_NAMES)
    result: dict[str, Any] = {
        "bench": "render_caverna",
        "python": platform.python_version(),
        "games": args.games,
    }
    for players, samples in sets.items():
        result[f"players_{players}"] = _time(samples)
    worst = max(result[f"players_{n}"]["ms_p50"] for n in PLAYER_COUNTS)
    result["bar"] = {"ms_p50_max": BAR_MS_P50, "met": worst <= BAR_MS_P50}
    out = args.out or Path(tempfile.mkdtemp(prefix="caverna_pictures_"))
    result["samples"] = {"folder": str(out), "files": len(write_samples(out))}
    print(json.dumps(result))


if __name__ == "__main__":
    main()
