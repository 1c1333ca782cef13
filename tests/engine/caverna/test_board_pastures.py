"""Stables and fences on the home board, and pasture capacities."""

from __future__ import annotations

import pytest

from engine.caverna.animals import holders
from engine.caverna.board import HomeBoard, new_home_board, problems
from engine.caverna.pastures import (
    build_stable,
    fence,
    fence_large,
    fence_small,
    large_pasture_spots,
    parse_pasture_key,
    pasture_key,
    small_pasture_spots,
    stable_spots,
    stables_left,
)
from engine.core.errors import IllegalMove
from tests.engine.caverna.boards import board_with


def four_meadows() -> HomeBoard:
    board = board_with(
        ("meadow", "2,3"),
        ("meadow", "2,2"),
        ("meadow", "1,3"),
        ("meadow", "1,2"),
        ("field", "2,1"),
    )
    return board


def test_stables_go_on_forest_meadows_and_pastures_only() -> None:
    board = four_meadows()
    spots = set(stable_spots(board))
    assert (2, 1) not in spots  # field
    assert (4, 0) not in spots and (3, 2) not in spots  # mountain
    assert {(2, 3), (0, 0), (0, 3)} <= spots  # meadow, bare forest anywhere
    fence_small(board, (2, 3))
    assert (2, 3) in stable_spots(board)


def test_at_most_three_stables_one_per_space() -> None:
    board = four_meadows()
    build_stable(board, (0, 0))
    with pytest.raises(IllegalMove) as twice:
        build_stable(board, (0, 0))
    assert twice.value.code == "stable_not_here"
    build_stable(board, (2, 3))
    build_stable(board, (1, 0))
    assert stables_left(board) == 0 and stable_spots(board) == []
    with pytest.raises(IllegalMove) as fourth:
        build_stable(board, (0, 1))
    assert fourth.value.code == "no_stable_left"
    assert problems(board) == []


def test_a_stable_on_a_bonus_space_counts_as_used_but_gives_nothing() -> None:
    board = new_home_board()
    unused = board.unused_spaces()
    build_stable(board, (2, 0))  # the wild-boar space
    assert board.unused_spaces() == unused - 1


def test_fences_only_on_meadows() -> None:
    board = four_meadows()
    assert set(small_pasture_spots(board)) == {(2, 3), (2, 2), (1, 3), (1, 2)}
    with pytest.raises(IllegalMove):
        fence_small(board, (2, 1))
    with pytest.raises(IllegalMove):
        fence_small(board, (0, 0))
    assert set(large_pasture_spots(board)) == {
        ((1, 2), (1, 3)), ((1, 2), (2, 2)), ((1, 3), (2, 3)), ((2, 2), (2, 3)),
    }
    with pytest.raises(IllegalMove):
        fence_large(board, (1, 2), (2, 3))  # not touching


def test_pastures_are_never_joined_or_refenced() -> None:
    board = four_meadows()
    fence_small(board, (2, 3))
    assert (2, 3) not in small_pasture_spots(board)
    assert all((2, 3) not in pair for pair in large_pasture_spots(board))
    assert fence(board, ((2, 2), (1, 2))) == "large_pasture"
    assert board.at((2, 2)).partner == "1,2" and board.at((1, 2)).partner == "2,2"
    assert board.pastures() == [((1, 2), (2, 2)), ((2, 3),)]
    assert HomeBoard.model_validate_json(board.model_dump_json()) == board


def test_a_stable_stays_when_its_meadow_is_fenced() -> None:
    board = four_meadows()
    build_stable(board, (2, 3))
    fence_small(board, (2, 3))
    assert board.at((2, 3)).stable and board.at((2, 3)).tile == "small_pasture"


def capacity(board: HomeBoard, spaces: str) -> int:
    (holder,) = [h for h in holders(board) if h.id == spaces]
    return holder.capacity


def test_pasture_capacities_double_with_each_stable() -> None:
    board = four_meadows()
    fence_small(board, (1, 3))
    fence_large(board, (2, 2), (2, 3))
    assert capacity(board, "1,3") == 2
    assert capacity(board, "2,2+2,3") == 4
    build_stable(board, (1, 3))
    assert capacity(board, "1,3") == 4
    build_stable(board, (2, 2))
    assert capacity(board, "2,2+2,3") == 8
    build_stable(board, (2, 3))
    assert capacity(board, "2,2+2,3") == 16


def test_pasture_keys() -> None:
    assert pasture_key(((2, 3), (2, 2))) == "2,2+2,3"
    assert parse_pasture_key("2,2+2,3") == ((2, 2), (2, 3))
    assert parse_pasture_key("2,3+2,2") is None
    assert parse_pasture_key("2,3") == ((2, 3),)
    assert parse_pasture_key("x") is None
