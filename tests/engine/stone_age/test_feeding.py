"""Feeding the tribe: income, paying with resources, the flat penalty, simultaneous choices."""

from __future__ import annotations

import pytest

from engine.core.errors import IllegalMove
from engine.stone_age.game import GAME
from tests.engine.stone_age.helpers import codes, first, play, scripted, start_actions

RESOURCES = ("wood", "clay", "stone", "gold")


def _feed(state):
    """Skip the action phase (nobody placed) and run feeding; returns its events."""
    return start_actions(state, {})


def _seat_events(events, seat):
    return [e.code for e in events if e.seat == seat]


def test_enough_food_feeds_everyone_and_the_round_moves_on():
    """Each player hands in one food per person and keeps the rest."""
    state = scripted()
    state.players[1].people = 7
    events = _feed(state)
    assert [p.goods["food"] for p in state.players] == [7, 5, 7, 7]
    assert first(events, "fed").args == {"food": 5}
    assert [e.args["food"] for e in events if e.code == "fed"] == [5, 7, 5, 5]
    assert all(p.points["feeding"] == 0 for p in state.players)
    assert "short_of_food" not in codes(events)
    assert first(events, "round_started").args["round"] == 2
    assert state.round == 2


def test_agriculture_income_comes_before_feeding():
    """Food from the agriculture track arrives first, so 2 food + 3 income feeds 5 people."""
    state = scripted()
    state.players[0].goods["food"] = 2
    state.players[0].agriculture = 3
    events = _feed(state)
    assert _seat_events(events, 0) == ["income", "fed"]
    assert first(events, "income").args == {"food": 3}
    assert state.players[0].goods["food"] == 0
    assert state.players[0].points["feeding"] == 0
    assert state.round == 2


def test_agriculture_surplus_is_kept():
    """Income beyond what the tribe eats stays in the stock."""
    state = scripted()
    state.players[2].goods["food"] = 0
    state.players[2].agriculture = 8
    _feed(state)
    assert state.players[2].goods["food"] == 3


def test_short_player_hands_in_all_food_then_pays_the_rest_with_resources():
    """With 3 food for 5 people the food goes first and 2 resources cover the rest."""
    state = scripted()
    player = state.players[0]
    player.goods.update(food=3, wood=1, clay=1, stone=1)
    events = _feed(state)
    assert first(events, "short_of_food").args == {"food": 3, "missing": 2}
    assert player.goods["food"] == 0  # handed in before the choice
    assert state.phase == "feeding"
    prompts = GAME.pending(state)
    assert [p.seat for p in prompts] == [0]
    assert prompts[0].label.args["missing"] == 2
    assert prompts[0].keys() == ["pay:1.1.0.0", "pay:1.0.1.0", "pay:0.1.1.0", "starve"]
    with pytest.raises(IllegalMove) as err:
        GAME.apply(state, 0, "pay:1.0.0.0")
    assert err.value.code == "wrong_payment"
    with pytest.raises(IllegalMove) as err:
        GAME.apply(state, 0, "add:food")
    assert err.value.code == "food_is_not_a_resource"
    events = play(state, 0, "pay:1.0.1.0")
    assert first(events, "fed_with_resources").args == {"paid": {"wood": 1, "stone": 1}}
    assert [player.goods[r] for r in RESOURCES] == [0, 1, 0, 0]
    assert player.points["feeding"] == 0
    assert first(events, "round_started").args["round"] == 2


def test_short_player_may_take_the_penalty_and_keep_resources():
    """Choosing not to spend resources costs 10 points; the food is gone all the same."""
    state = scripted()
    player = state.players[0]
    player.goods.update(food=3, wood=5)
    _feed(state)
    events = play(state, 0, "starve")
    assert first(events, "hungry").args == {"penalty": 10}
    assert player.points["feeding"] == -10
    assert player.score == -10
    assert player.goods["food"] == 0
    assert player.goods["wood"] == 5
    assert state.round == 2


def test_short_player_without_resources_loses_ten_automatically():
    """Nothing to pay with: the 10 points go at once, without a question."""
    state = scripted()
    state.players[0].goods["food"] = 2
    events = _feed(state)
    assert _seat_events(events, 0) == ["short_of_food", "hungry"]
    assert state.players[0].points["feeding"] == -10
    assert state.players[0].goods["food"] == 0
    assert state.round == 2  # nobody was asked anything


def test_too_few_resources_also_means_the_penalty_and_resources_are_kept():
    """Two wood cannot cover four missing food, so the player loses 10 and keeps the wood."""
    state = scripted()
    state.players[0].goods.update(food=1, wood=2)
    events = _feed(state)
    assert first(events, "short_of_food").args["missing"] == 4
    assert "hungry" in _seat_events(events, 0)
    assert state.players[0].points["feeding"] == -10
    assert state.players[0].goods["wood"] == 2
    assert state.round == 2


def test_penalty_is_ten_however_many_go_hungry():
    """Eight unfed people cost the same 10 points as one."""
    state = scripted()
    state.players[0].people = 8
    state.players[0].goods["food"] = 0
    state.players[1].goods["food"] = 4
    state.players[2].points["buildings"] = 4
    state.players[2].goods["food"] = 0
    _feed(state)
    assert state.players[0].points["feeding"] == -10
    assert state.players[1].points["feeding"] == -10
    assert state.players[2].score == -6  # the score can go below zero
    assert state.players[3].points["feeding"] == 0


@pytest.mark.parametrize("order", [(1, 2), (2, 1)])
def test_two_short_players_are_asked_at_the_same_time(order):
    """Two hungry players both get their feeding choice at once and answer in any order."""
    state = scripted()
    state.players[1].goods.update(food=4, clay=2)
    state.players[2].goods.update(food=0, gold=5)
    events = _feed(state)
    assert {e.seat for e in events if e.code == "short_of_food"} == {1, 2}
    prompts = GAME.pending(state)
    assert [p.seat for p in prompts] == [1, 2]
    assert prompts[0].keys() == ["pay:0.1.0.0", "starve"]
    assert prompts[1].keys() == ["pay:0.0.0.5", "starve"]
    answers = {1: "pay:0.1.0.0", 2: "starve"}
    play(state, order[0], answers[order[0]])
    # The round waits for the other player.
    assert state.phase == "feeding"
    assert [p.seat for p in GAME.pending(state)] == [order[1]]
    play(state, order[1], answers[order[1]])
    assert state.round == 2
    assert state.phase == "placement"
    assert (state.players[1].goods["clay"], state.players[1].points["feeding"]) == (1, 0)
    assert (state.players[2].goods["gold"], state.players[2].points["feeding"]) == (5, -10)


def test_two_resources_card_can_feed_the_tribe():
    """A kept choose-two-resources card covers two missing food at feeding time."""
    state = scripted()
    player = state.players[0]
    player.goods["food"] = 3
    player.boons = 1
    _feed(state)
    assert GAME.pending(state)[0].keys() == ["boon", "starve"]
    play(state, 0, "boon", "gain:1.0.0.1")
    assert GAME.pending(state)[0].keys() == ["pay:1.0.0.1", "starve"]
    play(state, 0, "pay:1.0.0.1")
    assert player.boons == 0
    assert player.points["feeding"] == 0
    assert [player.goods[r] for r in RESOURCES] == [0, 0, 0, 0]
    assert state.round == 2
