"""Random home boards grown by legal moves only: the placement rules hold after every
step, and every placement offered can be laid. ``random_board`` also feeds the animal
property tests."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.caverna.board import HomeBoard, new_home_board, problems
from engine.caverna.landscape import lay, placements, rewards
from engine.caverna.pastures import (
    build_stable,
    fence_large,
    fence_small,
    large_pasture_spots,
    small_pasture_spots,
    stable_spots,
)

TILES = (
    "meadow_field", "cavern_tunnel", "cavern_cavern", "ore_mine_deep_tunnel",
    "meadow", "field", "tunnel", "cavern", "ruby_mine",
)
FURNISHINGS = (
    "mixed_dwelling", "breakfast_room", "cuddle_room", "stubble_room", "office_room",
    "work_room", "dwelling",
)


def random_step(board: HomeBoard, rng: random.Random) -> None:
    """One legal change chosen at random (nothing if the chosen kind has no room)."""
    what = rng.choice(("tile", "tile", "tile", "stable", "fence", "furnish", "sow"))
    if what == "tile":
        options = placements(board, rng.choice(TILES))
        if options:
            placement = rng.choice(options)
            expected = rewards(board, placement)
            assert lay(board, placement) == expected
    elif what == "stable":
        spots = stable_spots(board)
        if spots:
            build_stable(board, rng.choice(spots))
    elif what == "fence":
        if rng.random() < 0.5:
            small = small_pasture_spots(board)
            if small:
                fence_small(board, rng.choice(small))
        else:
            large = large_pasture_spots(board)
            if large:
                fence_large(board, *rng.choice(large))
    elif what == "furnish":
        tile = rng.choice(FURNISHINGS)
        if tile != "dwelling" and board.has_furnishing(tile):
            return
        spots = board.empty_caverns(tunnels_too=board.has_furnishing("work_room"))
        if spots:
            board.edit(rng.choice(spots)).furnishing = tile
    else:
        empty = [p for p in board.fields() if board.at(p).crop is None]
        if empty:
            space = board.edit(rng.choice(empty))
            space.crop = rng.choice(("grain", "vegetable"))
            space.crop_count = 3 if space.crop == "grain" else 2


def random_board(rng: random.Random, steps: int | None = None) -> HomeBoard:
    board = new_home_board()
    for _ in range(rng.randrange(40) if steps is None else steps):
        random_step(board, rng)
    return board


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_random_play_keeps_the_placement_rules(seed: int) -> None:
    rng = random.Random(seed)
    board = new_home_board()
    for _ in range(50):
        random_step(board, rng)
        assert problems(board) == [], board.model_dump_json()
    assert len(board.stables) <= 3
    assert HomeBoard.model_validate_json(board.model_dump_json()) == board


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_every_offered_placement_can_be_laid(seed: int) -> None:
    board = random_board(random.Random(seed))
    for tile in TILES:
        for placement in placements(board, tile):
            trial = board.model_copy(deep=True)
            lay(trial, placement)
            assert problems(trial) == []
            assert trial.unused_spaces() <= board.unused_spaces()
