"""Sample pictures of any game, for people to look at, tests and the render bench.

Each game's samples module makes realistic views (by playing or growing a game at
random) and hands them here: writing them out as PNGs in both languages, and the sets
of views the render bench (``bench.render``) times, are the same for every game.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot.render.labels import LANGS, Lang
from bot.render.targets import Drawn
from engine.core.prompts import Prompt
from engine.core.protocol import Game
from engine.core.views import View

# Display names that test a picture's text handling: Cyrillic, long, emoji, and a
# right-to-left override with a NUL (a name no picture may draw as given). Each game
# takes as many as it has seats.
SAMPLE_NAMES = ["Анна", "Bob the Builder", "Мария-Антуанетта Длиннофамильная", "Zoë 🔥",
                "‮evil\u0000name", "Гимли", "Thorin Oakenshield"]

# A view (the game's view model) and the prompt it is shown with (None: a picture
# without a prompt).
Sample = tuple[View, Prompt | None]
# The game's picture: (view, names, language, prompt) -> the PNG with its targets. Each
# picture takes its own game's view model, so the view is typed as any, as in the
# manifest's Renderer.
Draw = Callable[[Any, list[str], str, Prompt | None], Drawn]


@dataclass(frozen=True, slots=True)
class BenchViews:
    """What the render bench times for one game: named sets of (sample, language),
    and, for a picture that caches parts of itself, how to empty those caches (then
    each set is also timed cold)."""

    sets: Mapping[str, list[tuple[Sample, Lang]]]
    clear_caches: Callable[[], None] | None = field(default=None)


def random_lang(pick: random.Random) -> Lang:
    """A language drawn from ``pick`` (the benches mix both)."""
    return pick.choice(LANGS)


def move_key(agent: random.Random, prompt: Prompt) -> str:
    """A random option of ``prompt`` that moves the game on (a back button only when
    nothing else is offered)."""
    moves = [o for o in prompt.options if not o.back] or list(prompt.options)
    return agent.choice(moves).key


def play_until(game: Game[Any], players: int, seed: int,
               wanted: Callable[[Any, Prompt], bool],
               max_actions: int) -> tuple[Any, Prompt] | None:
    """Play a new game (``players``, ``seed``) with random moves, answering the first
    open prompt each time, until ``wanted(state, prompt)``: that state and prompt, or
    None if the game ends (or ``max_actions`` pass) first."""
    state = game.new(players, seed)
    agent = random.Random(seed)
    for _ in range(max_actions):
        prompts = game.pending(state)
        if not prompts:
            break
        prompt = prompts[0]
        if wanted(state, prompt):
            return state, prompt
        game.apply(state, prompt.seat, move_key(agent, prompt))
    return None


def write_pictures(folder: Path, cases: Mapping[str, Sample], draw: Draw,
                   names: list[str]) -> list[Path]:
    """Draw every case in both languages into ``folder`` (``<stem>.png`` in Russian,
    ``<stem>_en.png`` in English); the paths written."""
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for stem, (view, focus) in cases.items():
        for lang in LANGS:
            path = folder / f"{stem}{'' if lang == 'ru' else '_en'}.png"
            path.write_bytes(draw(view, names, lang, focus).png)
            written.append(path)
    return written


def write_main(write_samples: Callable[[Path], list[Path]], default: str) -> None:
    """A samples module run as a script: write into the folder named on the command
    line (``default`` if none) and print each path."""
    for path in write_samples(Path(sys.argv[1] if len(sys.argv) > 1 else default)):
        print(path)
