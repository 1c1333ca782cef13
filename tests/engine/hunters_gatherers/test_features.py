from __future__ import annotations

import random

import pytest

from engine.hunters_gatherers.features import Feature, Features, segment_owners
from engine.hunters_gatherers.geometry import ORIGIN, facing_segment, neighbour
from engine.hunters_gatherers.tiles import iter_segments, segment_side

from .helpers import BEND, FOREST_END, FOREST_PIPE, LAKE_W, SPRING_E, STRAIGHT, at
from .test_geometry import grow


def test_forest_completes_when_closed() -> None:
    f = Features()
    assert f.place(ORIGIN, at(FOREST_END, 2)) == []  # forest on S, open
    assert f.place((0, 1), at(FOREST_PIPE)) == []  # forest N+S, gold
    forest = f.feature(((0, 1), "forest", 0))
    assert forest.tiles == {ORIGIN, (0, 1)}
    assert forest.open_segments == 1
    assert forest.gold == 1
    done = f.place((0, 2), at(FOREST_END))  # forest on N closes it
    assert done == [f.find((ORIGIN, "forest", 0))]
    forest = f.feature(done[0])
    assert forest.complete and len(forest.tiles) == 3 and forest.gold == 1


def test_river_from_spring_to_lake_completes_with_fish() -> None:
    f = Features()
    assert f.place(ORIGIN, at(SPRING_E)) == []
    done = f.place((1, 0), at(LAKE_W))
    assert len(done) == 1
    river = f.feature(done[0])
    assert river.kind == "river"
    assert river.tiles == {ORIGIN, (1, 0)}
    assert river.springs == 1 and river.fish == 2
    # the meadows on both sides of the river meet round the spring and the lake
    assert f.same((ORIGIN, "meadow", 0), ((1, 0), "meadow", 0))
    assert f.feature((ORIGIN, "meadow", 0)).animals == {"deer": 1, "tiger": 1}


def test_river_border_reverses_segment_order() -> None:
    # Two straight rivers side by side: A.E1 (north) meets B.W2 (north).
    f = Features()
    f.place(ORIGIN, at(STRAIGHT))
    f.place((1, 0), at(STRAIGHT))
    assert f.same((ORIGIN, "meadow", 0), ((1, 0), "meadow", 0))  # north banks
    assert f.same((ORIGIN, "meadow", 1), ((1, 0), "meadow", 1))  # south banks
    assert not f.same((ORIGIN, "meadow", 0), ((1, 0), "meadow", 1))
    assert f.feature((ORIGIN, "meadow", 0)).animals == {"deer": 2}
    # turned half round, the second tile's north bank is its meadow 1
    g = Features()
    g.place(ORIGIN, at(STRAIGHT))
    g.place((1, 0), at(STRAIGHT, 2))
    assert g.same((ORIGIN, "meadow", 0), ((1, 0), "meadow", 1))
    assert g.same((ORIGIN, "river", 0), ((1, 0), "river", 0))
    assert g.feature((ORIGIN, "river", 0)).open_segments == 2


def test_river_loop_completes() -> None:
    f = Features()
    assert f.place((0, 0), at(BEND, 0)) == []  # E, S
    assert f.place((1, 0), at(BEND, 1)) == []  # S, W
    assert f.place((1, 1), at(BEND, 2)) == []  # W, N
    done = f.place((0, 1), at(BEND, 3))  # N, E
    assert len(done) == 1
    loop = f.feature(done[0])
    assert loop.tiles == {(0, 0), (1, 0), (1, 1), (0, 1)}
    assert loop.springs == 0 and loop.fish == 0
    inner = f.feature((ORIGIN, "meadow", 1))
    outer = f.feature((ORIGIN, "meadow", 0))
    assert len(inner.tiles) == 4 and inner.animals == {}
    assert len(outer.tiles) == 4 and outer.animals == {"mammoth": 4}
    assert not f.same((ORIGIN, "meadow", 0), ((1, 1), "meadow", 1))


def test_river_system_joins_through_lakes() -> None:
    # spring -> river -> lake: one system holding the lake's fish, closed at both ends
    f = Features()
    f.place(ORIGIN, at(SPRING_E))
    f.place((1, 0), at(LAKE_W))
    system = f.system((ORIGIN, "river", 0))
    assert system.fish == 2 and system.open_segments == 0 and system.springs == 1
    assert f.system(((1, 0), "lake", 0)) is system


