"""Realistic Caverna views for the picture's tests, samples and benchmark.

``played_views`` plays a real game (``engine.caverna.caverna_game``) with random legal
choices and keeps the view with the open prompt every few moves, so the samples cover
the whole game: empty boards, the middle, full boards and the end. ``board_prompt``
plays until a prompt asks for a square of the home board. Run as a module to write
sample pictures:

    python -m bot.games.caverna.picture.samples [out/caverna]
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from bot.render.labels import Lang
from bot.render.samples import (
    SAMPLE_NAMES,
    BenchViews,
    move_key,
    play_until,
    random_lang,
    write_main,
    write_pictures,
)
from bot.render.samples import Sample as ViewSample
from engine.caverna.caverna_game import CAVERNA
from engine.caverna.view import view
from engine.caverna.view_model import CavernaView
from engine.core.prompts import Prompt

__all__ = ["SAMPLE_NAMES", "Sample", "bench_views", "board_prompt", "played_views",
           "write_samples"]

# A Caverna view and the prompt it is shown with (None: a picture without a prompt).
Sample = tuple[CavernaView, Prompt | None]

# Games per player count the render bench plays for its views, by default.
BENCH_SIZE = 2
# Player counts the render bench times: the fewest, the usual and the most seats.
BENCH_PLAYERS = (1, 4, 7)


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
        CAVERNA.apply(state, prompt.seat, move_key(agent, prompt))
    out.append((view(state, 0), None))
    return out


def board_prompt(players: int, seed: int, what: tuple[str, ...] = ("twin", "furnish"),
                 min_round: int = 1, max_actions: int = 4000) -> Sample:
    """The first view whose open prompt asks for squares of the home board (a twin tile,
    a furnishing's square, fences, a stable) in a round from ``min_round`` on."""

    def wanted(state: Any, prompt: Prompt) -> bool:
        keys = prompt.keys()  # the option keys (a Prompt is not a dict)
        on_board = any(k.split(":")[0] in ("at", "lay", "small", "large", "stable")
                       for k in keys)
        return (on_board and prompt.label.code == "cav.prompt.board"
                and prompt.label.args.get("what") in what and state.round >= min_round)

    found = play_until(CAVERNA, players, seed, wanted, max_actions)
    if found:
        state, prompt = found
        return view(state, prompt.seat), prompt
    raise LookupError(f"no home-board prompt in game {seed}")


def write_samples(folder: Path) -> list[Path]:
    """Write pictures of games with 1, 4 and 7 players (early, middle, end) and a
    home-board prompt, in both languages; the paths written."""
    from bot.games.caverna.picture import render_caverna

    cases: dict[str, Sample] = {}
    for players in (1, 4, 7):
        views = played_views(players, 11 + players, every=40)
        cases[f"caverna_{players}p_early"] = views[min(2, len(views) - 1)]
        cases[f"caverna_{players}p_mid"] = views[len(views) // 2]
        cases[f"caverna_{players}p_end"] = views[-1]
    cases["caverna_4p_twin"] = board_prompt(4, 5, ("twin",), min_round=4)
    cases["caverna_2p_furnish"] = board_prompt(2, 0, ("furnish",), min_round=3)
    return write_pictures(folder, cases, render_caverna, SAMPLE_NAMES)


def bench_views(size: int, seed: int) -> BenchViews:
    """Views throughout ``size`` random games (one every 60 moves, and the end) for
    each of 1, 4 and 7 players, each in a random language; a set per player count."""
    pick = random.Random(seed)
    # The bench times any game's samples: its sets hold views of any model.
    sets: dict[str, list[tuple[ViewSample, Lang]]] = {}
    for players in BENCH_PLAYERS:
        sets[f"players_{players}"] = [
            (sample, random_lang(pick)) for game in range(size)
            for sample in played_views(players, seed + game, every=60)]
    return BenchViews(sets)


if __name__ == "__main__":
    write_main(write_samples, "out/caverna")
