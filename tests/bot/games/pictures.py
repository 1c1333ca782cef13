"""Helpers shared by the games' picture tests."""

from __future__ import annotations

import io
from collections.abc import Callable
from typing import Any

from PIL import Image

from bot.render.samples import play_until
from bot.render.targets import Drawn
from engine.core.prompts import Prompt
from engine.core.protocol import Game


def decoded_png(data: bytes) -> Image.Image:
    """``data`` as a PNG image, decoded in full: a truncated PNG fails here."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    im = Image.open(io.BytesIO(data))
    im.load()
    return im


def decoded(drawn: Drawn) -> Image.Image:
    """A finished picture's PNG, decoded in full, checked to be the size it claims."""
    im = decoded_png(drawn.png)
    assert im.size == (drawn.width, drawn.height)
    return im


def assert_targets(drawn: Drawn, places: set[int]) -> None:
    """``drawn``'s targets are right for a prompt whose options ``places`` (their
    numbers) mean a place: each such option in exactly one target and no other option
    in any, every box inside the picture, no two places in the same box."""
    decoded(drawn)  # the size the picture claims is the PNG's
    numbers = [n for t in drawn.targets for n in t.numbers]
    assert sorted(numbers) == sorted(places), (numbers, places)
    for t in drawn.targets:
        x0, y0, x1, y1 = t.box
        assert 0 <= x0 < x1 <= drawn.width and 0 <= y0 < y1 <= drawn.height, t
    boxes = [t.box for t in drawn.targets]
    assert len(set(boxes)) == len(boxes), boxes


def opened_prompt(game: Game[Any], players: int, seed: int,
                  wanted: Callable[[Any, Prompt], bool],
                  max_actions: int = 4000) -> tuple[Any, Prompt]:
    """The view of the seat to decide and its prompt, the first time a game played with
    seeded random choices opens a prompt ``wanted``."""
    found = play_until(game, players, seed, wanted, max_actions=max_actions)
    assert found is not None, "no such prompt in the game"
    state, prompt = found
    return game.view(state, prompt.seat), prompt