def test_occupied_and_mismatch_are_refused() -> None:
    f = Features()
    f.place(ORIGIN, at(FOREST_END))
    with pytest.raises(ValueError, match="occupied"):
        f.place(ORIGIN, at(FOREST_END))
    with pytest.raises(ValueError, match="meets"):
        f.place((0, -1), at(FOREST_END))  # meadow S against forest N


def recount(f: Features, root: tuple[tuple[int, int], str, int]) -> Feature:
    """Open segments, tiles and pieces of a feature counted directly from the board."""
    kind = root[1]
    out = Feature(kind=kind, pieces=0)
    for pos, placement in f.board.items():
        tile = placement.oriented
        pieces = {"forest": tile.forests, "river": tile.rivers, "meadow": tile.meadows}[kind]
        for i in range(len(pieces)):
            if f.find((pos, kind, i)) == root:
                out.tiles.add(pos)
                out.pieces += 1
        for seg, seg_kind, i in iter_segments(tile):
            if (
                seg_kind == kind
                and f.find((pos, kind, i)) == root
                and neighbour(pos, segment_side(seg)) not in f.board
            ):
                out.open_segments += 1
    return out


@pytest.mark.parametrize("seed", range(3))
def test_random_growth_features_are_consistent(seed: int) -> None:
    board, _ = grow(seed)
    forward = Features.from_board(board)
    items = list(board.items())
    random.Random(seed).shuffle(items)
    shuffled = Features()
    for pos, placement in items:
        shuffled.place(pos, placement)
    for kind in ("forest", "river", "meadow"):
        roots = forward.roots(kind)
        assert len(roots) == len(shuffled.roots(kind))
        for root in roots:
            a, b = forward.feature(root), shuffled.feature(root)
            assert (a.tiles, a.pieces, a.open_segments, a.gold, a.lakes, a.animals) == (
                b.tiles, b.pieces, b.open_segments, b.gold, b.lakes, b.animals,
            )
            direct = recount(forward, root)
            assert (a.open_segments, a.tiles, a.pieces) == (
                direct.open_segments, direct.tiles, direct.pieces)
    # every segment across a shared border joins pieces of the same feature
    for pos, placement in board.items():
        for seg, (kind, i) in segment_owners(placement.oriented).items():
            near = neighbour(pos, segment_side(seg))
            if near in board:
                other = segment_owners(board[near].oriented)
                okind, oi = other[facing_segment(seg)]
                assert okind == kind
                assert forward.same((pos, kind, i), (near, okind, oi))


def totals(f: Features) -> dict[object, tuple[object, ...]]:
    """Every feature's and river system's totals, by the pieces it joins."""
    out: dict[object, tuple[object, ...]] = {}
    for pos, placement in f.board.items():
        tile = placement.oriented
        pieces = [(kind, len(items)) for kind, items in (
            ("forest", tile.forests), ("river", tile.rivers), ("meadow", tile.meadows))]
        for kind, count in pieces:
            for i in range(count):
                a = f.feature((pos, kind, i))
                out[(pos, kind, i)] = (a.tiles, a.pieces, a.open_segments, a.gold,
                                       a.mushrooms, a.springs, a.lakes, a.animals)
        for i in range(len(tile.rivers)):
            s = f.system((pos, "river", i))
            out[(pos, "system", i)] = (s.tiles, s.pieces, s.open_segments, s.springs, s.lakes)
    return out


@pytest.mark.parametrize("seed", range(3))
def test_copies_share_nothing_that_changes(seed: int) -> None:
    # Copies share their totals until one changes: growing either side of a copy must
    # leave the other as it was, and each side must equal a fresh build of its board.
    board, _ = grow(seed)
    items = list(board.items())
    half = len(items) // 2
    original = Features.from_board(dict(items[:half]))
    before = totals(original)
    copied = original.copy()
    for pos, placement in items[half:]:
        original.place(pos, placement)
    assert totals(copied) == before
    assert totals(original) == totals(Features.from_board(board))
    grown = totals(original)
    again = copied.copy()  # the copy, copied in turn, grows while its source stays
    for pos, placement in items[half:]:
        again.place(pos, placement)
    assert totals(again) == grown
    assert totals(copied) == before and totals(original) == grown
