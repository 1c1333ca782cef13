"""Final scoring: culture sets, the four multipliers, resources and the tie-break."""

from __future__ import annotations

from engine.stone_age.game import GAME
from engine.stone_age.scoring import BREAKDOWN_KEYS, breakdown, final_result
from engine.stone_age.state import Player, start_goods
from tests.engine.stone_age.helpers import scripted

# Culture cards by symbol (one of each pair).
WRITING, MEDICINE, POTTERY, ART, MUSIC = "c09", "c03", "c01", "c13", "c15"
POTTERY_2 = "c02"
BUILDINGS_6 = ["b01", "b02", "b03", "b04", "b05", "b06"]


def _player(**fields) -> Player:
    fields.setdefault("goods", start_goods(0))
    fields.setdefault("people", 5)
    return Player(**fields)


def _over(players, reason="cards_exhausted"):
    state = scripted(len(players))
    state.players = players
    state.phase = "over"
    state.end_reason = reason
    return state


def test_five_different_symbols_and_a_second_pottery_score_twenty_six():
    """Elena's five different symbols make 25, her spare pottery starts a set of 1: 26."""
    player = _player(cards=[WRITING, MEDICINE, POTTERY, ART, MUSIC, POTTERY_2])
    parts = breakdown(player)
    assert parts["culture"] == 26
    assert sum(parts.values()) == 26
    assert list(parts) == list(BREAKDOWN_KEYS)


def test_full_culture_sets():
    """All eight symbols twice make two sets of eight: 64 + 64."""
    pairs = ["c01", "c02", "c03", "c04", "c05", "c06", "c07", "c08",
             "c09", "c10", "c11", "c12", "c13", "c14", "c15", "c16"]
    assert breakdown(_player(cards=pairs))["culture"] == 128
    assert breakdown(_player(cards=["c01", "c02"]))["culture"] == 2


def test_five_farmers_at_agriculture_seven_score_thirty_five():
    """Five farmer figures times agriculture level 7 give 35."""
    player = _player(cards=["c17", "c18", "c19"], agriculture=7)  # 1 + 2 + 2 farmers
    parts = breakdown(player)
    assert parts["farmer"] == 35
    assert sum(parts.values()) == 35


def test_three_tool_makers_with_tools_worth_seven_score_twenty_one():
    """Three tool-maker figures times tiles worth 3+2+2 give 21; one-use tools do not count."""
    player = _player(cards=["c22", "c24"], tools=[3, 2, 2], one_use_tools=[4])  # 2 + 1
    parts = breakdown(player)
    assert parts["toolmaker"] == 21
    assert sum(parts.values()) == 21


def test_seven_hut_builders_with_six_buildings_score_forty_two():
    """Seven hut-builder figures times six buildings give 42."""
    player = _player(cards=["c28", "c30", "c31"], buildings=list(BUILDINGS_6))  # 2 + 2 + 3
    parts = breakdown(player)
    assert parts["hut_builder"] == 42
    assert parts["buildings"] == 0  # building points are scored during play, not here
    assert sum(parts.values()) == 42


def test_three_shamans_with_eight_people_score_twenty_four():
    """Three shaman figures times eight people give 24."""
    player = _player(cards=["c32", "c34"], people=8)  # 1 + 2
    parts = breakdown(player)
    assert parts["shaman"] == 24
    assert sum(parts.values()) == 24


def test_each_resource_scores_one_and_food_scores_nothing():
    """Leftover wood, clay, stone and gold score a point each; food scores none."""
    player = _player(goods={"food": 9, "wood": 1, "clay": 2, "stone": 3, "gold": 4})
    parts = breakdown(player)
    assert parts["resources"] == 10
    assert sum(parts.values()) == 10


def test_total_adds_points_of_play_and_of_the_end():
    """The final total is the score of play plus every part of the end scoring."""
    player = _player(
        cards=[WRITING, MEDICINE, "c17"],
        agriculture=4,
        goods={"food": 3, "wood": 2, "clay": 0, "stone": 0, "gold": 1},
        points={"buildings": 30, "cards": 3, "feeding": -10},
    )
    result = final_result(_over([player, _player()]))
    assert result.scores[0].breakdown == {
        "buildings": 30, "cards": 3, "feeding": -10, "culture": 4,
        "farmer": 4, "toolmaker": 0, "hut_builder": 0, "shaman": 0, "resources": 3,
    }
    assert result.scores[0].total == 34
    assert result.winners == [0]
    assert result.reason == "cards_exhausted"


def test_tie_on_points_goes_to_the_most_developed_village():
    """Equal totals: agriculture + tool values + people decides (3+4+5 beats 0+6+6)."""
    a = _player(points={"buildings": 40, "cards": 0, "feeding": 0}, agriculture=3,
                tools=[2, 1, 1], people=5)
    b = _player(points={"buildings": 40, "cards": 0, "feeding": 0}, agriculture=0,
                tools=[2, 2, 1], people=6)
    c = _player(points={"buildings": 39, "cards": 0, "feeding": 0}, agriculture=10,
                tools=[4, 4, 4], people=10)
    result = final_result(_over([a, b, c]))
    assert [s.total for s in result.scores] == [40, 40, 39]
    assert [s.tiebreak for s in result.scores] == [12, 11, 32]
    assert result.winners == [0]


def test_full_tie_shares_the_win():
    """Equal totals and equal development: both players win."""
    a = _player(points={"buildings": 25, "cards": 0, "feeding": 0}, agriculture=2,
                tools=[1, 1, 0], people=6)
    b = _player(points={"buildings": 20, "cards": 5, "feeding": 0}, agriculture=3,
                tools=[1, 0, 0], people=6)
    c = _player(points={"buildings": 20, "cards": 0, "feeding": 0}, agriculture=9, people=9)
    result = final_result(_over([a, b, c], reason="building_pile_empty"))
    assert result.winners == [0, 1]
    assert result.reason == "building_pile_empty"


def test_unused_two_resources_card_counts_as_two_resources():
    """An uncashed choose-two-resources card is worth its two resources at the end."""
    player = _player(cards=["c04"], boons=1, goods={"food": 0, "wood": 1, "clay": 0,
                                                    "stone": 0, "gold": 0})
    parts = breakdown(player)
    assert parts["resources"] == 3
    assert parts["culture"] == 1


def test_result_is_given_only_once_the_game_is_over():
    """A running game has no result; an ended one reports every seat."""
    state = scripted(2)
    assert GAME.result(state) is None
    state.phase = "over"
    state.end_reason = "cards_exhausted"
    result = GAME.result(state)
    assert result is not None
    assert [s.seat for s in result.scores] == [0, 1]
    assert result.winners == [0, 1]
