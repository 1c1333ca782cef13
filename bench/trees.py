"""Measuring this tree against a base commit: the base unpacked beside it, and a
bench's driver run in a process of its own with a tree first on the path.

A bench that compares trees (``bench.speed``, ``bench.presses``, ``bench.same_games``)
is its own driver: run with ``--driver <config JSON>`` it measures the tree it was
imported from and prints one JSON object as its last line.
"""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
import tempfile
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

HEAD_TREE = Path(__file__).resolve().parents[1]


@contextlib.contextmanager
def base_tree(commit: str) -> Iterator[Path]:
    """``commit`` of this repository unpacked (``git archive``) in a temporary
    directory, for the block."""
    with tempfile.TemporaryDirectory(prefix="campfire-base-") as tmp:
        archive = subprocess.run(["git", "-C", str(HEAD_TREE), "archive", commit],
                                 capture_output=True, check=True)
        subprocess.run(["tar", "-x", "-C", tmp], input=archive.stdout, check=True)
        yield Path(tmp)


def head_commit() -> str:
    """This tree's commit, short."""
    return subprocess.run(["git", "-C", str(HEAD_TREE), "rev-parse", "--short", "HEAD"],
                          capture_output=True, text=True, check=False).stdout.strip()


def run_driver(bench_file: str, tree: Path, config: dict[str, Any],
               environ: Mapping[str, str] | None = None) -> Any:
    """The bench in ``bench_file`` (its ``__file__``: this tree's driver, which uses only
    what both trees have) in its own process, with ``tree`` first on the path and
    ``environ`` added to the environment; what it printed last, read as JSON."""
    done = subprocess.run(
        [sys.executable, str(Path(bench_file).resolve()), "--driver", json.dumps(config)],
        cwd=tree, env={**os.environ, **(environ or {}), "PYTHONPATH": str(tree)},
        capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"driver failed in {tree}:\n{done.stderr[-4000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])
