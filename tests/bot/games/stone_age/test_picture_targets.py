"""The Stone Age picture's marks and tap targets: every place a real prompt offers
(a gathering site with all its numbers of people, a village place, a card slot, a
building pile) is numbered under itself and is one target, the place with the band its
number stands in; the marks cover nothing of the places; other options are no place."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from PIL import Image, ImageChops

from bot.games.stone_age.picture import (
    CARD_H,
    GAP,
    HEADER_H,
    LOC_H,
    canvas_height,
    render_stone_age,
)
from bot.games.stone_age.picture.marks import MARK_BAND
from bot.games.stone_age.picture.samples import SAMPLE_NAMES
from engine.core.prompts import Label, Option, Prompt
from engine.stone_age.components import GATHERING
from engine.stone_age.game import GAME
from engine.stone_age.view_model import StoneAgeView
from tests.bot.games.pictures import assert_targets, decoded, opened_prompt


def _open(players: int, seed: int, wanted: Callable[[Any, Prompt], bool]
          ) -> tuple[StoneAgeView, Prompt]:
    """``opened_prompt`` of this game."""
    view, prompt = opened_prompt(GAME, players, seed, wanted, 3000)
    return view, prompt


def _place(key: str) -> str | None:
    """The place a key names, as the engine writes its keys (None: no place)."""
    head, _, rest = key.partition(":")
    if head == "place":
        return rest.split(":")[0]
    return rest if head in ("at", "do") else None


def _by_place(prompt: Prompt) -> dict[str, set[int]]:
    out: dict[str, set[int]] = {}
    for n, option in enumerate(prompt.options, 1):
        loc = _place(option.key)
        if loc is not None:
            out.setdefault(loc, set()).add(n)
    return out


@pytest.fixture(scope="module")
def placing() -> tuple[StoneAgeView, Prompt]:
    """A placement where some gathering site offers several numbers of people."""
    return _open(4, 11, lambda _, p: p.label.code == "sa.prompt.place" and any(
        o.key.startswith("place:") and o.key.endswith(":3") for o in p.options))


@pytest.fixture(scope="module")
def acting() -> tuple[StoneAgeView, Prompt]:
    """A choice of the place to resolve next, among two or more."""
    return _open(3, 5, lambda _, p: p.label.code == "sa.prompt.act" and len(p.options) >= 2)


def test_every_place_offered_for_people_is_one_target(
        placing: tuple[StoneAgeView, Prompt]) -> None:
    view, prompt = placing
    drawn = render_stone_age(view, SAMPLE_NAMES, "en", prompt)
    places = _by_place(prompt)
    assert_targets(drawn, {n for numbers in places.values() for n in numbers})
    targets = {t.numbers: t for t in drawn.targets}
    # A site's buttons, one per number of people, are one target: the site.
    sites = [loc for loc in places if loc in GATHERING and len(places[loc]) >= 3]
    assert sites
    for loc in sites:
        assert tuple(sorted(places[loc])) in targets
    # Every place with its band: the places' row, then the cards' and piles'.
    for t in drawn.targets:
        assert t.box[3] - t.box[1] in (LOC_H + MARK_BAND, CARD_H + MARK_BAND), t
    assert any(loc.startswith("card") for loc in places)


def test_the_place_to_resolve_next_is_a_target(acting: tuple[StoneAgeView, Prompt]) -> None:
    view, prompt = acting
    drawn = render_stone_age(view, SAMPLE_NAMES, "ru", prompt)
    places = {n for numbers in _by_place(prompt).values() for n in numbers}
    assert len(places) >= 2
    assert_targets(drawn, places)


def test_the_marks_go_in_bands_and_cover_nothing_of_the_places(
        placing: tuple[StoneAgeView, Prompt]) -> None:
    view, prompt = placing
    plain = render_stone_age(view, SAMPLE_NAMES, "en")
    drawn = render_stone_age(view, SAMPLE_NAMES, "en", prompt)
    players = len(view.players)
    assert plain.height == canvas_height(players)
    assert drawn.height == canvas_height(players, MARK_BAND)
    before, after = decoded(plain).convert("RGB"), decoded(drawn).convert("RGB")
    market_top = HEADER_H + GAP + LOC_H + GAP  # in the plain picture
    for t in drawn.targets:
        x0, y0, x1, y1 = t.box
        shift = 0 if y0 < market_top else MARK_BAND  # the market row moved down
        inside = (x0 + 8, y0 + 8, x1 - 8, y1 - MARK_BAND - 8)  # within the frame
        then = (inside[0], inside[1] - shift, inside[2], inside[3] - shift)
        assert _same(after.crop(inside), before.crop(then)), t
        # The frame and the number are there, and only with the prompt.
        assert not _same(after.crop(t.box), before.crop((x0, y0 - shift, x1, y1 - shift)))


def test_without_a_prompt_or_with_one_naming_no_place_nothing_is_marked(
        placing: tuple[StoneAgeView, Prompt]) -> None:
    view, _ = placing
    plain = render_stone_age(view, SAMPLE_NAMES, "en")
    assert plain.targets == ()
    other, paying = _open(2, 7, lambda _, p: p.label.code.startswith("sa.prompt.pay"))
    assert not _by_place(paying)
    assert render_stone_age(other, SAMPLE_NAMES, "en", paying) == render_stone_age(
        other, SAMPLE_NAMES, "en")
    # Places the view does not have are no place either.
    odd = Prompt(0, Label("sa.prompt.place"), tuple(
        Option(key, Label("x")) for key in ("at:card9", "do:moon", "place:", "at:")))
    assert render_stone_age(other, SAMPLE_NAMES, "en", odd).targets == ()


def _same(a: Image.Image, b: Image.Image) -> bool:
    """Whether two crops show the same: equal but for the few levels by which the
    256-colour palette of two different pictures may round a shade."""
    if a.size != b.size:
        return False
    return max(ImageChops.difference(a, b).tobytes()) <= 4
