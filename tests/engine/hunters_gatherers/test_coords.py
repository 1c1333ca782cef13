"""Names of map squares: fixed, one name per square and one square per name, read
leniently when typed."""

from __future__ import annotations

import random

import pytest

from engine.hunters_gatherers.coords import column_name, parse_square, row_name, square_name
from engine.hunters_gatherers.game import GAME


def test_the_board_is_a_to_z_by_1_to_26_around_the_start_tile() -> None:
    assert square_name((0, 0)) == "N14"  # the start tile
    assert square_name((-13, -13)) == "A1"  # north-west corner
    assert square_name((12, 12)) == "Z26"  # south-east corner
    assert square_name((1, 0)) == "O14" and square_name((0, 1)) == "N15"  # east, south
    # Beyond the board, names go on: AA… east, 27… south, 0 and -1… north, -A… west.
    assert [column_name(x) for x in (12, 13, 14, 38, 39)] == ["Z", "AA", "AB", "AZ", "BA"]
    assert [column_name(x) for x in (-13, -14, -15, -39, -40)] == ["A", "-A", "-B", "-Z", "-AA"]
    assert [row_name(y) for y in (12, 13, -13, -14, -15)] == ["26", "27", "1", "0", "-1"]


def test_every_square_has_one_name_and_every_name_one_square() -> None:
    names = {}
    for x in range(-120, 121):
        for y in range(-120, 121):
            name = square_name((x, y))
            assert parse_square(name) == (x, y), name
            names[name] = (x, y)
    assert len(names) == 241 * 241


@pytest.mark.parametrize(("typed", "pos"), [
    ("n14", (0, 0)), ("N14", (0, 0)),
    ("Н14", (-6, 0)), ("н14", (-6, 0)), ("H14", (-6, 0)),  # Cyrillic Н is drawn like H
    ("С4", (-11, -10)), ("c4", (-11, -10)), ("-a0", (-14, -14)), ("AA-1", (13, -15)),
])
def test_typed_names_are_read_in_either_case_and_with_look_alike_letters(
        typed: str, pos: tuple[int, int]) -> None:
    assert parse_square(typed) == pos


@pytest.mark.parametrize("typed", [
    "", "N", "14", "N 14", "N014", "N-0", "N+1", "14N", "at:0,0", "Ж14", "ß14", "N1.4",
    "AAAAA1", "N" + "9" * 7, "ы", "None", "a" * 300, "1e9",
])
def test_anything_else_names_no_square(typed: str) -> None:
    assert parse_square(typed) is None


def test_random_games_stay_near_the_board() -> None:
    """Why 26 × 26 around N14: random games rarely leave it (it is no limit, only
    where names stay short); measured here so that the claim cannot rot."""
    outside = 0
    for seed in range(30):
        state = GAME.new(2, seed)
        rnd = random.Random(seed)
        while prompts := GAME.pending(state):
            prompt = prompts[0]
            GAME.apply(state, prompt.seat,
                       rnd.choice([o for o in prompt.options if not o.back]).key)
        outside += sum(1 for t in state.tiles if not -13 <= t.x <= 12 or not -13 <= t.y <= 12)
    assert outside <= 5
