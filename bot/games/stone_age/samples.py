"""Realistic Stone Age views for samples, tests and the benchmark.

Games are advanced with random legal choices (a generator of its own, seeded), so a
view is reproducible from ``(players, seed, actions)``. Run as a module to write
sample pictures:

    python -m bot.games.stone_age.samples [out/samples]
"""

from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import Any

from engine.stone_age.game import GAME


def play_view(players: int, seed: int, actions: int | None, seat: int | None = None
              ) -> dict[str, Any]:
    """The view after ``actions`` random legal choices (None: play to the end)."""
    state = GAME.new(players, seed)
    agent = random.Random(seed)
    done = 0
    while actions is None or done < actions:
        prompts = GAME.pending(state)
        if not prompts:
            break
        prompt = agent.choice(prompts)
        GAME.apply(state, prompt.seat, agent.choice(prompt.options).key)
        done += 1
    return GAME.view(state, seat)


SAMPLE_NAMES = ["Анна", "Bob the Builder", "Мария-Антуанетта Длиннофамильная", "Zoë 🔥"]


def write_samples(folder: Path) -> list[Path]:
    """Write the start, middle and end of a 4-player game, in both languages."""
    from bot.games.stone_age.picture import render_stone_age

    folder.mkdir(parents=True, exist_ok=True)
    cases = {
        "stone_age_start": play_view(4, 11, 0),
        "stone_age_actions": play_view(4, 11, 162),
        "stone_age_mid_3p": play_view(3, 8, 150),
        "stone_age_mid": play_view(4, 11, 204),
        "stone_age_end": play_view(4, 11, None),
        "stone_age_mid_2p": play_view(2, 5, 90, seat=0),
    }
    written = []
    for stem, view in cases.items():
        for lang in ("ru", "en"):
            suffix = "" if lang == "ru" else "_en"
            path = folder / f"{stem}{suffix}.png"
            path.write_bytes(render_stone_age(view, SAMPLE_NAMES, lang))
            written.append(path)
    return written


if __name__ == "__main__":
    for p in write_samples(Path(sys.argv[1] if len(sys.argv) > 1 else "out/samples")):
        print(p)
