"""Laying landscape tiles: the rulebook's placement rules as scenarios."""

from __future__ import annotations

import random

import pytest

from engine.caverna import landscape
from engine.caverna.board import FIRST_FOREST, HomeBoard, new_home_board, problems
from engine.caverna.caverna_game import CAVERNA
from engine.caverna.landscape import (
    SINGLE_TILES,
    TWINS,
    can_place,
    find_placement,
    lay,
    placements,
    rewards,
    ruby_mine_on_deep_tunnel,
    single_placements,
    twin_placements,
)
from engine.caverna.memo import Memo
from engine.caverna.pastures import build_stable
from engine.core.errors import IllegalMove
from tests.engine.caverna.boards import board_with, put


def keys(board: HomeBoard, tile: str, base: str | None = None) -> set[str]:
    return {p.key for p in placements(board, tile, base)}


# ----- forest


def test_first_forest_tile_lies_in_front_of_the_entrance() -> None:
    board = new_home_board()
    assert keys(board, "meadow_field") == {"2,3+1,3", "1,3+2,3", "2,3+2,2", "2,2+2,3"}
    assert keys(board, "meadow") == {"2,3"}
    assert keys(board, "field") == {"2,3"}


def test_later_forest_tiles_touch_a_meadow_field_or_pasture() -> None:
    board = new_home_board()
    put(board, "meadow_field", "2,3+2,2")
    singles = keys(board, "field")
    assert singles == {"1,3", "1,2", "2,1"}
    for placement in twin_placements(board, "meadow_field"):
        touching = {n for p in placement.positions for n in board.neighbours(p)}
        assert touching & {(2, 3), (2, 2)}


def test_no_new_field_beside_a_lone_stable() -> None:
    board = new_home_board()
    build_stable(board, (0, 0))  # bare forest, far from everything: allowed
    assert keys(board, "meadow") == {"2,3"}


def test_twin_slides_under_a_stable_with_its_meadow() -> None:
    board = new_home_board()
    build_stable(board, (2, 2))
    options = keys(board, "meadow_field")
    # The stable's space must get the meadow half.
    assert "2,2+2,3" in options and "2,3+2,2" not in options
    assert "2,3+1,3" in options and "1,3+2,3" in options
    put(board, "meadow_field", "2,2+2,3")
    assert board.at((2, 2)).tile == "meadow" and board.at((2, 2)).stable
    assert "2,2" not in keys(board, "field")


def test_a_single_meadow_slides_under_a_stable_but_a_field_never_does() -> None:
    board = new_home_board()
    put(board, "meadow", "2,3")
    build_stable(board, (1, 3))
    assert "1,3" in keys(board, "meadow")
    assert "1,3" not in keys(board, "field")


def test_the_cliff_keeps_forest_and_mountain_apart() -> None:
    board = new_home_board()
    put(board, "meadow_field", "2,3+2,2")
    # (2,2) is beside (3,2), the starting cavern, across the cliff: no link there.
    assert (3, 2) not in board.neighbours((2, 2))
    for placement in twin_placements(board, "cavern_tunnel"):
        assert all(x >= 3 for x, _ in placement.positions)


def test_full_forest_takes_no_more_twins() -> None:
    board = new_home_board()
    for y in range(4):
        for x in range(3):
            board.edit((x, y)).tile = "meadow"
    assert twin_placements(board, "meadow_field") == []
    assert single_placements(board, "field") == []


# ----- mountain


def test_mountain_tiles_continue_the_cave() -> None:
    board = new_home_board()
    options = twin_placements(board, "cavern_tunnel")
    assert options
    for placement in options:
        near = {n for p in placement.positions for n in board.neighbours(p)}
        assert near & {(3, 2), (3, 3)}
    assert keys(board, "tunnel") == {"3,1", "4,2", "4,3"}
    assert keys(board, "cavern") == {"3,1", "4,2", "4,3"}


