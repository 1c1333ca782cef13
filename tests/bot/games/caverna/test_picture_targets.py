"""The Caverna picture's tap targets: every place a real prompt offers (a home-board
square, two squares, an action space, a furnishing tile) is one box around the place
itself, where its mark is drawn; nothing else is a target."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from PIL import Image

from bot.games.caverna.picture import board_cell, render_caverna
from bot.games.caverna.picture.samples import SAMPLE_NAMES
from bot.games.caverna.picture.style import MARK, SPACE_H, SUPPLY_H
from bot.render.targets import Drawn, Target
from engine.caverna.game import GAME
from engine.caverna.view_model import CavernaView
from engine.core.prompts import Label, Option, Prompt
from tests.bot.games.pictures import assert_targets, decoded, opened_prompt

SQUARE_HEADS = ("at", "small", "stable", "lay", "large")


def _open(players: int, seed: int, wanted: Callable[[Any, Prompt], bool]
          ) -> tuple[CavernaView, Prompt]:
    """``opened_prompt`` of this game."""
    view, prompt = opened_prompt(GAME, players, seed, wanted, 4000)
    return view, prompt


def _heads(*heads: str) -> Callable[[Any, Prompt], bool]:
    return lambda _, prompt: any(o.key.split(":")[0] in heads for o in prompt.options)


def _numbered(prompt: Prompt, test: Callable[[str], bool]) -> set[int]:
    return {n for n, o in enumerate(prompt.options, 1) if not o.back and test(o.key)}


def _head(key: str) -> str:
    return key.split(":")[0]


def _marked(drawn: Drawn, plain: Drawn, t: Target) -> bool:
    """Whether the mark colour is inside ``t``'s box because of the prompt."""
    def count(im: Image.Image) -> int:
        colors = im.convert("RGB").crop(t.box).getcolors(maxcolors=1 << 24) or []
        return sum(n for n, c in colors if c == MARK)
    return count(decoded(drawn)) > count(decoded(plain)) + 50


@pytest.fixture(scope="module")
def work() -> tuple[CavernaView, Prompt]:
    return _open(3, 7, _heads("go"))


@pytest.fixture(scope="module")
def squares() -> tuple[CavernaView, Prompt]:
    # With a way back among its options: one that is no place.
    return _open(2, 0, lambda state, p: _heads("at")(state, p) and state.round >= 3
                 and any(o.back for o in p.options))


@pytest.fixture(scope="module")
def twins() -> tuple[CavernaView, Prompt]:
    return _open(4, 5, lambda _, p: any(_head(o.key) in ("lay", "large") and "+" in o.key
                                        for o in p.options))


@pytest.fixture(scope="module")
def furnishing() -> tuple[CavernaView, Prompt]:
    return _open(2, 3, _heads("tile"))


def test_every_action_space_offered_is_a_target_around_the_space(
        work: tuple[CavernaView, Prompt]) -> None:
    view, prompt = work
    drawn = render_caverna(view, SAMPLE_NAMES, "en", prompt)
    places = _numbered(prompt, lambda k: _head(k) in ("go", "copy"))
    assert len(places) >= 3
    assert_targets(drawn, places)
    plain = render_caverna(view, SAMPLE_NAMES, "en", None)
    for t in drawn.targets:
        assert t.box[3] - t.box[1] == SPACE_H  # the whole space, not its badge
        assert _marked(drawn, plain, t)


def test_every_square_offered_is_a_target_the_size_of_the_square(
        squares: tuple[CavernaView, Prompt]) -> None:
    view, prompt = squares
    drawn = render_caverna(view, SAMPLE_NAMES, "ru", prompt)
    places = _numbered(prompt, lambda k: _head(k) in SQUARE_HEADS)
    assert places and places != set(range(1, len(prompt.options) + 1))
    assert_targets(drawn, places)
    cell = board_cell(view.players[prompt.seat])
    plain = render_caverna(view, SAMPLE_NAMES, "ru", None)
    for t in drawn.targets:
        assert (t.box[2] - t.box[0], t.box[3] - t.box[1]) == (cell, cell)
        assert _marked(drawn, plain, t)


def test_two_squares_offered_together_are_one_target_over_both(
        twins: tuple[CavernaView, Prompt]) -> None:
    view, prompt = twins
    drawn = render_caverna(view, SAMPLE_NAMES, "en", prompt)
    pairs = _numbered(prompt, lambda k: _head(k) in ("lay", "large") and "+" in k)
    assert_targets(drawn, _numbered(prompt, lambda k: _head(k) in SQUARE_HEADS))
    cell = board_cell(view.players[prompt.seat], tuple(_offered_squares(prompt)))
    sizes = {t.numbers[0]: (t.box[2] - t.box[0], t.box[3] - t.box[1])
             for t in drawn.targets}
    for n in pairs:
        assert sizes[n] in ((2 * cell, cell), (cell, 2 * cell)), (n, sizes[n])


def _offered_squares(prompt: Prompt) -> list[tuple[int, int]]:
    out = []
    for o in prompt.options:
        if _head(o.key) in SQUARE_HEADS:
            for part in o.key.split(":")[-1].split("+"):
                x, y = part.split(",")
                out.append((int(x), int(y)))
    return out


def test_every_furnishing_tile_offered_is_a_target_around_its_panel(
        furnishing: tuple[CavernaView, Prompt]) -> None:
    view, prompt = furnishing
    drawn = render_caverna(view, SAMPLE_NAMES, "en", prompt)
    places = _numbered(prompt, lambda k: _head(k) == "tile")
    assert len(places) >= 2
    assert_targets(drawn, places)
    plain = render_caverna(view, SAMPLE_NAMES, "en", None)
    for t in drawn.targets:
        assert t.box[3] - t.box[1] == SUPPLY_H
        assert _marked(drawn, plain, t)


def test_without_a_prompt_or_with_one_naming_no_place_nothing_is_a_target(
        work: tuple[CavernaView, Prompt]) -> None:
    view, _ = work
    assert render_caverna(view, SAMPLE_NAMES, "en", None).targets == ()
    # A prompt of goods and animals (feeding, keeping, paying) names no place.
    other, placeless = _open(2, 4, lambda _, p: bool(p.options) and not any(
        _head(o.key) in (*SQUARE_HEADS, "go", "copy", "keep", "tile") for o in p.options))
    assert render_caverna(other, SAMPLE_NAMES, "en", placeless).targets == ()


def test_an_overhang_square_widens_the_board_and_a_square_off_any_board_is_none(
        squares: tuple[CavernaView, Prompt]) -> None:
    """With the Office room a twin tile may overhang the board: the board drawn grows by
    that column, so the target is on the picture; a square no board has is no place."""
    view, prompt = squares
    overhang = Option("lay:meadow_field:-1,0+0,0", Label("x"))
    off = Option("at:9,9", Label("x"))
    asked = Prompt(prompt.seat, prompt.label, (overhang, off, *prompt.options))
    drawn = render_caverna(view, SAMPLE_NAMES, "en", asked)
    places = {1} | {n + 2 for n in _numbered(prompt, lambda k: _head(k) in SQUARE_HEADS)}
    assert_targets(drawn, places)
    cell = board_cell(view.players[prompt.seat], ((-1, 0), (0, 0)))
    assert cell < board_cell(view.players[prompt.seat])
    first = next(t for t in drawn.targets if t.numbers == (1,))
    assert (first.box[2] - first.box[0], first.box[3] - first.box[1]) == (2 * cell, cell)
