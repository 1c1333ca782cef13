"""Animal housing: the rulebook's rules and examples as scenarios, and property tests
against a brute-force search on random boards."""

from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.caverna.animals import (
    BARE_MEADOW,
    KINDS,
    MEADOW_STABLE,
    NO_DOGS,
    PASTURE,
    Holder,
    Housing,
    fits,
    holders,
    house,
    keep_options,
    newborn_options,
    room_for,
)
from engine.caverna.board import HomeBoard, new_home_board
from engine.caverna.pastures import build_stable, fence_large, fence_small
from tests.engine.caverna.boards import board_with, put
from tests.engine.caverna.test_board_random import random_board


def farm() -> HomeBoard:
    """Meadows at (2,3), (2,2), (1,3), (1,2) and a field at (2,1)."""
    board = new_home_board()
    for text in ("2,3", "2,2", "1,3", "1,2"):
        put(board, "meadow", text)
    put(board, "field", "2,1")
    return board


def kept(housing: Housing) -> dict[str, int]:
    return {k: n for k, n in housing.kept.items() if n}


# ----- capacities, one rule each


def test_entry_dwelling_holds_a_pair_of_one_kind() -> None:
    board = new_home_board()
    assert fits(board, {"cattle": 2})
    assert not fits(board, {"cattle": 3})
    assert not fits(board, {"cattle": 1, "sheep": 1})
    assert house(board, {"sheep": 2}).held == {"3,3": {"sheep": 2}}


def test_stable_on_a_meadow_holds_one_animal_of_any_kind() -> None:
    board = farm()
    build_stable(board, (2, 3))
    for kind in KINDS:
        assert room_for(board, {}, kind) == 3  # the stable and the entry dwelling's pair
    assert fits(board, {"cattle": 1, "donkey": 2})


def test_stable_on_bare_forest_holds_one_wild_boar_only() -> None:
    board = new_home_board()
    build_stable(board, (0, 0))
    assert room_for(board, {}, "wild_boar") == 3
    assert room_for(board, {}, "sheep") == 2
    assert fits(board, {"wild_boar": 1, "sheep": 2})


def test_a_donkey_per_mine() -> None:
    board = board_with(
        ("tunnel", "4,3"),
        ("tunnel", "4,2"),
        ("ore_mine_deep_tunnel", "4,3+4,2"),
        ("tunnel", "3,1"),
        ("ruby_mine", "3,1"),
    )
    assert room_for(board, {}, "donkey") == 2 + 2  # ore mine, ruby mine, entry pair
    assert room_for(board, {}, "cattle") == 2       # deep tunnels and mines take none else


def test_pastures_hold_one_kind() -> None:
    board = farm()
    fence_large(board, (2, 2), (2, 3))
    assert room_for(board, {}, "sheep") == 4 + 2
    assert fits(board, {"sheep": 4, "cattle": 2})
    assert not fits(board, {"sheep": 3, "cattle": 1, "donkey": 1, "wild_boar": 1})
    housing = house(board, {"sheep": 3, "cattle": 1})
    assert housing.held["2,2+2,3"] == {"sheep": 3}


def test_pasture_capacities_4_8_16_with_stables() -> None:
    board = farm()
    fence_small(board, (1, 3))
    build_stable(board, (1, 3))
    assert room_for(board, {"cattle": 2}, "sheep") == 4
    fence_large(board, (2, 2), (2, 3))
    build_stable(board, (2, 2))
    assert room_for(board, {"cattle": 2, "sheep": 4}, "donkey") == 8
    build_stable(board, (2, 3))
    assert room_for(board, {"cattle": 2, "sheep": 4}, "donkey") == 16


# ----- dogs


