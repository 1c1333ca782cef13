"""Tap targets: what a target may be, how a drawn box becomes pixels, how marks write
their numbers, and the finished picture."""

from __future__ import annotations

import pytest
from PIL import Image

from bot.render.targets import Drawn, Target, finished, numbers_text, target
from tests.bot.games.pictures import decoded


def test_a_target_stands_for_rising_option_numbers_over_a_box_with_an_area() -> None:
    assert Target((2, 5), (0, 0, 1, 1)).numbers == (2, 5)
    for numbers in [(), (0,), (-1, 2), (3, 2), (2, 2)]:
        with pytest.raises(ValueError):
            Target(numbers, (0, 0, 10, 10))
    for box in [(5, 0, 5, 10), (0, 7, 10, 7), (10, 0, 0, 10), (0, 10, 10, 0)]:
        with pytest.raises(ValueError):
            Target((1,), box)


def test_a_drawn_box_becomes_every_pixel_it_touches() -> None:
    assert target([3], (10.4, 20.0, 30.2, 40.9)).box == (10, 20, 31, 41)
    assert target([3], (10, 20, 30, 40)).box == (10, 20, 30, 40)
    assert target((4, 1, 4), (0, 0, 2, 2)).numbers == (1, 4)


def test_numbers_are_written_short() -> None:
    assert numbers_text([3]) == "3"
    assert numbers_text([4, 3]) == "3,4"
    assert numbers_text([6, 3, 5, 4]) == "3–6"
    assert numbers_text([1, 2, 5]) == "1,2,5"


def test_the_finished_picture_is_its_png_with_its_size_and_targets() -> None:
    image = Image.new("RGB", (40, 30), (200, 10, 10))
    marked = (Target((1,), (0, 0, 10, 10)), Target((2, 3), (10, 0, 40, 30)))
    drawn = finished(image, marked)
    assert (drawn.width, drawn.height, drawn.targets) == (40, 30, marked)
    shown = decoded(drawn).convert("RGB")
    assert shown.getpixel((20, 15)) == (200, 10, 10)
    assert finished(image) == Drawn(drawn.png, 40, 30)  # the same bytes, no targets
