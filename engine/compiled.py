"""The engines' busiest modules compiled to C by mypyc, loaded in place of their
source when a build of exactly this engine's source is at hand.

A searching AI plays thousands of moves inside one decision, and the interpreter
spends most of a move calling small functions. mypyc compiles the same typed modules
(nothing is written twice): this module builds them and sends imports of the listed
modules to the build.

A build lives in ``.campfire/compiled/<digest>/`` beside the package. The digest
covers every ``.py`` file of the engine package, the list of compiled modules and the
interpreter's extension suffix, so a build of any other source is never loaded: an
edited engine runs interpreted until the next build. Set-up builds
(``scripts/ensure-venv.sh`` runs ``python -m engine.compile build``); a machine with
no C compiler simply runs the source. ``CAMPFIRE_ENGINES=python`` runs the source even
when a build is there (the tests that patch an engine's module functions need it).

Only the standard library is imported here: ``engine/__init__.py`` activates the build
before any engine module is loaded.
"""

from __future__ import annotations

import hashlib
import importlib.abc
import importlib.machinery
import importlib.util
import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Mapping, Sequence
from pathlib import Path
from types import ModuleType

# The compiled modules: the computer players' search (every game's), the shared
# decision machinery, and Stone Age's rules and heuristic, whose moves are the cheapest
# and most numerous of the three games (issue 24's speed bar).
# Not engine.core.prompts: its value classes are dataclasses mypyc cannot see as such
# (engine/core/values.py), and compiling it gained nothing measurable.
MODULES: tuple[str, ...] = (
    "engine.ai.greedy",
    "engine.ai.rewards",
    "engine.ai.search",
    "engine.core.aside",
    "engine.core.keys",
    "engine.core.machine",
    "engine.core.splitmix",
    "engine.core.stacks",
    "engine.core.steps",
    "engine.stone_age.buildings",
    "engine.stone_age.civilization",
    "engine.stone_age.decisions",
    "engine.stone_age.feeding",
    "engine.stone_age.flow",
    "engine.stone_age.game",
    "engine.stone_age.gathering",
    "engine.stone_age.heuristic",
    "engine.stone_age.listing",
    "engine.stone_age.order",
    "engine.stone_age.outlook",
    "engine.stone_age.payment",
    "engine.stone_age.placement",
    "engine.stone_age.redraw",
    "engine.stone_age.rounds",
    "engine.stone_age.tools",
    "engine.stone_age.turn_order",
)
SWITCH = "CAMPFIRE_ENGINES"  # "python": run the source even when a build is there
_DONE = "built.json"  # written last: a folder without it is an unfinished build
_SUFFIX = importlib.machinery.EXTENSION_SUFFIXES[0]
PACKAGE = Path(__file__).resolve().parent


def digest(package: Path = PACKAGE, modules: Sequence[str] = MODULES) -> str:
    """What a build must have been made from: every source file of ``package`` (path
    and bytes), the compiled ``modules`` and the interpreter's extension suffix."""
    h = hashlib.sha256()
    h.update(repr((tuple(modules), _SUFFIX)).encode())
    for path in sorted(package.rglob("*.py")):
        h.update(path.relative_to(package).as_posix().encode() + b"\0")
        h.update(path.read_bytes() + b"\0")
    return h.hexdigest()[:20]


def build_dir(package: Path = PACKAGE, modules: Sequence[str] = MODULES) -> Path:
    """Where the build of this source is, or would be."""
    return package.parent / ".campfire" / "compiled" / digest(package, modules)


class CompiledFinder(importlib.abc.MetaPathFinder):
    """Finds the listed modules (and mypyc's shared library) among a build's files."""

    def __init__(self, files: Mapping[str, Path]) -> None:
        self.files = dict(files)

    def find_spec(self, fullname: str, path: Sequence[str] | None,
                  target: ModuleType | None = None) -> importlib.machinery.ModuleSpec | None:
        """A spec loading ``fullname`` from the build, for a module it holds."""
        file = self.files.get(fullname)
        return None if file is None else importlib.util.spec_from_file_location(fullname, file)


def built_modules(folder: Path) -> dict[str, Path]:
    """Every extension module of a finished build in ``folder``, by module name (none
    when the folder holds no finished build)."""
    if not (folder / _DONE).is_file():
        return {}
    return {so.relative_to(folder).as_posix()[:-len(_SUFFIX)].replace("/", "."): so
            for so in folder.rglob(f"*{_SUFFIX}")}


def activate(environ: Mapping[str, str] = os.environ, package: Path = PACKAGE) -> Path | None:
    """Send imports of the compiled modules to this source's build, if there is one and
    the environment does not ask for the source; the build's folder, or None."""
    if environ.get(SWITCH, "").lower() == "python" or active():
        return None
    folder = build_dir(package)
    files = built_modules(folder)
    if not files:
        return None
    sys.meta_path.insert(0, CompiledFinder(files))
    return folder


def active() -> bool:
    """Are imports of the compiled modules sent to a build in this process?"""
    return any(isinstance(finder, CompiledFinder) for finder in sys.meta_path)


def compiled(module: ModuleType) -> bool:
    """Was ``module`` loaded from a build rather than from its source?"""
    return (getattr(module, "__file__", None) or "").endswith(_SUFFIX)


# Run in a child process, in a scratch folder: mypyc writes its C there, and setuptools
# there reads no project file.
_BUILD = """
import sys
from mypyc.build import mypycify
from setuptools import setup
out, config, *paths = sys.argv[1:]
options = ["--config-file", config] if config else []
setup(name="campfire-compiled", script_args=["build_ext", "--build-lib", out,
      "--build-temp", "temp"], ext_modules=mypycify([*paths, *options], opt_level="3"))
"""


def build(package: Path = PACKAGE, modules: Sequence[str] = MODULES) -> Path:
    """Compile ``modules`` of ``package`` unless this source's build exists; its folder.
    Earlier builds beside it are removed. Raises ``CalledProcessError`` when mypyc or
    the C compiler fails (nothing is left behind then)."""
    folder = build_dir(package, modules)
    if built_modules(folder):
        return folder
    root = package.parent
    paths = [str(root / (name.replace(".", "/") + ".py")) for name in modules]
    # The project's mypy settings in a checkout; an installed package (an image's
    # site-packages) has no pyproject.toml, and mypy's defaults compile the same code.
    config = root / "pyproject.toml"
    with tempfile.TemporaryDirectory() as scratch:
        out = Path(scratch) / "out"
        subprocess.run([sys.executable, "-c", _BUILD, str(out),
                        str(config) if config.is_file() else "", *paths],
                       cwd=scratch, check=True, stdout=subprocess.DEVNULL,
                       stderr=subprocess.PIPE)  # mypyc's errors, for the caller to show
        (out / _DONE).write_text(json.dumps({"modules": list(modules)}))
        folder.parent.mkdir(parents=True, exist_ok=True)
        for old in folder.parent.iterdir():
            if not old.name.startswith("."):  # a build of other source, not one under way
                shutil.rmtree(old, ignore_errors=True)
        staged = folder.parent / f".{folder.name}.{os.getpid()}"
        shutil.move(out, staged)
        try:
            staged.rename(folder)  # at once: a reader sees no build or a whole one
        except OSError:
            shutil.rmtree(staged, ignore_errors=True)
            if not built_modules(folder):  # not another process's build of this source
                raise
    return folder
