"""Realistic Caverna views for the picture's tests, samples and benchmark.

``played_views`` plays a real game (``engine.caverna.caverna_game``) with random legal
choices and keeps the view with the open prompt every few moves, so the samples cover
the whole game: empty boards, the middle, full boards and the end. ``board_prompt``
plays until a prompt asks for a square of the home board. Run as a module to write
sample pictures:

    python -m bot.games.caverna.picture_samples [out/caverna]
"""

from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import Any

from engine.caverna.caverna_game import CAVERNA
from engine.caverna.view import view
from engine.core.prompts import Prompt

SAMPLE_NAMES = ["Анна", "Bob the Builder", "Мария-Антуанетта Длиннофамильная", "Zoë 🔥",
                "‮evil\u0000name", "Гимли", "Thorin Oakenshield"]

Sample = tuple[dict[str, Any], Prompt | None]


def _choose(agent: random.Random, prompt: Prompt) -> str:
    moves = [o for o in prompt.options if not o.back] or list(prompt.options)
    return agent.choice(moves).key


def played_views(players: int, seed: int, every: int = 25,
                 max_actions: int = 4000) -> list[Sample]:
    """Views (for the seat to decide, with its prompt) every ``every`` moves of a game
    played with random legal choices, and the final view."""
    state = CAVERNA.new(players, seed)
    agent = random.Random(seed)
    out: list[Sample] = []
    for step in range(max_actions):
        prompts = CAVERNA.pending(state)
        if not prompts:
            break
        prompt = agent.choice(prompts)
        if step % every == 0:
            out.append((view(state, prompt.seat), prompt))
        CAVERNA.apply(state, prompt.seat, _choose(agent, prompt))
    out.append((view(state, 0), None))
    return out


def board_prompt(players: int, seed: int, what: tuple[str, ...] = ("twin", "furnish"),
                 min_round: int = 1, max_actions: int = 4000) -> Sample:
    """The first view whose open prompt asks for squares of the home board (a twin tile,
    a furnishing's square, fences, a stable) in a round from ``min_round`` on."""
    state = CAVERNA.new(players, seed)
    agent = random.Random(seed)
    for _ in range(max_actions):
        prompts = CAVERNA.pending(state)
        if not prompts:
            break
        prompt = prompts[0]
        keys = prompt.keys()
        on_board = any(k.split(":")[0] in ("at", "lay", "small", "large", "stable")
                       for k in keys)
        if (on_board and prompt.label.code == "cav.prompt.board"
                and prompt.label.args.get("what") in what and state.round >= min_round):
            return view(state, prompt.seat), prompt
        CAVERNA.apply(state, prompt.seat, _choose(agent, prompt))
    raise LookupError(f"no home-board prompt in game {seed}")


def write_samples(folder: Path) -> list[Path]:
    """Write pictures of games with 1, 4 and 7 players (early, middle, end) and a
    home-board prompt, in both languages; the paths written."""
    from bot.games.caverna.picture import render_caverna

    folder.mkdir(parents=True, exist_ok=True)
    cases: dict[str, Sample] = {}
    for players in (1, 4, 7):
        views = played_views(players, 11 + players, every=40)
        cases[f"caverna_{players}p_early"] = views[min(2, len(views) - 1)]
        cases[f"caverna_{players}p_mid"] = views[len(views) // 2]
        cases[f"caverna_{players}p_end"] = views[-1]
    cases["caverna_4p_twin"] = board_prompt(4, 5, ("twin",), min_round=4)
    cases["caverna_2p_furnish"] = board_prompt(2, 3, ("furnish",), min_round=3)
    written = []
    for stem, (data, focus) in cases.items():
        for lang in ("ru", "en"):
            path = folder / f"{stem}{'' if lang == 'ru' else '_en'}.png"
            path.write_bytes(render_caverna(data, SAMPLE_NAMES, lang, focus))
            written.append(path)
    return written


if __name__ == "__main__":
    for p in write_samples(Path(sys.argv[1] if len(sys.argv) > 1 else "out/caverna")):
        print(p)
