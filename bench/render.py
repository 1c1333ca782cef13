"""Picture speed and size of any game with a picture, and sample pictures to look at.

Prints one JSON object per game (one line each). The views come from the samples module
of the game's picture package (``<package of the manifest's renderer>.samples``: its
``BENCH_SIZE``, ``SAMPLE_NAMES``, ``bench_views`` and ``write_samples``), made before
timing so that only rendering is measured. For every set of views: render time
percentiles (view -> PNG and its targets), the mean PNG size and the tallest picture; for a
picture that caches its parts, the same again with the caches emptied before every
render ("cold"). The bar (``bench.per_game``) holds the slowest set's median, cold if
measured. Sample PNGs of the game, both languages, are written to ``--out`` (a fresh
temporary folder unless given). Usage:

    python -m bench.render [--game NAME] [--size N] [--seed S] [--out DIR]

Without ``--game`` every game with a picture is measured in turn.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import io
import json
import platform
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from PIL import Image

from bench.per_game import RENDER_MS_P50_MAX
from bot.games import manifest, manifests
from bot.games.manifest import Renderer
from bot.render.labels import Lang
from bot.render.samples import Sample


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    index = min(len(ordered) - 1, round(q * (len(ordered) - 1)))
    return ordered[index]


def _time(draw: Renderer, names: list[str], samples: list[tuple[Sample, Lang]],
          clear: Callable[[], None] | None = None) -> dict[str, Any]:
    """Render every sample once (after ``clear``, if given) and sum up."""
    times: list[float] = []
    sizes: list[int] = []
    heights: list[int] = []
    for (view, focus), lang in samples:
        if clear:
            clear()
        start = time.perf_counter()
        png = draw(view, names, lang, focus).png
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


def samples_module(draw: Renderer) -> str:
    """Where a picture's samples are: the ``samples`` module of the picture's package."""
    return f"{draw.__module__}.samples"


def drawn_games() -> list[str]:
    """The hosted games whose picture has samples to time."""
    return [name for name, entry in manifests().items()
            if entry.picture and importlib.util.find_spec(samples_module(entry.picture))]


def measure(name: str, size: int | None, seed: int, out: Path | None) -> dict[str, Any]:
    """Every figure of one game's render bench (None: the game's default size)."""
    draw = manifest(name).picture
    if draw is None:
        raise ValueError(f"{name} has no picture")
    samples = importlib.import_module(samples_module(draw))
    size = samples.BENCH_SIZE if size is None else size
    views = samples.bench_views(size, seed)
    names: list[str] = samples.SAMPLE_NAMES
    # The first render loads the fonts and the catalog: a one-off cost per process.
    (first_view, first_focus), first_lang = next(iter(views.sets.values()))[0]
    draw(first_view, names, first_lang, first_focus)
    result: dict[str, Any] = {
        "bench": "render",
        "game": name,
        "python": platform.python_version(),
        "size": size,
    }
    medians = []
    for set_name, chosen in views.sets.items():
        figures = _time(draw, names, chosen)
        if views.clear_caches:
            figures["cold"] = _time(draw, names, chosen, views.clear_caches)
        medians.append(figures.get("cold", figures)["ms_p50"])
        result[set_name] = figures
    bar = RENDER_MS_P50_MAX.get(name)
    result["bar"] = {"ms_p50_max": bar, "met": max(medians) <= bar if bar else None}
    folder = out / name if out else Path(tempfile.mkdtemp(prefix=f"{name}_pictures_"))
    result["samples"] = {"folder": str(folder), "files": len(samples.write_samples(folder))}
    return result


def main() -> None:
    """Measure the game asked for (every game with a picture if none); print the figures."""
    drawn = drawn_games()
    parser = argparse.ArgumentParser()
    parser.add_argument("--game", choices=drawn, default=None,
                        help="a game with a picture (default: every such game)")
    parser.add_argument("--size", type=int, default=None,
                        help="how many views per set (or games to take them from) the "
                        "game's samples make (default: the game's)")
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--out", type=Path, default=None,
                        help="folder for sample pictures, one subfolder per game")
    args = parser.parse_args()
    for name in [args.game] if args.game else drawn:
        print(json.dumps(measure(name, args.size, args.seed, args.out)), flush=True)


if __name__ == "__main__":
    main()
