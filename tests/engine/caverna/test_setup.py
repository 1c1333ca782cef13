"""Setting up Caverna: food by seat, the action spaces for each count, the round cards by
stage with the fixed round-4 card, harvest markers, solo and two-player changes."""

from __future__ import annotations

import pytest

from engine.caverna.components import components
from engine.caverna.setup import deal_round_cards, setup, start_food
from engine.core.errors import IllegalMove
from engine.core.rng import SeededRandom


def test_food_by_seat_from_the_first_player() -> None:
    """The first player and the next get 1 food, the third 2, everyone later 3."""
    assert [start_food(7, s) for s in range(7)] == [1, 1, 2, 3, 3, 3, 3]
    state = setup(4, seed=3)
    assert [p.goods["food"] for p in state.players] == [1, 1, 2, 3]
    assert state.first == 0


def test_solo_starts_with_two_food() -> None:
    assert setup(1, seed=1).players[0].goods["food"] == 2


def test_everyone_starts_with_two_unarmed_dwarfs_and_the_printed_caverns() -> None:
    player = setup(2, seed=1).players[0]
    assert [(d.weapon, d.born) for d in player.dwarfs] == [(0, False), (0, False)]
    assert player.board.furnishings == ["entry_level_dwelling"]
    assert len(player.board.empty_caverns()) == 1
    assert sum(player.goods.values()) == player.goods["food"]
    assert not any(player.animals.values())


@pytest.mark.parametrize(("players", "count"), [(1, 8), (2, 12), (3, 15), (4, 13), (5, 19),
                                                (6, 19), (7, 22)])
def test_action_spaces_for_each_count(players: int, count: int) -> None:
    """The boards of the count (solo covers four of the 1–3 side)."""
    ids = [s.id for s in setup(players, seed=1).spaces]
    assert len(ids) == count == len(set(ids))
    if players <= 3:
        assert "starting_player_4_7" not in ids and "imitation_4_7" not in ids
    else:
        assert {"starting_player_4_7", "imitation_4_7", "growth"} <= set(ids)
    assert ("imitation_3" in ids) == (players == 3)
    assert ("imitation_7" in ids) == (players == 7)
    if players == 1:
        assert not {"drift_mining_1_3", "starting_player_1_3", "supplies",
                    "clearing_1_3"} & set(ids)


@pytest.mark.parametrize("players", range(3, 8))
def test_round_cards_are_shuffled_within_their_stage(players: int) -> None:
    comp = components()
    stages = comp.cards_by_stage(players)
    seen_orders = set()
    for seed in range(30):
        cards = deal_round_cards(players, SeededRandom(seed=seed))
        assert sorted(cards) == list(range(1, 13))
        assert cards[4] == "wish_for_children"
        for stage, rounds in comp.tables.rounds.stages.items():
            assert sorted(cards[r] for r in rounds) == sorted(stages[stage])
        seen_orders.add(tuple(cards[r] for r in (1, 2, 3)))
    assert len(seen_orders) > 1


def test_two_players_skip_round_nine_and_the_exploration_card() -> None:
    state = setup(2, seed=5)
    assert state.rounds == [1, 2, 3, 4, 5, 6, 7, 8, 10, 11, 12]
    assert 9 not in state.cards and "exploration" not in state.cards.values()
    assert sorted(state.markers) == [6, 7, 8, 10, 11, 12]
    assert sorted(state.markers.values()) == ["green"] * 3 + ["red"] * 3


def test_three_or_more_players_lay_seven_markers() -> None:
    state = setup(5, seed=5)
    assert sorted(state.markers) == [6, 7, 8, 9, 10, 11, 12]
    assert sorted(state.markers.values()) == ["green"] * 4 + ["red"] * 3


def test_solo_lays_the_cards_in_the_fixed_order_without_markers() -> None:
    state = setup(1, seed=9)
    assert state.markers == {}
    assert state.rounds == [1, 2, 3, 4, 5, 6, 7, 8, 10, 11, 12]
    assert state.cards == {
        1: "blacksmithing", 2: "sheep_farming", 3: "ore_mine_construction",
        4: "wish_for_children", 5: "donkey_farming", 6: "ruby_mine_construction",
        7: "ore_delivery", 8: "family_life", 10: "ore_trading", 11: "adventure",
        12: "ruby_delivery",
    }


def test_setup_is_reproducible_from_the_seed() -> None:
    assert setup(4, seed=11).model_dump() == setup(4, seed=11).model_dump()


@pytest.mark.parametrize("players", [0, 8])
def test_player_count_out_of_range_is_refused(players: int) -> None:
    with pytest.raises(IllegalMove) as info:
        setup(players, seed=1)
    assert info.value.code == "bad_player_count"
