"""The compiled engines (engine/compiled.py): a build is used only for the very source
it was made from, and the compiled engines play exactly the games the source plays and
the computer players choose exactly as on the source."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from engine import compiled
from engine.compiled import (
    MODULES,
    PACKAGE,
    CompiledFinder,
    activate,
    build,
    build_dir,
    built_modules,
    digest,
)

ROOT = PACKAGE.parent
SUFFIX = compiled._SUFFIX


def _copy_engine(tmp_path: Path) -> Path:
    package = tmp_path / "engine"
    shutil.copytree(PACKAGE, package, ignore=shutil.ignore_patterns("__pycache__", "data"))
    return package


def test_the_digest_follows_every_byte_of_the_source_and_the_module_list(tmp_path):
    package = _copy_engine(tmp_path)
    first = digest(package)
    assert digest(package) == first
    flow = package / "stone_age" / "flow.py"
    flow.write_text(flow.read_text() + "\n")
    assert digest(package) != first
    # Any file of the package counts, compiled or not: compiled code relies on the
    # interpreted modules' types too.
    state = package / "stone_age" / "state.py"
    before = digest(package)
    state.write_text(state.read_text() + "# note\n")
    assert digest(package) != before
    assert digest(package, MODULES[:-1]) != digest(package)
    assert build_dir(package).name == digest(package)


def _fake_build(folder: Path, finished: bool = True) -> None:
    for name in ("engine.stone_age.flow", "abc123__mypyc"):
        file = folder / (name.replace(".", "/") + SUFFIX)
        file.parent.mkdir(parents=True, exist_ok=True)
        file.write_bytes(b"")
    if finished:
        (folder / "built.json").write_text("{}")


def test_a_build_is_read_only_when_finished(tmp_path):
    _fake_build(tmp_path / "done")
    _fake_build(tmp_path / "half", finished=False)
    assert built_modules(tmp_path / "done") == {
        "engine.stone_age.flow": tmp_path / "done" / "engine" / "stone_age" / f"flow{SUFFIX}",
        "abc123__mypyc": tmp_path / "done" / f"abc123__mypyc{SUFFIX}",
    }
    assert built_modules(tmp_path / "half") == {}
    assert built_modules(tmp_path / "none") == {}


def test_the_finder_answers_only_for_the_modules_it_holds(tmp_path):
    _fake_build(tmp_path)
    finder = CompiledFinder(built_modules(tmp_path))
    spec = finder.find_spec("engine.stone_age.flow", None)
    assert spec is not None and spec.origin == str(
        tmp_path / "engine" / "stone_age" / f"flow{SUFFIX}")
    assert finder.find_spec("engine.stone_age.state", None) is None


def test_no_build_is_used_for_other_source_or_when_the_source_is_asked_for(tmp_path,
                                                                              monkeypatch):
    package = _copy_engine(tmp_path)
    monkeypatch.setattr(sys, "meta_path", [f for f in sys.meta_path
                                           if not isinstance(f, CompiledFinder)])
    # A finished build of this copy's source, then the source changes: not used.
    _fake_build(build_dir(package))
    flow = package / "stone_age" / "flow.py"
    flow.write_text(flow.read_text() + "\n")
    assert activate({}, package) is None
    assert not compiled.active()
    # Built for the source as it is now, but the environment asks for the source.
    _fake_build(build_dir(package))
    assert activate({"CAMPFIRE_ENGINES": "python"}, package) is None
    assert not compiled.active()
    assert activate({}, package) == build_dir(package)
    assert compiled.active()


# Plays seeded random games, printing what they produced and which modules ran compiled.
_PLAY = """
import hashlib, json, random, sys
import engine.compiled as c
from engine.ai import decide
from engine.registry import get_game
out = {"compiled": sorted(n for n in c.MODULES if c.compiled(sys.modules.get(n) or
       __import__(n, fromlist=["_"])))}
for name, games in (("stone_age", 12), ("hunters_gatherers", 3), ("caverna", 2)):
    game, h = get_game(name), hashlib.sha256()
    for seed in range(games):
        agent, state = random.Random(seed), game.new(2 + seed % 3, seed)
        while prompts := game.pending(state):
            prompt = agent.choice(prompts)
            events = game.apply(state, prompt.seat, agent.choice(prompt.options).key)
            h.update(repr([(e.code, e.seat, sorted(e.args.items())) for e in events]).encode())
        h.update(game.dump(state).encode())
    out[name] = h.hexdigest()
# The computer players on one game each: a capped search and greed, every few prompts.
for name, every in (("stone_age", 15), ("hunters_gatherers", 15), ("caverna", 40)):
    game, keys = get_game(name), []
    agent, state = random.Random(5), game.new(3, 5)
    while prompts := game.pending(state):
        prompt = agent.choice(prompts)
        if state.actions % every == 0:
            keys += [decide(game, state, prompt, "strong", state.actions, iterations=6),
                     decide(game, state, prompt, "normal", state.actions)]
        game.apply(state, prompt.seat, agent.choice(prompt.options).key)
    out[name + "_ai"] = keys
print(json.dumps(out))
"""


def _play(engines: str) -> dict[str, object]:
    env = {**os.environ, "CAMPFIRE_ENGINES": engines, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-c", _PLAY], cwd=ROOT, env=env, check=True,
                          capture_output=True, text=True, timeout=600)
    result: dict[str, object] = json.loads(done.stdout)
    return result


def test_the_compiled_engines_play_the_same_games_as_their_source():
    # Set-up builds the engines; on a machine where that failed, this builds them again
    # and shows why (a missing C compiler, or code mypyc refuses).
    build()
    fast, source = _play("compiled"), _play("python")
    assert fast.pop("compiled") == sorted(MODULES)
    assert source.pop("compiled") == []
    assert fast == source


def test_an_installed_package_compiles_and_uses_its_build(tmp_path):
    # As in the image (deploy/Dockerfile): the package alone, in a site-packages with no
    # pyproject.toml beside it, built there and used by a process that imports it there.
    site = tmp_path / "site-packages"
    shutil.copytree(PACKAGE, site / "engine", ignore=shutil.ignore_patterns("__pycache__"))
    env = {**os.environ, "PYTHONPATH": str(site)}
    env.pop("CAMPFIRE_ENGINES", None)
    subprocess.run([sys.executable, "-m", "engine.compile", "build"], cwd=tmp_path, env=env,
                   check=True, capture_output=True, timeout=600)
    done = subprocess.run(
        [sys.executable, "-c", "import engine.compiled as c, engine.stone_age.flow as f;"
         "print(c.PACKAGE, c.active(), c.compiled(f))"],
        cwd=tmp_path, env=env, check=True, capture_output=True, text=True, timeout=120)
    assert done.stdout.split() == [str(site / "engine"), "True", "True"]
    assert (site / ".campfire" / "compiled").is_dir()


def test_a_failed_build_leaves_nothing_and_the_source_runs(tmp_path):
    package = _copy_engine(tmp_path)
    keys = package / "core" / "keys.py"
    keys.write_text(keys.read_text() + "\nBROKEN: int = 'not a number'\n")  # mypyc refuses
    with pytest.raises(subprocess.CalledProcessError):
        build(package, ("engine.core.keys",))
    assert built_modules(build_dir(package, ("engine.core.keys",))) == {}
    assert not (tmp_path / ".campfire" / "compiled").exists() or not any(
        (tmp_path / ".campfire" / "compiled").iterdir())
    assert activate({}, package) is None  # so the engines run their source