@pytest.mark.parametrize(("dogs", "sheep"), [(0, 0), (1, 2), (2, 3), (3, 4)])
def test_dogs_guard_sheep_on_a_meadow(dogs: int, sheep: int) -> None:
    """The rulebook: 1, 2, 3 dogs guard 2, 3, 4 sheep."""
    board = new_home_board()
    put(board, "meadow", "2,3")
    # The entry dwelling keeps 2 cattle, so only the meadow is left for sheep.
    assert room_for(board, {"cattle": 2, "dog": dogs}, "sheep") == sheep
    if dogs:
        housing = house(board, {"cattle": 2, "sheep": sheep, "dog": dogs})
        assert housing.held["2,3"] == {"sheep": sheep, "dog": dogs}
        assert housing.released == {}


def test_dogs_spread_over_meadows_guard_more() -> None:
    board = farm()
    # Two dogs on two meadows guard 2 + 2 sheep; on one meadow only 3.
    assert room_for(board, {"cattle": 2, "dog": 2}, "sheep") == 4
    assert room_for(board, {"cattle": 2, "dog": 4}, "sheep") == 8


@pytest.mark.parametrize(("fenced", "rooms"), [
    # Stable alone: 1 animal. One dog: 2 sheep (not 2 + 1).
    pytest.param(False, [({"cattle": 2}, 1), ({"cattle": 2, "dog": 1}, 2),
                         ({"cattle": 2, "dog": 3}, 4)], id="the stable does not count"),
    # Fenced with a stable: capacity 4.
    pytest.param(True, [({"cattle": 2, "dog": 3}, 4), ({"cattle": 2, "dog": 4}, 5)],
                 id="the fences do not count"),
])
def test_with_dogs_the_stable_and_the_fences_do_not_count(
    fenced: bool, rooms: list[tuple[dict[str, int], int]],
) -> None:
    board = new_home_board()
    put(board, "meadow", "2,3")
    if fenced:
        fence_small(board, (2, 3))
    build_stable(board, (2, 3))
    for animals, room in rooms:
        assert room_for(board, animals, "sheep") == room


def test_dogs_guard_only_sheep_and_not_on_fields_or_forest() -> None:
    board = farm()
    assert room_for(board, {"sheep": 2, "donkey": 2, "dog": 3}, "cattle") == 0
    bare = new_home_board()
    put(bare, "field", "2,3")
    assert room_for(bare, {"cattle": 2, "dog": 3}, "sheep") == 0


def test_dogs_never_need_room_and_are_never_released() -> None:
    housing = house(new_home_board(), {"dog": 7})
    assert housing.free_dogs == 7 and housing.released == {}


# ----- furnishings that hold animals


def test_breakfast_room_holds_three_cattle() -> None:
    board = new_home_board()
    board.edit((3, 2)).furnishing = "breakfast_room"
    assert room_for(board, {"sheep": 2}, "cattle") == 3
    assert room_for(board, {"cattle": 5}, "sheep") == 0
    assert room_for(board, {"cattle": 3}, "sheep") == 2


def test_cuddle_room_holds_a_sheep_per_dwarf() -> None:
    board = new_home_board()
    board.edit((3, 2)).furnishing = "cuddle_room"
    assert room_for(board, {"cattle": 2}, "sheep", dwarfs=3) == 3
    assert room_for(board, {"cattle": 2}, "sheep", dwarfs=5) == 5


def test_stubble_room_uses_unsown_fields() -> None:
    board = board_with(
        ("field", "2,3"),
        ("field", "1,3"),
    )
    board.edit((3, 2)).furnishing = "stubble_room"
    assert room_for(board, {"cattle": 2}, "donkey") == 2
    field = board.edit((1, 3))
    field.crop, field.crop_count = "grain", 3
    assert room_for(board, {"cattle": 2}, "donkey") == 1
    assert fits(board, {"cattle": 2, "wild_boar": 1})


def test_mixed_dwelling_holds_a_pair() -> None:
    board = new_home_board()
    board.edit((3, 2)).furnishing = "mixed_dwelling"
    assert fits(board, {"cattle": 2, "sheep": 2})
    assert not fits(board, {"cattle": 2, "sheep": 1, "donkey": 1})


# ----- choices


