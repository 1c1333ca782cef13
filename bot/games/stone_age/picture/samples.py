"""Realistic Stone Age views for samples, tests and the benchmark.

Games are advanced with random legal choices (a generator of its own, seeded), so a
view is reproducible from ``(players, seed, actions)``. Run as a module to write
sample pictures:

    python -m bot.games.stone_age.picture.samples [out/samples]
"""

from __future__ import annotations

import random
from pathlib import Path

from bot.render import samples
from bot.render.labels import Lang
from bot.render.samples import (
    BenchViews,
    Sample,
    play_until,
    random_lang,
    write_main,
    write_pictures,
)
from engine.stone_age.game import GAME
from engine.stone_age.view_model import StoneAgeView

SAMPLE_NAMES = samples.SAMPLE_NAMES[:4]
# Views per set the render bench times by default.
BENCH_SIZE = 50


def play_view(players: int, seed: int, actions: int | None, seat: int | None = None
              ) -> StoneAgeView:
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


def placing_sample(players: int, seed: int) -> Sample:
    """The view and prompt of the first placement of a game's second round, for the
    picture with its places numbered."""
    found = play_until(GAME, players, seed, lambda state, prompt: state.round >= 2
                       and prompt.label.code == "sa.prompt.place", max_actions=2000)
    if found is None:
        raise LookupError(f"no placement in round 2 of game {seed}")
    state, prompt = found
    return GAME.view(state, prompt.seat), prompt


def bench_views(size: int, seed: int) -> BenchViews:
    """``size`` views of random 2-4 player games stopped at random points, each in a
    random language: one set."""
    pick = random.Random(seed)
    views: list[tuple[Sample, Lang]] = []
    for i in range(size):
        players = pick.choice((2, 3, 4))
        view = play_view(players, seed + i, pick.randint(20, 60 * players))
        views.append(((view, None), random_lang(pick)))
    return BenchViews({"mid": views})


def write_samples(folder: Path) -> list[Path]:
    """Write the start, middle and end of a 4-player game, and a placement shown with
    its prompt, in both languages."""
    from bot.games.stone_age.picture import render_stone_age

    cases: dict[str, Sample] = {
        "stone_age_start": (play_view(4, 11, 0), None),
        "stone_age_actions": (play_view(4, 11, 162), None),
        "stone_age_mid_3p": (play_view(3, 8, 150), None),
        "stone_age_mid": (play_view(4, 11, 204), None),
        "stone_age_end": (play_view(4, 11, None), None),
        "stone_age_mid_2p": (play_view(2, 5, 90, seat=0), None),
        "stone_age_placing": placing_sample(4, 11),
    }
    return write_pictures(folder, cases, render_stone_age, SAMPLE_NAMES)


if __name__ == "__main__":
    write_main(write_samples, "out/samples")
