"""Buildings: the rulebook's payment examples and what happens to the pile."""

from __future__ import annotations

import pytest

from engine.core.errors import IllegalMove
from engine.stone_age.game import GAME
from tests.engine.stone_age.helpers import codes, first, play, scripted, start_actions

# Seat 1 keeps two locations so the round stops after seat 0's building.
BYSTANDER = {"forest": 1, "clay": 1}


def _give(state, seat, **goods):
    for resource, amount in goods.items():
        state.players[seat].goods[resource] = amount


def _prompt(state, seat):
    for prompt in GAME.pending(state):
        if prompt.seat == seat:
            return prompt
    raise AssertionError(f"seat {seat} has no prompt")


def test_four_resources_of_two_kinds_three_stone_one_wood_scores_eighteen():
    """Blue pays 3 stone and 1 wood for a 4-of-2-kinds tile and scores 5+5+5+3 = 18."""
    state = scripted(piles=[["b05", "b19"], ["b01"], ["b02"], ["b03"]])
    _give(state, 0, stone=3, wood=1)
    start_actions(state, {0: {"bld1": 1}, 1: BYSTANDER})
    prompt = _prompt(state, 0)
    assert prompt.label.args["building"] == "b19"
    assert prompt.keys() == ["pay:1.0.3.0", "decline"]
    assert prompt.options[0].label.args["points"] == 18
    events = play(state, 0, "pay:1.0.3.0")
    built = first(events, "building_built")
    assert built.args == {"building": "b19", "paid": {"wood": 1, "stone": 3}, "points": 18}
    player = state.players[0]
    assert player.buildings == ["b19"]
    assert player.points["buildings"] == 18
    assert player.score == 18
    assert (player.goods["wood"], player.goods["stone"]) == (0, 0)
    # The tile underneath is now face up.
    pile = GAME.view(state, None).piles[0]
    assert pile.size == 1
    assert pile.top is not None and pile.top.id == "b05"
    assert "pile_empty" not in codes(events)
    assert state.last_round is False


def test_two_kinds_tile_refuses_a_single_kind_bill():
    """Four stones are one kind only, which a 4-of-2-kinds tile does not accept."""
    state = scripted(piles=[["b05", "b19"], ["b01"], ["b02"], ["b03"]])
    _give(state, 0, stone=4, wood=1)
    start_actions(state, {0: {"bld1": 1}, 1: BYSTANDER})
    assert "pay:0.0.4.0" not in list(_prompt(state, 0).keys())
    with pytest.raises(IllegalMove) as err:
        GAME.apply(state, 0, "pay:0.0.4.0")
    assert err.value.code == "wrong_payment"
    assert state.players[0].goods["stone"] == 4
    play(state, 0, "pay:1.0.3.0")
    assert state.players[0].points["buildings"] == 18


def test_fixed_tile_two_wood_one_clay_scores_ten():
    """Yellow hands in 2 wood and 1 clay for the printed tile and moves 10 points up."""
    state = scripted(piles=[["b07", "b01"], ["b02"], ["b03"], ["b04"]])
    _give(state, 0, wood=3, clay=2, stone=1)
    start_actions(state, {0: {"bld1": 1}, 1: BYSTANDER})
    prompt = _prompt(state, 0)
    assert prompt.keys() == ["pay:2.1.0.0", "decline"]
    with pytest.raises(IllegalMove) as err:
        GAME.apply(state, 0, "pay:1.1.1.0")
    assert err.value.code == "wrong_payment"
    events = play(state, 0, "pay:2.1.0.0")
    assert first(events, "building_built").args["points"] == 10
    player = state.players[0]
    assert player.points["buildings"] == 10
    assert (player.goods["wood"], player.goods["clay"], player.goods["stone"]) == (1, 1, 1)
    assert state.piles[0] == ["b07"]


def test_one_to_seven_tile_scores_the_value_of_what_was_paid():
    """A 1–7 tile paid with 1 stone and 2 gold scores 5 + 6 + 6 = 17."""
    state = scripted(piles=[["b02", "b26"], ["b01"], ["b03"], ["b04"]])
    _give(state, 0, wood=2, clay=2, stone=2, gold=2)
    start_actions(state, {0: {"bld1": 1}, 1: BYSTANDER})
    # Too many ways to pay for one-tap bills: the payment is built stepwise.
    assert _prompt(state, 0).keys() == ["add:wood", "add:clay", "add:stone", "add:gold", "decline"]
    play(state, 0, "add:stone", "add:gold", "add:gold")
    confirm = next(o for o in _prompt(state, 0).options if o.key == "confirm")
    assert confirm.label.args["points"] == 17
    events = play(state, 0, "confirm")
    assert first(events, "building_built").args["points"] == 17
    player = state.players[0]
    assert player.points["buildings"] == 17
    assert (player.goods["stone"], player.goods["gold"]) == (1, 0)
    assert state.piles[0] == ["b02"]


def test_one_to_seven_tile_takes_at_most_seven_resources():
    """An eighth resource cannot be added to a 1–7 tile's payment."""
    state = scripted(piles=[["b02", "b26"], ["b01"], ["b03"], ["b04"]])
    _give(state, 0, wood=8, clay=3)  # 25 possible bills: too many for buttons
    start_actions(state, {0: {"bld1": 1}, 1: BYSTANDER})
    play(state, 0, *["add:wood"] * 7)
    assert "add:wood" not in list(_prompt(state, 0).keys())
    with pytest.raises(IllegalMove) as err:
        GAME.apply(state, 0, "add:wood")
    assert err.value.code == "wrong_payment"
    events = play(state, 0, "confirm")
    assert first(events, "building_built").args["points"] == 21


def test_declining_a_building_leaves_it_on_its_pile():
    """A player who does not want to pay takes his worker back and the tile stays."""
    state = scripted(piles=[["b07", "b01"], ["b02"], ["b03"], ["b04"]])
    _give(state, 0, wood=2, clay=1)
    start_actions(state, {0: {"bld1": 1}, 1: BYSTANDER})
    events = play(state, 0, "decline")
    assert codes(events) == ["building_declined"]
    assert state.piles[0] == ["b07", "b01"]
    assert state.players[0].buildings == []
    assert state.players[0].score == 0
    assert (state.players[0].goods["wood"], state.players[0].goods["clay"]) == (2, 1)


def test_building_that_cannot_be_paid_is_declined_without_asking():
    """Without the printed resources the worker simply comes home."""
    state = scripted(piles=[["b07", "b01"], ["b02"], ["b03"], ["b04"]])
    _give(state, 0, wood=1, clay=5)
    events = start_actions(state, {0: {"bld1": 1}, 1: BYSTANDER})
    declined = first(events, "building_declined")
    assert declined.args["cannot_pay"] is True
    assert state.piles[0] == ["b07", "b01"]
    assert [p.seat for p in GAME.pending(state)] == [1]
