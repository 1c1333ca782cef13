"""Final scoring: the rulebook's 80-point example, every yellow tile, the edge cases,
the pad's rows and the winners."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.caverna.animals import fits
from engine.caverna.board import (
    ENTRANCE,
    ENTRY_DWELLING,
    START_CAVERN,
    HomeBoard,
    Pos,
    key,
    new_home_board,
    problems,
)
from engine.caverna.bonus_tiles import CONDITIONS, COUNTS, bonus_points
from engine.caverna.components import FARM_ANIMALS, components
from engine.caverna.scoring import (
    CANCELLABLE,
    LINES,
    PAD_ROWS,
    SCORE_SHEET,
    PlayerTally,
    pad,
    score,
    winners,
)

NONE = dict.fromkeys(FARM_ANIMALS, 0)
ONE_EACH = dict.fromkeys(FARM_ANIMALS, 1)


def put(board: HomeBoard, pos: Pos, **fields: Any) -> None:
    for name, value in fields.items():
        setattr(board.edit(pos), name, value)


def large_pasture(board: HomeBoard, a: Pos, b: Pos) -> None:
    put(board, a, tile="large_pasture", partner=key(b))
    put(board, b, tile="large_pasture", partner=key(a))


def tally(
    board: HomeBoard | None = None,
    goods: dict[str, int] | None = None,
    animals: dict[str, int] | None = None,
    dwarfs: int = 2,
    armed: int = 0,
    begging: int = 0,
) -> PlayerTally:
    return PlayerTally(
        board=board if board is not None else new_home_board(),
        goods=goods or {},
        animals=ONE_EACH if animals is None else animals,
        dwarfs=dwarfs,
        armed=armed,
        begging=begging,
    )


def furnished(*tiles: tuple[Pos, str]) -> HomeBoard:
    """A new board with caverns at the given positions carrying the given tiles."""
    board = new_home_board()
    for pos, tile in tiles:
        put(board, pos, tile="cavern", furnishing=tile)
    return board


def bonus_of(t: PlayerTally, tile: str) -> int:
    return bonus_points(t)[tile]


# ----- the rulebook's example: 80 points


def rulebook_example() -> PlayerTally:
    """The home board of the rulebook's scoring overview ("briefly on scoring").

    Given there: animals 2 + 4 + 2 + 3 + 10 (dogs, sheep, donkeys, wild boars, cattle),
    none missing; a small and a large pasture; vegetables, rubies and gold 18 together;
    grain 5 points; furnishings 2 + 2 + 2 and two built Dwellings 3 + 3; 3 unused spaces;
    a ruby mine, an ore mine and a ruby mine; the Fodder chamber, 6 for 19 farm animals;
    80 in all. The captions add up to 76: the remaining 4 are the dwarfs (entry-level
    dwelling 2 + the two Dwellings). Which of the 18 are vegetables, rubies or gold, and
    where the grain lies, the text does not say: chosen here.
    """
    board = new_home_board()
    # Forest: fields in front of the entrance, pastures and meadows behind; (0,0) and
    # (0,1) stay bare.
    for pos in ((2, 3), (1, 3), (0, 3)):
        put(board, pos, tile="field")
    put(board, (2, 3), crop="grain", crop_count=2)
    put(board, (1, 3), crop="vegetable", crop_count=2)
    put(board, (2, 2), tile="meadow")                      # 2 dogs guard 3 sheep
    put(board, (1, 2), tile="small_pasture", stable=True)  # 3 wild boars
    put(board, (0, 2), tile="meadow", stable=True)         # 1 sheep
    large_pasture(board, (2, 1), (2, 0))
    put(board, (2, 1), stable=True)                        # 8 cattle
    put(board, (1, 1), tile="meadow")
    put(board, (1, 0), tile="meadow")
    # Mountain: the entry-level dwelling keeps 2 cattle; the mines 2 donkeys; (5,0) bare.
    put(board, START_CAVERN, furnishing="dwelling")
    put(board, (4, 3), tile="cavern", furnishing="dwelling")
    put(board, (5, 3), tile="cavern", furnishing="fodder_chamber")
    put(board, (4, 2), tile="cavern", furnishing="slaughtering_cave")
    put(board, (5, 2), tile="cavern", furnishing="work_room")
    put(board, (3, 1), tile="cavern", furnishing="trader")
    put(board, (4, 1), tile="ore_mine")
    put(board, (4, 0), tile="deep_tunnel")
    put(board, (5, 1), tile="ruby_mine")
    put(board, (3, 0), tile="ruby_mine")
    return PlayerTally(
        board=board,
        goods={"grain": 7, "vegetable": 4, "ruby": 5, "gold": 7, "wood": 3, "food": 2},
        animals={"sheep": 4, "donkey": 2, "wild_boar": 3, "cattle": 10, "dog": 2},
        dwarfs=4,
    )


def test_rulebook_example_is_a_legal_position() -> None:
    t = rulebook_example()
    assert problems(t.board) == []
    assert fits(t.board, dict(t.animals), dwarfs=t.dwarfs)


def test_rulebook_example_category_by_category() -> None:
    s = score(rulebook_example())
    assert s["animals"] == 2 + 4 + 2 + 3 + 10 == 21
    assert s["missing_animals"] == 0
    assert s["pastures"] == 2 + 4
    assert s["vegetables"] + s["rubies"] + s["gold"] == 18
    assert (s["vegetables"], s["rubies"], s["gold"]) == (6, 5, 7)
    assert s["grain"] == 5
    assert s["furnishings"] == (2 + 2 + 2) + (3 + 3)
    assert s["unused_spaces"] == -3
    assert s["mines"] == 4 + 3 + 4
    assert s["bonus"] == 6
    assert bonus_points(rulebook_example()) == {"fodder_chamber": 6}
    assert s["dwarfs"] == 4
    assert s["begging"] == 0
    assert sum(s.values()) == 80


def test_breakdown_follows_the_score_sheet() -> None:
    s = score(rulebook_example())
    assert tuple(s) == SCORE_SHEET
    assert sum(pad(s).values()) == sum(s.values())
    assert pad(s)["tiles"] == 12 + 6 + 11


def test_pad_rows_are_the_score_pad_of_the_tables() -> None:
    rows = [c.id for c in components().tables.scoring.categories]
    assert list(PAD_ROWS) == rows
    flat = [line for lines in PAD_ROWS.values() for line in lines]
    assert tuple(flat) == SCORE_SHEET


# ----- the yellow tiles, one scenario each (wording of the reference's furnishing_tiles)


def test_weaving_parlor_one_per_two_sheep_and_sheep_count_twice() -> None:
    board = furnished(((4, 3), "weaving_parlor"))
    t = tally(board, animals={**ONE_EACH, "sheep": 5})
    assert bonus_of(t, "weaving_parlor") == 2
    assert score(t)["animals"] == 8   # the same sheep on the animal row too


def test_milking_parlor_one_per_cattle() -> None:
    t = tally(furnished(((4, 3), "milking_parlor")), animals={**ONE_EACH, "cattle": 3})
    assert bonus_of(t, "milking_parlor") == 3


def test_state_parlor_four_per_orthogonally_adjacent_dwelling() -> None:
    # (4,3) touches the entry-level dwelling (3,3) and a Dwelling at (4,2); the
    # Dwelling at (5,2) is only diagonal, and (3,2) is an unfurnished cavern.
    board = furnished(
        ((4, 3), "state_parlor"), ((4, 2), "mixed_dwelling"), ((5, 2), "dwelling")
    )
    assert board.at(ENTRANCE).furnishing == ENTRY_DWELLING
    assert bonus_of(tally(board), "state_parlor") == 8


def test_state_parlor_with_four_dwellings_around() -> None:
    board = new_home_board()
    put(board, (4, 2), tile="cavern", furnishing="state_parlor")
    put(board, START_CAVERN, furnishing="dwelling")
    put(board, (5, 2), tile="cavern", furnishing="dwelling")
    put(board, (4, 1), tile="cavern", furnishing="simple_dwelling_3w3s")
    put(board, (4, 3), tile="cavern", furnishing="couple_dwelling")
    assert bonus_of(tally(board), "state_parlor") == 16


def test_stone_storage_one_per_stone() -> None:
    t = tally(furnished(((4, 3), "stone_storage")), goods={"stone": 5})
    assert bonus_of(t, "stone_storage") == 5


def test_ore_storage_one_per_two_ore() -> None:
    t = tally(furnished(((4, 3), "ore_storage")), goods={"ore": 5})
    assert bonus_of(t, "ore_storage") == 2


def test_main_storage_two_per_yellow_tile_itself_included() -> None:
    board = furnished(
        ((4, 3), "main_storage"), ((4, 2), "beer_parlor"), ((5, 3), "writing_chamber"),
        ((5, 2), "dwelling"), ((4, 1), "trader"),
    )
    assert bonus_of(tally(board), "main_storage") == 2 * 3
    assert bonus_of(tally(furnished(((4, 3), "main_storage"))), "main_storage") == 2


def test_weapon_storage_three_per_armed_dwarf() -> None:
    t = tally(furnished(((4, 3), "weapon_storage")), dwarfs=4, armed=3)
    assert bonus_of(t, "weapon_storage") == 9


def test_supplies_storage_eight_if_every_dwarf_is_armed() -> None:
    board = furnished(((4, 3), "supplies_storage"))
    assert bonus_of(tally(board, dwarfs=3, armed=3), "supplies_storage") == 8
    assert bonus_of(tally(board, dwarfs=3, armed=2), "supplies_storage") == 0


def test_broom_chamber_five_for_five_dwarfs_ten_for_six() -> None:
    board = furnished(((4, 3), "broom_chamber"))
    got = {n: bonus_of(tally(board, dwarfs=n), "broom_chamber") for n in range(2, 7)}
    assert got == {2: 0, 3: 0, 4: 0, 5: 5, 6: 10}


def test_treasure_chamber_one_per_ruby_on_top_of_the_ruby_row() -> None:
    t = tally(furnished(((4, 3), "treasure_chamber")), goods={"ruby": 3})
    assert bonus_of(t, "treasure_chamber") == 3
    assert score(t)["rubies"] == 3


def test_food_chamber_two_per_grain_and_vegetable_pair_fields_included() -> None:
    board = furnished(((4, 3), "food_chamber"))
    put(board, (2, 3), tile="field", crop="grain", crop_count=2)
    put(board, (1, 3), tile="field", crop="vegetable", crop_count=1)
    t = tally(board, goods={"grain": 1, "vegetable": 1})
    assert (t.grain, t.vegetables) == (3, 2)
    assert bonus_of(t, "food_chamber") == 4


def test_prayer_chamber_eight_if_no_dwarf_is_armed() -> None:
    board = furnished(((4, 3), "prayer_chamber"))
    assert bonus_of(tally(board, dwarfs=5), "prayer_chamber") == 8
    assert bonus_of(tally(board, dwarfs=5, armed=1), "prayer_chamber") == 0


def test_fodder_chamber_one_per_three_farm_animals_dogs_excluded() -> None:
    t = tally(
        furnished(((4, 3), "fodder_chamber")),
        animals={"sheep": 3, "donkey": 2, "wild_boar": 1, "cattle": 2, "dog": 4},
    )
    assert bonus_of(t, "fodder_chamber") == 2


def nearly_full(board: HomeBoard) -> HomeBoard:
    """``board`` with every space covered but (5,0)."""
    for x in (0, 1, 2):
        for y in range(4):
            put(board, (x, y), tile="meadow")
    for pos in ((4, 2), (5, 3), (5, 2), (3, 1), (4, 1), (5, 1), (3, 0), (4, 0)):
        if board.at(pos).tile is None:
            put(board, pos, tile="tunnel")
    assert board.unused_spaces() == 1
    return board


def test_writing_chamber_cancels_up_to_seven_negative_points() -> None:
    board = furnished(((4, 3), "writing_chamber"))
    t = tally(board, animals=NONE, begging=1)
    # Without it: -8 for the missing kinds; 7 of them are cancelled.
    s = score(t)
    assert (s["missing_animals"], s["unused_spaces"], s["begging"]) == (-1, -21, -3)
    assert "writing_chamber" not in bonus_points(t)
    assert score(tally(new_home_board(), animals=NONE))["missing_animals"] == -8


def test_writing_chamber_reaches_later_rows_in_pad_order() -> None:
    board = nearly_full(furnished(((4, 3), "writing_chamber")))
    s = score(tally(board, animals={**ONE_EACH, "cattle": 0}, begging=2))
    # -2 missing, -1 unused, -6 begging: 7 cancelled in pad order, -2 begging left.
    assert (s["missing_animals"], s["unused_spaces"], s["begging"]) == (0, 0, -2)


def test_writing_chamber_never_makes_a_row_positive() -> None:
    board = nearly_full(furnished(((4, 3), "writing_chamber")))
    s = score(tally(board, animals={**ONE_EACH, "sheep": 0}))
    assert (s["missing_animals"], s["unused_spaces"], s["begging"]) == (0, 0, 0)
    assert s["animals"] == 3


def test_conversion_tiles_score_their_printed_points_only() -> None:
    board = furnished(
        ((4, 3), "hunting_parlor"), ((5, 3), "beer_parlor"), ((4, 2), "blacksmithing_parlor"),
        ((5, 2), "spare_part_storage"),
    )
    t = tally(board)
    assert bonus_points(t) == {}
    assert score(t)["furnishings"] == 1 + 3 + 2 + 0


def test_every_bonus_tile_lists_a_line_even_at_zero() -> None:
    board = furnished(((4, 3), "stone_storage"), ((5, 3), "milking_parlor"))
    t = tally(board, animals=NONE)
    assert bonus_points(t) == {"milking_parlor": 0, "stone_storage": 0}


def test_every_yellow_formula_is_wired() -> None:
    for tile in components().furnishings.values():
        for effect in tile.effects:
            if effect.key != "bonus":
                continue
            assert tile.kind == "yellow", tile.id
            if "condition" in effect.params:
                assert effect.params["condition"] in CONDITIONS, tile.id
            else:
                assert effect.params["per"] in COUNTS, tile.id


def test_bonus_tiles_are_the_references_end_scoring_tiles(reference: dict[str, Any]) -> None:
    ref = {
        t["id"] for t in reference["furnishing_tiles"]["tiles"]
        if "end_scoring" in (t.get("effect") or {})
        and "cancel_negative_points_up_to" not in t["effect"]["end_scoring"]
    }
    ours = {f.id for f in components().furnishings.values() if f.effect("bonus")}
    assert ours == ref


# ----- the plain rows and their edge cases


def test_no_animals_at_all_loses_two_per_kind() -> None:
    s = score(tally(animals={}))
    assert (s["animals"], s["missing_animals"]) == (0, -8)


def test_dogs_score_but_are_no_farm_animal_kind() -> None:
    s = score(tally(animals={"dog": 3}))
    assert (s["animals"], s["missing_animals"]) == (3, -8)
    s = score(tally(animals={"sheep": 2, "cattle": 1}))
    assert (s["animals"], s["missing_animals"]) == (3, -4)


@pytest.mark.parametrize(("grain", "points"), [(0, 0), (1, 1), (2, 1), (3, 2), (10, 5)])
def test_grain_is_half_rounded_up(grain: int, points: int) -> None:
    assert score(tally(goods={"grain": grain}))["grain"] == points


def test_grain_and_vegetables_on_fields_count() -> None:
    board = new_home_board()
    put(board, (2, 3), tile="field", crop="grain", crop_count=3)
    put(board, (1, 3), tile="field", crop="vegetable", crop_count=2)
    s = score(tally(board, goods={"grain": 2, "vegetable": 1}))
    assert (s["grain"], s["vegetables"]) == (3, 3)


def test_new_board_has_22_unused_spaces() -> None:
    assert score(tally())["unused_spaces"] == -22


def test_a_lone_stable_makes_a_forest_space_used() -> None:
    board = new_home_board()
    put(board, (0, 0), stable=True)
    assert score(tally(board))["unused_spaces"] == -21


def test_unfurnished_caverns_and_tunnels_are_used() -> None:
    board = new_home_board()
    put(board, (4, 3), tile="cavern")
    put(board, (5, 3), tile="tunnel")
    put(board, (4, 2), tile="deep_tunnel")
    s = score(tally(board))
    assert s["unused_spaces"] == -19
    assert s["furnishings"] == s["mines"] == 0


def test_a_large_pasture_scores_once_stables_add_nothing() -> None:
    board = new_home_board()
    large_pasture(board, (2, 3), (2, 2))
    put(board, (1, 3), tile="small_pasture", stable=True)
    put(board, (2, 3), stable=True)
    assert score(tally(board))["pastures"] == 4 + 2


def test_gold_and_begging() -> None:
    s = score(tally(goods={"gold": 9}, begging=2))
    assert (s["gold"], s["begging"]) == (9, -6)
    assert pad(s)["gold_begging"] == 3


def test_dwarfs_one_each_armed_or_not() -> None:
    assert score(tally(dwarfs=6, armed=2))["dwarfs"] == 6


def test_the_entry_dwelling_and_ordinary_tiles() -> None:
    board = furnished(((4, 3), "dwelling"), ((5, 3), "couple_dwelling"))
    assert score(tally(board))["furnishings"] == 3 + 5


@pytest.mark.parametrize(
    "bad",
    [
        {"goods": {"gold": -1}},
        {"animals": {"sheep": -1}},
        {"animals": {"horse": 1}},
        {"dwarfs": 2, "armed": 3},
        {"begging": -1},
    ],
)
def test_tally_refuses_impossible_inputs(bad: dict[str, Any]) -> None:
    with pytest.raises(ValueError):
        tally(**bad)


@settings(max_examples=60, deadline=None)
@given(
    goods=st.dictionaries(
        st.sampled_from(["grain", "vegetable", "ruby", "gold", "stone", "ore"]),
        st.integers(0, 20),
    ),
    animals=st.dictionaries(st.sampled_from([*FARM_ANIMALS, "dog"]), st.integers(0, 12)),
    dwarfs=st.integers(1, 6),
    armed=st.integers(0, 6),
    begging=st.integers(0, 5),
    yellow=st.lists(
        st.sampled_from(
            [f.id for f in components().furnishings.values() if f.kind == "yellow"]
        ),
        max_size=5,
        unique=True,
    ),
)
def test_totals_are_the_sum_of_the_breakdown(
    goods: dict[str, int],
    animals: dict[str, int],
    dwarfs: int,
    armed: int,
    begging: int,
    yellow: list[str],
) -> None:
    caverns = [(4, 3), (5, 3), (4, 2), (5, 2), (4, 1)]
    board = furnished(*zip(caverns, yellow, strict=False))
    t = tally(board, goods, animals, dwarfs, min(armed, dwarfs), begging)
    s = score(t)
    assert tuple(s) == SCORE_SHEET
    assert s["bonus"] == sum(bonus_points(t).values())
    assert sum(pad(s).values()) == sum(s.values())
    assert set(bonus_points(t)) <= set(yellow)
    # Only the Writing chamber changes a line after it is counted: it lifts negative
    # rows towards 0, by 7 at most.
    raw = {name: line(t) for name, line in LINES.items()}
    lifted = {name: s[name] - raw[name] for name in SCORE_SHEET}
    for name in SCORE_SHEET:
        if name in CANCELLABLE:
            assert raw[name] <= s[name] <= 0
        else:
            assert lifted[name] == 0
    limit = 7 if "writing_chamber" in yellow else 0
    negative = -sum(min(0, raw[name]) for name in CANCELLABLE)
    assert sum(lifted.values()) == min(limit, negative)


# ----- winners


def test_the_highest_total_wins() -> None:
    assert winners([70, 82, 64]) == [1]


def test_equal_totals_share_the_win() -> None:
    assert winners([80, 75, 80]) == [0, 2]
    assert winners([50, 50]) == [0, 1]
    assert winners([33]) == [0]
    assert winners([]) == []
