"""Caverna component tables: counts, validation, sample values, and a cross-check
against the reference sheet when ../shared is present."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import ValidationError

from engine.caverna.components import (
    TWINS,
    ActionSpace,
    Effect,
    Furnishing,
    Part,
    components,
    parse_components,
    read_data,
)


def test_counts() -> None:
    c = components()
    assert len(c.furnishings) == 48
    kinds = [f.kind for f in c.furnishings.values()]
    assert kinds.count("dwelling") == 6
    assert kinds.count("green") == 24
    assert kinds.count("yellow") == 18
    for block in (1, 2, 3, 4):
        assert sum(1 for f in c.furnishings.values() if f.block == block) == 12
    assert c.furnishings["dwelling"].count is None
    assert all(f.count == 1 for f in c.furnishings.values() if f.id != "dwelling")
    # 12 cards plus the back of the round-4 card.
    assert len(c.round_cards) == 13
    assert len(c.tables.loot) == 23


@pytest.mark.parametrize(
    ("players", "spaces"), [(1, 8), (2, 12), (3, 15), (4, 13), (5, 19), (6, 19), (7, 22)]
)
def test_spaces_per_player_count(players: int, spaces: int) -> None:
    assert len(components().spaces_for(players)) == spaces


def test_solo_covers_four_spaces() -> None:
    solo = components().spaces_for(1)
    for covered in ("drift_mining_1_3", "starting_player_1_3", "supplies", "clearing_1_3"):
        assert covered not in solo


def test_imitation_costs_by_player_count() -> None:
    c = components()
    costs = {
        n: sorted(c.spaces[s].imitation or 0 for s in c.spaces_for(n) if c.spaces[s].is_imitation)
        for n in range(1, 8)
    }
    assert costs == {1: [], 2: [], 3: [4], 4: [2], 5: [2, 4], 6: [1, 2], 7: [0, 1, 2]}


def test_round_cards_by_stage() -> None:
    c = components()
    four = c.cards_by_stage(4)
    assert {stage: len(cards) for stage, cards in four.items()} == {1: 3, 2: 3, 3: 3, 4: 3}
    assert "exploration" not in c.cards_by_stage(2)[3]
    assert "exploration" not in c.cards_by_stage(1)[3]
    assert c.fixed_round_cards() == {4: "wish_for_children"}
    wish = c.round_cards["wish_for_children"]
    assert wish.back == "urgent_wish_for_children"
    assert wish.flips_when == "family_life"
    assert c.round_cards["urgent_wish_for_children"].side_b
    order = c.solo_card_order
    assert len(order) == 12 and order[8] is None
    assert order[0] == "blacksmithing" and order[11] == "ruby_delivery"


def test_accumulation_x_of_y() -> None:
    c = components()
    logging = c.spaces["logging_1_3"]
    assert logging.refill(empty=True) == {"wood": 3}
    assert logging.refill(empty=False) == {"wood": 1}
    assert c.spaces["logging_4_7"].refill(empty=False) == {"wood": 3}
    sustenance = c.spaces["sustenance_4_7"]
    assert sustenance.refill(empty=True) == {"grain": 1}
    assert sustenance.refill(empty=False) == {"vegetable": 1}
    strip = c.spaces["strip_mining"]
    assert strip.refill(empty=True) == {"ore": 1}
    assert strip.refill(empty=False) == {"stone": 1}
    depot = c.spaces["large_depot"]
    assert depot.refill(empty=False) == {"wood": 1, "ore": 1, "stone": 1}
    ruby = c.spaces["ruby_mining"]
    assert not ruby.refills_in(2, players=2) and ruby.refills_in(3, players=2)
    assert ruby.refills_in(1, players=1) and ruby.refills_in(1, players=4)


def test_sample_furnishings() -> None:
    f = components().furnishings
    assert f["dwelling"].cost == {"wood": 4, "stone": 3} and f["dwelling"].points == 3
    assert f["couple_dwelling"].dwarf_room == 2
    assert f["state_parlor"].cost == {"gold": 5, "stone": 3}
    assert f["dog_school"].cost == {}
    assert f["breakfast_room"].name.ru == "Столовая"
    assert f["breakfast_room"].name.ru_from == "rulebook"
    holds = f["breakfast_room"].effect("holds")
    assert holds is not None and holds.params == {"capacity": 3, "kinds": ["cattle"]}
    breeding = f["breeding_cave"].effect("breed_bonus")
    assert breeding is not None and breeding.params["food_by_newborns"][4] == 5
    additional = f["additional_dwelling"].effect("room")
    assert additional is not None and additional.params["sixth_only"]
    assert components().dwellings() == [
        "dwelling", "simple_dwelling_4w2s", "simple_dwelling_3w3s", "mixed_dwelling",
        "couple_dwelling", "additional_dwelling",
    ]


def test_every_name_in_both_languages() -> None:
    c = components()
    for item in [*c.furnishings.values(), *c.spaces.values(), *c.round_cards.values()]:
        assert item.name.ru and item.name.en


def test_tables() -> None:
    t = components().tables
    assert t.food_for_gold(1) == 0 and t.food_for_gold(4) == 3 and t.food_for_gold(10) == 9
    assert t.setup.food_by_seat[3] == 2 and t.setup.food_solo == 2
    assert t.rounds.numbers(2) == [1, 2, 3, 4, 5, 6, 7, 8, 10, 11, 12]
    assert len(t.rounds.numbers(5)) == 12
    two = t.harvest.markers_for(2)
    assert two is not None and two.green == 3 and 9 not in two.rounds
    seven = t.harvest.markers_for(7)
    assert seven is not None and (seven.green, seven.red) == (4, 3)
    assert t.harvest.markers_for(1) is None
    assert t.harvest.solo_clear_at == 6
    strengths = {item.id: item.strength for item in t.loot}
    assert strengths["meadow"] == 11 and strengths["furnish"] == 7 and strengths["breed"] == 14
    assert 13 not in strengths.values()
    assert t.home_board.pasture_capacity == {"small_pasture": 2, "large_pasture": 4}
    assert t.scoring.categories[0].id == "animals"


def test_unknown_effect_or_part_is_refused() -> None:
    with pytest.raises(ValidationError):
        Effect.model_validate({"key": "teleport"})
    with pytest.raises(ValidationError):
        Part.model_validate({"twin": "meadow_cavern"})
    with pytest.raises(ValidationError):
        Part.model_validate({"gain": {"diamonds": 1}})
    with pytest.raises(ValidationError):
        Furnishing.model_validate(
            {"id": "x", "kind": "green", "block": 5, "name": {"ru": "x", "en": "x"},
             "cost": {}, "points": 0}
        )
    with pytest.raises(ValidationError):
        ActionSpace.model_validate(
            {"id": "x", "name": {"ru": "x", "en": "x"}, "connective": "maybe", "options": []}
        )


def test_a_board_naming_a_missing_space_is_refused() -> None:
    actions = read_data("action_spaces.yaml")
    actions["boards"]["common"] = [*actions["boards"]["common"], "no_such_space"]
    with pytest.raises(ValidationError):
        parse_components(read_data("furnishings.yaml"), actions, read_data("tables.yaml"))


def test_twins_are_pairs_of_tiles() -> None:
    assert TWINS["ore_mine_deep_tunnel"] == ("ore_mine", "deep_tunnel")


# ----- cross-check against ../shared/reference/caverna.yaml (absent in CI)


def test_furnishings_match_the_reference(reference: dict[str, Any]) -> None:
    ours = components().furnishings
    tiles = reference["furnishing_tiles"]["tiles"]
    assert len(tiles) == reference["furnishing_tiles"]["count_kinds"] == len(ours)
    kind = {"dwelling": "dwelling", "special": "green", "bonus": "yellow"}
    for tile in tiles:
        mine = ours[tile["id"]]
        assert mine.cost == tile["cost"], tile["id"]
        assert mine.points == (0 if tile["vp"] == "*" else tile["vp"]), tile["id"]
        assert mine.kind == kind[tile["category"]], tile["id"]
        assert mine.block == tile["supply_block"], tile["id"]
        assert mine.name.en == tile["name_en"], tile["id"]
        assert mine.bga_beginner == tile["bga_beginner"], tile["id"]


def _accrual(value: Any) -> tuple[int, int]:
    if isinstance(value, int):
        return value, value
    if isinstance(value, dict):
        return value["if_empty"], value["otherwise"]
    first, rest = str(value).split("(")
    return int(first), int(rest.rstrip(")"))


def test_action_spaces_match_the_reference(reference: dict[str, Any]) -> None:
    c = components()
    ref = reference["action_spaces"]
    boards = ref["boards"]
    names = {"additional_3": "extra_3", "additional_5": "extra_5",
             "additional_6_7": "extra_6_7", "additional_7": "extra_7",
             "common_all_counts": "common"}
    for board, ids in boards.items():
        if board == "agree":
            continue
        assert list(c.boards[names.get(board, board)]) == ids, board
    assert c.spaces_for(1) == ref["by_player_count"][1]["spaces"]
    for space_id, body in ref["spaces"].items():
        mine = c.spaces[space_id]
        acc = body.get("accumulation_struct") or body.get("accumulation")
        if isinstance(acc, dict):
            assert {g: _accrual(v) for g, v in acc.items()} == dict(mine.accumulates), space_id
        else:
            assert not mine.accumulates, space_id
        if "food_cost" in body:
            assert mine.imitation == body["food_cost"], space_id


def test_round_cards_match_the_reference(reference: dict[str, Any]) -> None:
    c = components()
    ref = reference["round_cards"]
    for stage in (1, 2, 3, 4):
        for card_id, body in ref[f"stage_{stage}"].items():
            mine = c.round_cards[card_id]
            assert mine.stage == stage, card_id
            if "accumulation" in body:
                acc = {g: _accrual(v) for g, v in body["accumulation"].items()}
                assert acc == dict(mine.accumulates), card_id
    assert c.round_cards["exploration"].min_players == 3


def test_tables_match_the_reference(reference: dict[str, Any]) -> None:
    t = components().tables
    loot = [(i["id"], i["min_strength"]) for i in reference["expedition_loot"]["items"]]
    ours = [(i.id, i.strength) for i in t.loot]
    rename = {"all_weapons_plus_1": "all_weapons", "furnish_cavern": "furnish"}
    assert [(rename.get(i, i), s) for i, s in loot] == ours
    for item in reference["expedition_loot"]["items"]:
        if isinstance(item["gives"], dict):
            mine = next(i for i in t.loot if i.id == rename.get(item["id"], item["id"]))
            assert mine.goods == item["gives"]
    assert t.setup.food_by_seat == reference["setup"]["starting_food_by_seat"]
    assert t.rounds.count == reference["rounds"]["count"]
    marks = reference["harvest"]["random_markers_2_players"]
    two = t.harvest.markers_for(2)
    assert two is not None and list(two.rounds) == marks["rounds"]
    assert t.weapons.max_strength == reference["weapons"]["max_strength"]
    assert t.home_board.tile_points == {
        **reference["home_board"]["pastures_vp"], **reference["home_board"]["mines_vp"]
    }
    for rate in reference["food_conversion"]["rates"]:
        (good, amount), = rate["give"].items()
        if good == "gold" or amount != 1:
            continue
        assert t.food_values[good] == rate["food"], good
    prices = reference["action_spaces"]["spaces"]["weekly_market_5"]["effect"]["parts"][1]
    assert components().market_prices == prices["prices_in_gold"]