def test_cavern_cavern_is_offered_once_per_pair() -> None:
    board = new_home_board()
    pairs = [frozenset(p.positions) for p in twin_placements(board, "cavern_cavern")]
    assert len(pairs) == len(set(pairs))
    assert len(twin_placements(board, "cavern_tunnel")) == 2 * len(pairs)


def test_ore_mine_goes_on_two_ordinary_tunnels() -> None:
    board = new_home_board()
    put(board, "cavern_tunnel", "3,1+4,1")  # cavern at (3,1), tunnel at (4,1)
    assert twin_placements(board, "ore_mine_deep_tunnel") == []
    put(board, "tunnel", "4,2")
    assert keys(board, "ore_mine_deep_tunnel") == {"4,1+4,2", "4,2+4,1"}
    put(board, "ore_mine_deep_tunnel", "4,2+4,1")
    assert board.at((4, 2)).tile == "ore_mine" and board.at((4, 1)).tile == "deep_tunnel"
    # Deep tunnels never take another ore mine twin.
    put(board, "tunnel", "5,1")
    assert twin_placements(board, "ore_mine_deep_tunnel") == []


def test_ore_mine_needs_touching_tunnels() -> None:
    board = board_with(
        ("tunnel", "4,3"),
        ("tunnel", "3,1"),
    )
    assert twin_placements(board, "ore_mine_deep_tunnel") == []


def test_ruby_mine_on_a_tunnel_or_a_deep_tunnel() -> None:
    board = board_with(
        ("tunnel", "4,3"),
        ("tunnel", "4,2"),
        ("ore_mine_deep_tunnel", "4,2+4,3"),
        ("tunnel", "3,1"),
    )
    assert keys(board, "ruby_mine") == {"3,1", "4,3"}
    assert keys(board, "ruby_mine", base="deep_tunnel") == {"4,3"}
    assert keys(board, "ruby_mine", base="tunnel") == {"3,1"}
    deep = find_placement(board, "ruby_mine", "4,3")
    assert ruby_mine_on_deep_tunnel(board, deep)
    assert not ruby_mine_on_deep_tunnel(board, find_placement(board, "ruby_mine", "3,1"))
    lay(board, deep)
    assert board.at((4, 3)).tile == "ruby_mine"


def test_furnished_tunnels_stay_tunnels() -> None:
    board = board_with(
        ("tunnel", "4,3"),
        ("tunnel", "4,2"),
    )
    board.edit((4, 2)).furnishing = "work_room"  # as if furnished with the Work room's rule
    assert keys(board, "ruby_mine") == {"4,3"}
    assert twin_placements(board, "ore_mine_deep_tunnel") == []


# ----- bonus spaces


def test_bonus_spaces_reward_the_first_tile() -> None:
    board = new_home_board()
    assert put(board, "meadow_field", "2,3+1,3") == {"food": 1}  # the small river
    assert put(board, "meadow_field", "2,2+2,1") == {}
    assert put(board, "meadow", "2,0") == {"wild_boar": 1}
    assert put(board, "cavern_tunnel", "4,3+5,3") == {"food": 1}
    put(board, "tunnel", "5,2")
    put(board, "tunnel", "5,1")
    assert put(board, "cavern", "5,0") == {"food": 2}


def test_a_stable_on_a_bonus_space_gives_nothing_until_a_tile_covers_it() -> None:
    board = new_home_board()
    build_stable(board, (0, 2))
    put(board, "meadow_field", "2,3+2,2")
    put(board, "meadow_field", "1,2+1,1")
    assert put(board, "meadow", "0,2") == {"wild_boar": 1}
    assert board.at((0, 2)).stable


def test_covering_a_tile_again_gives_no_bonus() -> None:
    board = new_home_board()
    put(board, "tunnel", "4,3")   # water source: 1 food here
    put(board, "tunnel", "4,2")
    placement = find_placement(board, "ore_mine_deep_tunnel", "4,3+4,2")
    assert rewards(board, placement) == {}


# ----- keys and refusals


