"""The Hunters and Gatherers picture's tap targets: each spot a real spot prompt offers
is its cell on the map (and carries its button's number there), each rotation offered
is its turned tile in the panel, each figure button the piece around its number on the
large tile; "back" and "no figure" are no place."""

from __future__ import annotations

import pytest
from PIL import Image

from bot.games.hunters_gatherers.picture import page_layout, render_hunters_gatherers
from bot.games.hunters_gatherers.picture.focus import read_focus
from bot.games.hunters_gatherers.picture.samples import played_view
from bot.games.hunters_gatherers.picture.style import FOCUS_TILE, MARK_EDGE, STRIP_TILE
from engine.core.prompts import Prompt
from engine.hunters_gatherers.view import HuntersGatherersView
from tests.bot.games.pictures import assert_targets, decoded

NAMES = ["Анна", "Bob", "Zoë 🔥"]


def _numbered(prompt: Prompt, head: str) -> set[int]:
    return {n for n, o in enumerate(prompt.options, 1) if o.key.startswith(head)}


@pytest.fixture(scope="module")
def spotting() -> tuple[HuntersGatherersView, Prompt]:
    return played_view(3, 8, "spot", min_tiles=15)


@pytest.fixture(scope="module")
def turning() -> tuple[HuntersGatherersView, Prompt]:
    return played_view(3, 1, "rotation", min_tiles=8)


@pytest.fixture(scope="module")
def figuring() -> tuple[HuntersGatherersView, Prompt]:
    return played_view(2, 13, "figure", min_tiles=20, min_figures=4)


def test_each_spot_offered_is_its_cell_and_is_numbered_there(
        spotting: tuple[HuntersGatherersView, Prompt]) -> None:
    view, prompt = spotting
    drawn = render_hunters_gatherers(view, NAMES, "en", prompt)
    places = _numbered(prompt, "at:")
    assert len(places) >= 5 and places == set(range(1, len(prompt.options) + 1))
    assert_targets(drawn, places)
    layout = page_layout(view, "en", read_focus(prompt, view))
    plain = decoded(render_hunters_gatherers(view, NAMES, "en")).convert("RGB")
    focused = decoded(drawn).convert("RGB")
    by_number = {t.numbers: t.box for t in drawn.targets}
    for n, option in enumerate(prompt.options, 1):
        x, y = option.label.args["x"], option.label.args["y"]
        box = layout.cell_box(x, y)
        assert by_number[(n,)] == box
        # The number's red ring is in the cell's top left quarter, only with the prompt.
        x0, y0, x1, y1 = box
        corner = (x0, y0, (x0 + x1) // 2, (y0 + y1) // 2)
        assert _reds(focused.crop(corner)) > _reds(plain.crop(corner)) + 20


def test_each_rotation_offered_is_its_turned_tile(
        turning: tuple[HuntersGatherersView, Prompt]) -> None:
    view, prompt = turning
    drawn = render_hunters_gatherers(view, NAMES, "ru", prompt)
    places = _numbered(prompt, "rot:")
    assert 2 <= len(places) < len(prompt.options)  # "back" is no place
    assert_targets(drawn, places)
    panel = page_layout(view, "ru", read_focus(prompt, view)).panel
    assert panel is not None
    for t in drawn.targets:
        x0, y0, x1, y1 = t.box
        assert x1 - x0 == STRIP_TILE and y1 - y0 > STRIP_TILE
        assert panel[0] <= x0 and x1 <= panel[2] and panel[1] <= y0 and y1 <= panel[3]
    # In button order, left to right.
    lefts = [t.box[0] for t in sorted(drawn.targets, key=lambda t: t.numbers)]
    assert lefts == sorted(lefts)


def test_each_figure_button_is_the_piece_around_its_number(
        figuring: tuple[HuntersGatherersView, Prompt]) -> None:
    view, prompt = figuring
    drawn = render_hunters_gatherers(view, NAMES, "ru", prompt)
    places = _numbered(prompt, "fig:")
    assert len(places) >= 4 and _numbered(prompt, "none")  # "no figure" is no place
    assert_targets(drawn, places)
    panel = page_layout(view, "ru", read_focus(prompt, view)).panel
    assert panel is not None
    focused = decoded(drawn).convert("RGB")
    for t in drawn.targets:
        x0, y0, x1, y1 = t.box
        assert x1 - x0 <= FOCUS_TILE // 4 and y1 - y0 <= FOCUS_TILE // 4
        assert panel[0] <= x0 and x1 <= panel[2] and panel[1] <= y0 and y1 <= panel[3]
        assert _reds(focused.crop(t.box)) > 20  # the number's ring is inside


def test_without_a_prompt_nothing_is_a_target(
        spotting: tuple[HuntersGatherersView, Prompt],
        figuring: tuple[HuntersGatherersView, Prompt]) -> None:
    for view, _ in (spotting, figuring):
        assert render_hunters_gatherers(view, NAMES, "en").targets == ()
    # A prompt of another step than the view's names no place on it.
    assert render_hunters_gatherers(spotting[0], NAMES, "en", figuring[1]).targets == ()


def _reds(im: Image.Image) -> int:
    """How many pixels of ``im`` have the colour of a mark's ring."""
    colors = im.getcolors(maxcolors=1 << 24) or []
    return sum(n for n, c in colors
               if isinstance(c, tuple) and all(abs(a - b) <= 40
                                               for a, b in zip(c, MARK_EDGE, strict=True)))
