from __future__ import annotations

import itertools
import random

import pytest

from engine.hunters_gatherers.geometry import (
    ORIGIN,
    Placement,
    Pos,
    facing_segment,
    fits,
    fitting,
    frontier,
    is_connected,
    legal_placements,
    mismatches,
    neighbour,
    neighbours,
    opposite,
    rotations_fitting,
)
from engine.hunters_gatherers.tiles import oriented, rotate_edges, start_tile, tiles_of

from .helpers import ALL_MEADOW, BEND, FOREST_END, FOREST_PIPE, STRAIGHT, at


def test_neighbours_and_opposites() -> None:
    assert neighbour((0, 0), "N") == (0, -1)
    assert neighbour((0, 0), "S") == (0, 1)
    assert neighbour((2, 5), "E") == (3, 5)
    assert neighbour((2, 5), "W") == (1, 5)
    assert [p for _, p in neighbours((0, 0))] == [(0, -1), (1, 0), (0, 1), (-1, 0)]
    assert [opposite(s) for s in "NESW"] == ["S", "W", "N", "E"]


def test_facing_segment_reverses_clockwise_order() -> None:
    assert facing_segment("N1") == "S2"
    assert facing_segment("N") == "S"
    assert facing_segment("N2") == "S1"
    assert facing_segment("E1") == "W2"
    assert facing_segment("W2") == "E1"
    for seg in ("N1", "E", "S2", "W1"):
        assert facing_segment(facing_segment(seg)) == seg


def test_river_segments_meet_geometrically() -> None:
    # N1 is the west end of the north side; it touches the west end of the south
    # side of the tile above, which is S2 (S runs east -> west).
    assert facing_segment("N1") == "S2"
    # E1 is the north end of the east side; W runs south -> north, so its north end is W2.
    assert facing_segment("E1") == "W2"


def test_fits_forest_against_forest_and_meadow() -> None:
    board = {ORIGIN: at(FOREST_END)}  # forest on N
    assert fits(board, FOREST_END, (0, -1), 2)  # turned: forest on S faces our N
    assert not fits(board, FOREST_END, (0, -1), 0)  # meadow S against forest N
    assert fits(board, ALL_MEADOW, (1, 0), 0)  # meadow E against meadow W
    assert not fits(board, ALL_MEADOW, (0, -1), 0)


def test_fits_requires_adjacency_and_an_empty_cell() -> None:
    board = {ORIGIN: at(ALL_MEADOW)}
    assert not fits(board, ALL_MEADOW, (1, 1), 0)  # diagonal only
    assert not fits(board, ALL_MEADOW, (5, 0), 0)
    assert not fits(board, ALL_MEADOW, ORIGIN, 0)  # occupied
    assert not fits({}, ALL_MEADOW, ORIGIN, 0)


def test_fits_river_alignment() -> None:
    board = {ORIGIN: at(STRAIGHT)}  # river W-E
    assert fits(board, STRAIGHT, (1, 0), 0)
    assert fits(board, STRAIGHT, (1, 0), 2)
    assert not fits(board, STRAIGHT, (1, 0), 1)  # meadow W against river E
    assert fits(board, STRAIGHT, (0, 1), 0)  # meadow N against meadow S
    assert not fits(board, STRAIGHT, (0, 1), 1)  # river N against meadow S
    assert fits(board, BEND, (1, 0), 1)  # bend turned: river on S and W
    assert not fits(board, BEND, (1, 0), 0)  # bend: meadow on W


def test_fits_every_touching_side() -> None:
    # Cell (1,1) touches (1,0) from the north and (0,1) from the west.
    board = {ORIGIN: at(ALL_MEADOW), (1, 0): at(FOREST_END, 2), (0, 1): at(ALL_MEADOW)}
    # needs forest on N, meadow on W
    assert [r for (p, r) in legal_placements(board, FOREST_END) if p == (1, 1)] == [0]
    assert fits(board, FOREST_END, (1, 1), 0)
    assert not fits(board, FOREST_END, (1, 1), 3)  # forest on W against meadow
    assert [r for (p, r) in legal_placements(board, ALL_MEADOW) if p == (1, 1)] == []
    assert [r for (p, r) in legal_placements(board, FOREST_PIPE) if p == (1, 1)] == [0, 2]


def test_legal_placements_match_brute_force_on_start() -> None:
    board = {ORIGIN: Placement(start_tile(), 0)}
    assert frontier(board) == [(0, -1), (-1, 0), (1, 0), (0, 1)]
    for tile in (*tiles_of("land"), BEND, STRAIGHT):
        brute = [
            ((x, y), r)
            for y in range(-2, 3)
            for x in range(-2, 3)
            for r in range(4)
            if fits(board, tile, (x, y), r)
        ]
        assert legal_placements(board, tile) == brute


def test_fitting_looks_up_what_rotations_fitting_works_out() -> None:
    needs = ["".join(sides) for sides in itertools.product(".FMR", repeat=4)]
    for tile in (*tiles_of("land"), start_tile()):
        table = fitting(tile.edges)
        assert table is fitting(tile.edges)  # one table per edge code
        for need in needs:
            assert table[need] == rotations_fitting(need, tile.edges)
        assert len(table) == len(needs) and set(table) == set(needs)


def grow(seed: int) -> tuple[dict[Pos, Placement], int]:
    rng = random.Random(seed)
    deck = list(tiles_of("land"))
    rng.shuffle(deck)
    board: dict[Pos, Placement] = {ORIGIN: Placement(start_tile(), 0)}
    discarded = 0
    for tile in deck:
        options = legal_placements(board, tile)
        if not options:
            discarded += 1
            continue
        pos, rotation = rng.choice(options)
        assert fits(board, tile, pos, rotation)
        board[pos] = Placement(tile, rotation)
    return board, discarded


@pytest.mark.parametrize("seed", range(6))
def test_random_growth_keeps_the_map_sound(seed: int) -> None:
    board, discarded = grow(seed)
    assert len(board) + discarded == 79
    assert mismatches(board) == []
    assert is_connected(board)
    # each placement left exactly one occurrence of each tile
    assert len({p.tile.id for p in board.values()}) == len(board)


def test_invariant_checks_detect_faults() -> None:
    bad = {ORIGIN: at(FOREST_END), (0, -1): at(ALL_MEADOW)}
    assert mismatches(bad) == [(ORIGIN, "N"), ((0, -1), "S")]
    assert not is_connected({ORIGIN: at(ALL_MEADOW), (2, 0): at(ALL_MEADOW)})


def test_a_placement_works_out_its_edges_and_turned_tile_once() -> None:
    for t in tiles_of("land")[:10]:
        for k in range(4):
            placed = Placement(t, k)
            assert placed.edges == rotate_edges(t.edges, k)
            assert placed.oriented == oriented(t, k)
            assert placed == Placement(t, k) and hash(placed) == hash(Placement(t, k))
    assert Placement(start_tile(), 0) != Placement(start_tile(), 1)