def test_keep_options_offer_each_genuinely_different_choice() -> None:
    board = new_home_board()
    options = keep_options(board, {"sheep": 2, "cattle": 1})
    assert [{k: n for k, n in o.items() if n} for o in options] == [{"sheep": 2}, {"cattle": 1}]
    housing = house(board, {"sheep": 2, "cattle": 1}, keep={"cattle": 1})
    assert housing.released == {"sheep": 2} and kept(housing) == {"cattle": 1}
    assert house(board, {"sheep": 2, "cattle": 1}).released == {"cattle": 1}


def test_one_option_when_everything_fits() -> None:
    board = farm()
    fence_large(board, (2, 2), (2, 3))
    assert keep_options(board, {"sheep": 3, "cattle": 2}) == [
        {"sheep": 3, "donkey": 0, "wild_boar": 0, "cattle": 2}
    ]


def test_same_count_different_kinds_are_both_offered() -> None:
    board = new_home_board()
    options = keep_options(board, {"sheep": 2, "donkey": 2})
    assert len(options) == 2


def test_keeping_more_than_fits_is_refused() -> None:
    with pytest.raises(ValueError):
        house(new_home_board(), {"sheep": 2, "cattle": 2}, keep={"sheep": 2, "cattle": 2})


# ----- breeding


def test_piglet_born_though_parents_live_apart() -> None:
    """The rulebook's example: one boar in the cave, one in a forest stable; the entry
    dwelling has room for a second boar, so a piglet is born."""
    board = new_home_board()
    build_stable(board, (0, 0))
    assert fits(board, {"wild_boar": 2})
    assert newborn_options(board, {"wild_boar": 2}) == [{"wild_boar": 1}]


def test_no_newborn_without_room() -> None:
    board = new_home_board()
    assert newborn_options(board, {"sheep": 2}) == [{}]
    assert newborn_options(board, {"sheep": 1}) == [{}]


def test_newborns_when_room_allows_only_some() -> None:
    board = new_home_board()
    put(board, "meadow", "2,3")
    build_stable(board, (2, 3))     # 1 animal of any kind
    build_stable(board, (0, 0))     # 1 wild boar
    build_stable(board, (0, 1))     # 1 wild boar
    animals = {"wild_boar": 2, "sheep": 2}
    assert fits(board, animals)
    options = newborn_options(board, animals)
    assert options == [{"sheep": 1}, {"wild_boar": 1}]


def test_every_kind_breeds_at_once_with_room() -> None:
    board = farm()
    fence_large(board, (2, 2), (2, 3))
    fence_large(board, (1, 2), (1, 3))
    animals = {"sheep": 2, "cattle": 2, "donkey": 2}
    # Room for two kinds to grow, not three: the player picks.
    options = newborn_options(board, animals)
    assert len(options) == 3 and all(len(o) == 2 for o in options)
    put(board, "meadow", "1,1")
    put(board, "meadow", "1,0")
    fence_large(board, (1, 0), (1, 1))
    assert newborn_options(board, animals) == [{"sheep": 1, "donkey": 1, "cattle": 1}]


# ----- properties against brute force


def _room(holder: Holder, kind: str, dogs: int) -> int:
    if kind not in holder.kinds:
        return 0
    if dogs and kind == "sheep" and holder.dogs != NO_DOGS:
        return max(holder.capacity, dogs + 1) if holder.dogs == PASTURE else dogs + 1
    return holder.capacity


def brute_force(
    found: list[Holder], animals: dict[str, int]
) -> set[tuple[int, ...]]:
    """Every keepable vector no other improves on, by trying every kind per holder and
    every spread of dogs over the meadows and pastures."""
    dogs = animals.get("dog", 0)
    demand = [animals.get(k, 0) for k in KINDS]
    guards = [i for i, h in enumerate(found) if h.dogs != NO_DOGS]
    spreads = [
        s for s in itertools.product(range(dogs + 1), repeat=len(guards)) if sum(s) <= dogs
    ]
    vectors: set[tuple[int, ...]] = set()
    for kinds in itertools.product(*(h.kinds for h in found)):
        for spread in spreads:
            on = dict(zip(guards, spread, strict=True))
            room = dict.fromkeys(KINDS, 0)
            for i, (holder, kind) in enumerate(zip(found, kinds, strict=True)):
                room[kind] += _room(holder, kind, on.get(i, 0))
            vectors.add(tuple(min(d, room[k]) for k, d in zip(KINDS, demand, strict=True)))
    return {
        v for v in vectors
        if not any(o != v and all(a >= b for a, b in zip(o, v, strict=True)) for o in vectors)
    }


