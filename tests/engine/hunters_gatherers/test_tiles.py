from __future__ import annotations

import dataclasses
from collections import Counter

import pytest

from engine.hunters_gatherers.tiles import (
    SIDES,
    all_tiles,
    border_segments,
    iter_segments,
    oriented,
    parse_tile,
    problems,
    rotate,
    rotate_edges,
    rotate_segment,
    start_tile,
    tile,
    tiles_of,
)


def totals(kind: str) -> Counter[str]:
    out: Counter[str] = Counter()
    for t in tiles_of(kind):  # type: ignore[arg-type]
        for animal in ("deer", "mammoth", "aurochs", "tiger"):
            out[animal] += t.animals(animal)
        out["gold"] += t.gold
        out["mushrooms"] += sum(f.mushrooms for f in t.forests)
        out["lakes"] += len(t.lakes)
        out["fish"] += t.fish
        out["springs"] += t.springs
    return +out


def test_counts() -> None:
    assert len(all_tiles()) == 91
    assert len(tiles_of("land")) == 78
    assert len(tiles_of("bonus")) == 12
    assert start_tile().id == "HG001"
    assert [t.id for t in tiles_of("land")] == [f"HG{i:03d}" for i in range(2, 80)]
    assert [t.id for t in tiles_of("bonus")] == [f"HG{i:03d}" for i in range(80, 92)]


def test_totals_match_reference_header() -> None:
    assert totals("land") == Counter(
        deer=30, mammoth=13, tiger=11, gold=29, lakes=23, fish=29, springs=8
    )
    assert totals("start") == Counter(mammoth=1, gold=1, lakes=1, fish=1)
    assert totals("bonus") == Counter(
        deer=3, mammoth=2, aurochs=3, tiger=3, gold=1, mushrooms=3, lakes=7, fish=15, springs=1
    )


def test_bonus_specials() -> None:
    assert tile("HG090").specials == ("shrine",)
    assert tile("HG088").specials == ("fire",)
    assert sorted(t.id for t in tiles_of("bonus") if "aurochs" in t.specials) == [
        "HG084", "HG085", "HG091",
    ]


@pytest.mark.parametrize("turns", [0, 1, 2, 3])
def test_every_tile_is_consistent_in_every_rotation(turns: int) -> None:
    for t in all_tiles().values():
        r = rotate(t, turns)
        assert problems(r) == []
        # every border segment belongs to exactly one feature
        owned = [seg for seg, _, _ in iter_segments(r)]
        assert sorted(owned) == sorted(border_segments(r.edges))
        # a river side is meadow | river | meadow, owned by meadow, river, meadow
        kinds = {seg: kind for seg, kind, _ in iter_segments(r)}
        for side, edge in zip(SIDES, r.edges, strict=True):
            if edge == "R":
                assert (kinds[side + "1"], kinds[side], kinds[side + "2"]) == (
                    "meadow", "river", "meadow",
                )
            else:
                assert kinds[side] == {"F": "forest", "M": "meadow"}[edge]


def test_river_through_tile_separates_its_meadows() -> None:
    for t in all_tiles().values():
        for river in t.rivers:
            if len(river.sides) == 2:
                a, b = river.sides
                for meadow in t.meadows:
                    assert not {a + "1", a + "2"} <= set(meadow.segments), t.id
                    assert not {b + "1", b + "2"} <= set(meadow.segments), t.id


def test_rotation_four_turns_is_identity() -> None:
    for t in all_tiles().values():
        assert rotate(rotate(rotate(rotate(t, 1), 1), 1), 1) == t
        assert rotate(t, 4) == t
        assert oriented(rotate(t, 3), 0) == t


def test_known_tile_after_one_turn() -> None:
    start = start_tile()  # MFFR: meadow N, forest E+S, river W into lake A
    turned = rotate(start, 1)
    assert turned.edges == "RMFF"
    assert turned.rotation == 1
    assert turned.forests[0].segments == ("S", "W")
    assert turned.rivers[0].ends == ("N", "lake:A")
    assert turned.meadows[0].segments == ("E", "N2")  # W2 (north end of W) -> N2 (east end)
    assert turned.meadows[1].segments == ("N1",)
    assert rotate_edges("MFFR", 2) == "FRMF"
    assert rotate_segment("W1", 1) == "N1"
    assert rotate_segment("S2", 3) == "E2"


def test_bad_data_is_rejected() -> None:
    with pytest.raises(ValueError, match="meadow segments"):
        parse_tile("X", {"kind": "land", "edges": "MMMM", "meadows": [[["N", "E", "S"]]]})
    with pytest.raises(ValueError, match="cross"):
        parse_tile(
            "X",
            {
                "kind": "land",
                "edges": "FMFM",
                "forests": [[["N", "S"]]],
                "meadows": [[["E", "W"]]],
            },
        )
    with pytest.raises(ValueError, match="lakes reached"):
        parse_tile(
            "X",
            {
                "kind": "land",
                "edges": "RMMM",
                "rivers": [["N", "spring"]],
                "lakes": {"A": 1},
                "meadows": [[["N1", "N2", "E", "S", "W"]]],
            },
        )
    with pytest.raises(ValueError, match="unknown kind"):
        parse_tile("X", {"kind": "river", "edges": "MMMM", "meadows": [[["N", "E", "S", "W"]]]})


def test_a_tiles_kept_hash_follows_its_contents() -> None:
    # The hash is worked out once, when the tile is made: equal tiles hash alike,
    # whether turned, rebuilt or changed by ``replace``.
    for t in all_tiles().values():
        for k in range(4):
            turned = oriented(t, k)
            rebuilt = dataclasses.replace(turned)
            assert rebuilt == turned and hash(rebuilt) == hash(turned)
    first = tile("HG001")
    moved = dataclasses.replace(first, edges=first.edges[1:] + first.edges[:1])
    assert moved != first and moved._hash != first._hash
    assert {first: 1}[dataclasses.replace(first)] == 1