def test_refused_placements_change_nothing() -> None:
    board = new_home_board()
    before = board.model_dump_json()
    with pytest.raises(IllegalMove) as refused:
        find_placement(board, "meadow_field", "0,0+0,1")
    assert refused.value.code == "tile_not_here"
    bad = twin_placements(board, "cavern_tunnel")[0]
    put(board, "cavern_tunnel", bad.key)
    with pytest.raises(IllegalMove):
        lay(board, bad)  # the spaces are covered now
    assert board.model_dump_json() != before
    assert problems(board) == []


# ----- the Office room


def test_office_room_lets_a_twin_overhang_for_two_gold() -> None:
    board = new_home_board()
    assert all(not p.overhangs for p in twin_placements(board, "meadow_field"))
    board.edit((3, 2)).furnishing = "office_room"
    options = keys(board, "meadow_field")
    assert "2,3+2,4" in options and "2,4+2,3" in options
    assert put(board, "meadow_field", "2,3+2,4") == {"gold": 2}
    assert board.at((2, 4)).tile == "field"
    assert (2, 4) in board.positions()
    # A later twin may hang off another edge; a single tile never overhangs.
    assert all(x >= 0 and 0 <= y < 4 for p in single_placements(board, "meadow")
               for x, y in p.positions)
    # Both halves off the board never.
    for placement in twin_placements(board, "meadow_field"):
        assert sum(1 for x, y in placement.positions if not (0 <= x < 6 and 0 <= y < 4)) <= 1
    assert problems(board) == []
    assert HomeBoard.model_validate_json(board.model_dump_json()) == board


def test_overhang_spaces_count_for_adjacency() -> None:
    board = new_home_board()
    board.edit((3, 2)).furnishing = "office_room"
    put(board, "meadow_field", "2,4+2,3")  # meadow off the board below
    assert "1,4" not in keys(board, "meadow")  # singles never make new overhang spaces
    assert "3,4" not in keys(board, "meadow")
    assert FIRST_FOREST in [p for p, s in board.items() if s.tile]


def test_memoised_placements_follow_a_board_changed_in_place() -> None:
    """``placements`` is memoised by the board's signature: asked again after each tile
    laid on the same board object, it gives a fresh search's answer."""
    board = new_home_board()
    for tile, spot in [("meadow_field", "2,3+2,2"), ("cavern_tunnel", "4,3+4,2"),
                       ("meadow", "1,3"), ("field", "1,2")]:
        for kind in ("meadow_field", "cavern_tunnel", "cavern_cavern"):
            assert placements(board, kind) == twin_placements(board, kind)
        for kind in ("meadow", "field", "cavern", "tunnel"):
            assert placements(board, kind) == single_placements(board, kind)
        put(board, tile, spot)
        assert placements(board, tile) == (
            twin_placements(board, tile) if "_" in tile else single_placements(board, tile))


def test_can_place_says_whether_there_is_a_placement(monkeypatch: pytest.MonkeyPatch) -> None:
    """``can_place`` stops at the first placement, or reads the list when it is known:
    over the boards of random games, both agree with the full list for every tile, and
    both answers come up."""
    answers: set[bool] = set()
    for seed in range(4):
        agent = random.Random(seed)
        state = CAVERNA.new(2, seed)
        while prompts := CAVERNA.pending(state):
            prompt = agent.choice(prompts)
            CAVERNA.apply(state, prompt.seat, agent.choice(prompt.options).key)
            board = state.players[prompt.seat].board
            for tile in (*TWINS, *SINGLE_TILES):
                for base in ((None, "tunnel", "deep_tunnel") if tile == "ruby_mine" else (None,)):
                    with monkeypatch.context() as fresh:  # nothing known: the first found
                        fresh.setattr(landscape, "_PLACEMENTS", Memo())
                        fresh.setattr(landscape, "_PLACEABLE", Memo())
                        answer = can_place(board, tile, base)
                        assert answer == bool(placements(board, tile, base)), (tile, base)
                        assert can_place(board, tile, base) == answer  # read off the list
                    answers.add(answer)
    assert answers == {True, False}