animal_counts = st.fixed_dictionaries(
    {k: st.integers(0, 6) for k in KINDS} | {"dog": st.integers(0, 3)}
)


@settings(max_examples=120, deadline=None)
@given(st.integers(0, 2**32 - 1), animal_counts, st.integers(2, 5))
def test_options_match_brute_force(seed: int, animals: dict[str, int], dwarfs: int) -> None:
    board = random_board(random.Random(seed))
    found = holders(board, dwarfs)
    choosers = [h for h in found if len(h.kinds) > 1]
    guards = [h for h in found if h.dogs != NO_DOGS]
    if len(choosers) > 6 or len(guards) > 5:
        return  # too large for the brute force
    expected = brute_force(found, animals)
    got = {tuple(o[k] for k in KINDS) for o in keep_options(board, animals, dwarfs)}
    assert got == expected


def check_housing(board: HomeBoard, animals: dict[str, int], dwarfs: int, h: Housing) -> None:
    """Nothing over capacity, one kind per holder, kinds allowed, totals add up."""
    by_id = {holder.id: holder for holder in holders(board, dwarfs)}
    guarding = 0
    for where, there in h.held.items():
        holder = by_id[where]
        dogs = there.get("dog", 0)
        guarding += dogs
        farm_kinds = [k for k in there if k != "dog"]
        assert len(farm_kinds) <= 1, there
        if dogs:
            assert holder.dogs != NO_DOGS
        for kind in farm_kinds:
            assert there[kind] <= _room(holder, kind, dogs), (where, there)
        if holder.dogs == BARE_MEADOW:
            assert set(farm_kinds) <= {"sheep"}
        if holder.dogs == MEADOW_STABLE and dogs:
            assert set(farm_kinds) <= {"sheep"}
    assert guarding + h.free_dogs == animals.get("dog", 0)
    total = h.kept
    for kind in KINDS:
        assert total[kind] + h.released.get(kind, 0) == animals.get(kind, 0)
    assert fits(board, {**total, "dog": animals.get("dog", 0)}, dwarfs)


@settings(max_examples=100, deadline=None)
@given(
    st.integers(0, 2**32 - 1),
    st.fixed_dictionaries({k: st.integers(0, 12) for k in KINDS} | {"dog": st.integers(0, 6)}),
    st.integers(2, 6),
)
def test_housing_never_exceeds_capacities(
    seed: int, animals: dict[str, int], dwarfs: int
) -> None:
    board = random_board(random.Random(seed))
    best = house(board, animals, dwarfs)
    check_housing(board, animals, dwarfs, best)
    options = keep_options(board, animals, dwarfs)
    assert best.kept == options[0]
    for option in options:
        check_housing(board, animals, dwarfs, house(board, animals, dwarfs, keep=option))
    if best.released:
        assert not fits(board, animals, dwarfs)
    else:
        assert fits(board, animals, dwarfs)


@settings(max_examples=100, deadline=None)
@given(
    st.integers(0, 2**32 - 1),
    st.fixed_dictionaries({k: st.integers(0, 6) for k in KINDS} | {"dog": st.integers(0, 3)}),
)
def test_newborns_always_fit(seed: int, animals: dict[str, int]) -> None:
    board = random_board(random.Random(seed))
    animals = house(board, animals).kept | {"dog": animals["dog"]}
    for born in newborn_options(board, animals):
        assert all(animals[k] >= 2 for k in born)
        assert fits(board, {k: animals.get(k, 0) + born.get(k, 0) for k in animals})
