"""Civilization cards: slot costs, declining, and every kind of card top."""

from __future__ import annotations

import pytest

from engine.core.errors import IllegalMove
from engine.stone_age.game import GAME
from engine.stone_age.scoring import breakdown
from tests.engine.stone_age.helpers import codes, first, play, scripted, start_actions

# Seat 1 keeps two locations so the round stops at its turn.
BYSTANDER = {"forest": 1, "clay": 1}
FILLER = "c06"  # weaving, 1 food: stands in the slots a test does not use


def _prompt(state, seat):
    for prompt in GAME.pending(state):
        if prompt.seat == seat:
            return prompt
    raise AssertionError(f"seat {seat} has no prompt: {GAME.pending(state)}")


def _row(card, slot=1):
    row = [FILLER] * 4
    row[slot - 1] = card
    return row


def _buy(card, *, dice=(), deck=None, extra=None, hold=True, players=4):
    """Seat 0 buys ``card`` from slot 1 for one wood; returns the state and the events.
    With ``extra`` places the card must be one that goes first by itself."""
    state = scripted(players, dice=list(dice), row=_row(card), deck=deck)
    state.players[0].goods["wood"] = 1
    placed = {"card1": 1, **(extra or {})}
    start_actions(state, {0: placed, **({1: BYSTANDER} if hold else {})})
    events = play(state, 0, "pay:1.0.0.0")
    bought = first(events, "card_bought")
    assert bought.args == {"card": card, "slot": 1, "paid": {"wood": 1}}
    assert state.players[0].goods["wood"] == 0
    assert card in state.players[0].cards
    assert state.row[0] is None
    return state, events


# --- cost, paying, declining ---------------------------------------------------------


@pytest.mark.parametrize(("slot", "cost"), [(1, 1), (2, 2), (3, 3), (4, 4)])
def test_card_costs_its_slot_number_in_any_resources(slot, cost):
    """From the rightmost slot leftwards the cards cost 1, 2, 3 and 4 resources."""
    state = scripted(row=_row("c15", slot))
    state.players[0].goods.update(wood=4, clay=4)
    start_actions(state, {0: {f"card{slot}": 1}, 1: BYSTANDER})
    prompt = _prompt(state, 0)
    assert prompt.label.args["cost"] == cost
    assert prompt.keys()[-1] == "decline"
    if cost > 1:
        with pytest.raises(IllegalMove) as err:
            GAME.apply(state, 0, "pay:" + ".".join(map(str, (cost - 1, 0, 0, 0))))
        assert err.value.code == "wrong_payment"
    with pytest.raises(IllegalMove) as err:
        GAME.apply(state, 0, f"pay:{cost}.1.0.0")
    assert err.value.code == "wrong_payment"
    bill = (cost - 1, 1, 0, 0)
    events = play(state, 0, "pay:" + ".".join(map(str, bill)))
    assert first(events, "card_bought").args["slot"] == slot
    player = state.players[0]
    assert (player.goods["wood"], player.goods["clay"]) == (4 - (cost - 1), 3)
    assert player.cards == ["c15"]
    assert state.row[slot - 1] is None


def test_food_is_not_a_resource_for_paying():
    """Food cannot be handed in for a card."""
    state = scripted(row=_row("c15"))
    state.players[0].goods["wood"] = 1
    start_actions(state, {0: {"card1": 1}, 1: BYSTANDER})
    with pytest.raises(IllegalMove) as err:
        GAME.apply(state, 0, "add:food")
    assert err.value.code == "food_is_not_a_resource"


def test_declined_card_stays_on_the_board_for_the_next_round():
    """A player who will not pay leaves the card in its slot, and it is still there later."""
    state = scripted(row=["c16", "c15", "c13", "c11"], deck=["c01", "c02"])
    state.players[0].goods["wood"] = 5
    start_actions(state, {0: {"card2": 1}})
    events = play(state, 0, "decline")
    assert first(events, "card_declined").args["loc"] == "card2"
    assert state.players[0].cards == []
    assert state.players[0].goods["wood"] == 5
    # The round ended; nothing was taken, so nothing moved and nothing was drawn.
    assert first(events, "round_started").args["round"] == 2
    assert state.row == ["c16", "c15", "c13", "c11"]
    assert state.deck == ["c01", "c02"]


def test_card_that_cannot_be_paid_is_left_without_asking():
    """With fewer resources than the slot costs the worker just comes back."""
    state = scripted(row=_row("c15", 3))
    state.players[0].goods.update(wood=1, clay=1, food=30)
    events = start_actions(state, {0: {"card3": 1}, 1: BYSTANDER})
    assert first(events, "card_declined").args["cannot_pay"] is True
    assert state.row[2] == "c15"
    assert state.players[0].cards == []


# --- immediate tops ------------------------------------------------------------------


def test_food_card_gives_its_food():
    """The 4-food card puts 4 food into the buyer's stock at once."""
    state, events = _buy("c29")
    assert first(events, "food_gained").args["amount"] == 4
    assert state.players[0].goods["food"] == 12 + 4


def test_resource_card_gives_its_resource():
    """The 1-gold card hands over one gold straight away."""
    state, events = _buy("c33")
    assert first(events, "resource_gained").args == {"resource": "gold", "amount": 1}
    assert state.players[0].goods["gold"] == 1


def test_resource_dice_card_rolls_two_dice_and_allows_tools():
    """The wood-dice card rolls 2 dice (4+4), a tool of 1 makes 9: 3 wood instead of 2."""
    state = scripted(dice=[4, 4], row=_row("c35"))
    state.players[0].goods["wood"] = 1
    state.players[0].tools = [1, 0, 0]
    start_actions(state, {0: {"card1": 1}, 1: BYSTANDER})
    events = play(state, 0, "pay:1.0.0.0")
    assert first(events, "rolled").args["dice"] == [4, 4]
    prompt = _prompt(state, 0)
    assert prompt.label.args["resource"] == "wood"
    assert prompt.keys() == ["take", "take:t0"]
    events = play(state, 0, "take:t0")
    gathered = first(events, "gathered")
    assert (gathered.args["source"], gathered.args["total"], gathered.args["amount"]) == (
        "c35", 9, 3,
    )
    assert state.players[0].goods["wood"] == 3
    assert state.players[0].tools_used == [True, False, False]


def test_gold_dice_card_divides_by_six():
    """The gold-dice card's 2 dice (6+6) are divided like the river: 2 gold."""
    state, events = _buy("c14", dice=[6, 6])
    assert first(events, "gathered").args["amount"] == 2
    assert state.players[0].goods["gold"] == 2


def test_points_card_scores_three_at_once():
    """The points card moves the buyer 3 up the score track immediately."""
    state, events = _buy("c15")
    assert first(events, "points_gained").args["amount"] == 3
    assert state.players[0].points["cards"] == 3
    assert state.players[0].score == 3


def test_tool_card_gives_one_tool_step():
    """The tool card works like a visit to the tool maker."""
    state, events = _buy("c13")
    assert first(events, "tool_gained").args["tools"] == [1, 0, 0]
    assert state.players[0].tools == [1, 0, 0]


def test_tool_card_upgrades_the_lowest_tile():
    """With three tiles of 1 the tool card turns one of them to 2."""
    state = scripted(row=_row("c13"))
    state.players[0].goods["wood"] = 1
    state.players[0].tools = [2, 1, 1]
    start_actions(state, {0: {"card1": 1}, 1: BYSTANDER})
    play(state, 0, "pay:1.0.0.0")
    assert state.players[0].tools == [2, 2, 1]


def test_agriculture_card_raises_the_track():
    """The agriculture card moves the marker one step up, as the field does."""
    state, events = _buy("c11")
    assert first(events, "agriculture_up").args["level"] == 1
    assert state.players[0].agriculture == 1


def test_extra_card_draws_the_top_of_the_deck_for_scoring_only():
    """The bonus card adds the deck's top card to the buyer's cards; its top does nothing."""
    state, events = _buy("c09", deck=["c16", "c01"])
    assert "extra_card" in codes(events)
    player = state.players[0]
    assert player.cards == ["c09", "c01"]
    assert state.deck == ["c16"]
    assert player.goods["food"] == 12  # the drawn 7-food card gave no food
    assert "food_gained" not in codes(events)
    # Writing and pottery make a set of two different symbols at the end.
    assert breakdown(player)["culture"] == 4


def test_extra_card_with_empty_deck_gives_nothing():
    """When the deck is empty the bonus card brings no second card."""
    state, events = _buy("c09", deck=[])
    assert "extra_card_none" in codes(events)
    assert "extra_card" not in codes(events)
    assert state.players[0].cards == ["c09"]


# --- one-use tool --------------------------------------------------------------------


def test_one_use_tool_is_kept_used_in_a_later_roll_and_then_gone():
    """A one-use tool of 4 bought in one round helps a hunt next round, then is spent."""
    state = scripted(dice=[1, 1, 1], row=_row("c24"), deck=["c16", "c15", "c11"])
    state.players[0].goods["wood"] = 1
    state.players[0].tools = [1, 0, 0]
    start_actions(state, {0: {"card1": 1}})
    events = play(state, 0, "pay:1.0.0.0")
    assert first(events, "one_use_tool_gained").args["value"] == 4
    assert first(events, "round_started").args["round"] == 2
    player = state.players[0]
    assert player.one_use_tools == [4]
    # Round 2: hunt with one die (1), adding the one-use 4 and the tile of 1.
    start_actions(state, {0: {"hunt": 1, "forest": 2}})
    play(state, 0, "do:hunt")
    assert _prompt(state, 0).keys() == ["take", "take:t0", "take:o0", "take:t0.o0"]
    events = play(state, 0, "take:t0.o0")
    hunt = first(events, "gathered")
    assert (hunt.args["total"], hunt.args["amount"]) == (6, 3)
    assert sorted(hunt.args["tools"]) == [1, 4]
    assert player.one_use_tools == []
    assert "c24" in player.cards  # the card stays for final scoring
    # The forest roll (1+1) then had nothing left to add and resolved by itself.
    forest = [e for e in events if e.code == "gathered"][1]
    assert (forest.args["source"], forest.args["amount"], forest.args["tools"]) == (
        "forest", 0, [],
    )


def test_one_use_tool_left_out_of_a_roll_is_kept():
    """A one-use tool not chosen for a roll is still there afterwards."""
    state = scripted(dice=[6, 6, 5])
    state.players[0].one_use_tools = [3]
    start_actions(state, {0: {"forest": 3}, 1: BYSTANDER})
    events = play(state, 0, "take")
    assert first(events, "gathered").args["amount"] == 5
    assert state.players[0].one_use_tools == [3]


# --- two resources of your choice ----------------------------------------------------


def test_two_resources_card_used_at_once():
    """The choose-two-resources card may be cashed in right after buying it. (It is
    bought first by itself: neither the hunt nor the tool maker brings anything to pay
    with; their own order is the player's, since the tool could help the hunt.)"""
    state, events = _buy("c04", extra={"hunt": 1, "toolmaker": 1})
    assert "boon_gained" in codes(events)
    assert state.players[0].boons == 1
    prompt = _prompt(state, 0)
    assert prompt.keys() == ["do:hunt", "do:toolmaker", "boon"]
    play(state, 0, "boon")
    keys = _prompt(state, 0).keys()
    assert len(keys) == 11 and keys[-1] == "back"
    assert {"gain:2.0.0.0", "gain:0.0.0.2", "gain:1.0.0.1", "gain:0.1.1.0"} <= set(keys)
    events = play(state, 0, "gain:0.0.0.2")
    assert first(events, "boon_used").args["goods"] == {"gold": 2}
    player = state.players[0]
    assert player.goods["gold"] == 2
    assert player.boons == 0
    assert "c04" in player.cards
    assert _prompt(state, 0).keys() == ["do:hunt", "do:toolmaker"]


def test_two_resources_card_kept_and_used_for_a_later_payment():
    """Kept unused, the card pays for a 2-cost card in the next round."""
    state = scripted(row=_row("c04"), deck=["c16", "c13"])
    state.players[0].goods["wood"] = 1
    start_actions(state, {0: {"card1": 1}})
    play(state, 0, "pay:1.0.0.0")
    assert state.round == 2
    assert state.players[0].boons == 1
    assert state.row == ["c06", "c06", "c06", "c13"]
    # Round 2: no resources at all, only the kept card, and a 2-cost card to buy.
    state.players[0].goods.update(wood=0, clay=0, stone=0, gold=0)
    start_actions(state, {0: {"card2": 1}})
    assert _prompt(state, 0).keys() == ["boon", "decline"]
    play(state, 0, "boon", "gain:1.1.0.0")
    assert _prompt(state, 0).keys() == ["pay:1.1.0.0", "decline"]
    events = play(state, 0, "pay:1.1.0.0")
    assert first(events, "card_bought").args == {
        "card": "c06", "slot": 2, "paid": {"wood": 1, "clay": 1},
    }
    player = state.players[0]
    assert player.boons == 0
    assert player.cards == ["c04", "c06"]
    assert sum(player.goods[r] for r in ("wood", "clay", "stone", "gold")) == 0


def test_two_resources_card_pays_the_leftmost_card():
    """Two resources taken from the kept card plus two wood cover a 4-cost card."""
    state = scripted(row=_row("c13", 4))
    state.players[0].goods["wood"] = 2
    state.players[0].boons = 1
    start_actions(state, {0: {"card4": 1}, 1: BYSTANDER})
    play(state, 0, "boon", "gain:0.0.0.2")
    events = play(state, 0, "pay:2.0.0.2")
    assert first(events, "card_bought").args["slot"] == 4
    player = state.players[0]
    assert player.boons == 0
    assert (player.goods["wood"], player.goods["gold"]) == (0, 0)
    assert player.tools == [1, 0, 0]


# --- dice for everyone ---------------------------------------------------------------


def test_dice_for_everyone_four_player_example():
    """Red rolls 5,6,2,2: he takes the tool, Blue the agriculture, Green and Yellow a clay."""
    state = scripted(4, dice=[5, 6, 2, 2], row=_row("c02"))
    state.players[0].goods["wood"] = 1
    state.players[0].tools = [1, 0, 0]
    start_actions(state, {0: {"card1": 1}})
    events = play(state, 0, "pay:1.0.0.0")
    assert first(events, "dice_for_all").args["dice"] == [2, 2, 5, 6]
    prompts = GAME.pending(state)
    assert [p.seat for p in prompts] == [0]
    # Only dice to pick: tools do not touch these dice.
    assert prompts[0].keys() == ["die:2", "die:5", "die:6"]
    with pytest.raises(IllegalMove):
        GAME.apply(state, 0, "tool:0")
    with pytest.raises(IllegalMove) as err:
        GAME.apply(state, 1, "die:6")
    assert err.value.code == "not_your_turn"
    play(state, 0, "die:5")
    assert state.players[0].tools == [1, 1, 0]
    assert [(p.seat, p.keys()) for p in GAME.pending(state)] == [(1, ["die:2", "die:6"])]
    with pytest.raises(IllegalMove) as err:
        GAME.apply(state, 1, "die:5")
    assert err.value.code == "no_such_die"
    events = play(state, 1, "die:6")
    assert state.players[1].agriculture == 1
    # Only 2s are left: Green and Yellow get theirs without being asked.
    taken = [(e.seat, e.args["face"]) for e in events if e.code == "die_taken"]
    assert taken == [(1, 6), (2, 2), (3, 2)]
    assert state.players[2].goods["clay"] == 1
    assert state.players[3].goods["clay"] == 1
    assert state.players[0].goods["clay"] == 0
    assert state.players[1].goods["clay"] == 0
    assert state.players[0].agriculture == 0
    # Nobody had anything else to do: the round went on to the next one.
    assert state.round == 2


def test_dice_for_everyone_starts_with_the_buyer_and_goes_round():
    """When seat 2 buys the card the picks go 2, 3, 0, 1."""
    state = scripted(4, dice=[1, 3, 4, 6], row=_row("c08"))
    state.players[2].goods["wood"] = 1
    start_actions(state, {2: {"card1": 1}})
    play(state, 2, "pay:1.0.0.0")
    play(state, 2, "die:4")
    play(state, 3, "die:1")
    play(state, 0, "die:6")
    assert state.players[2].goods["gold"] == 1
    assert state.players[3].goods["wood"] == 1
    assert state.players[0].agriculture == 1
    assert state.players[1].goods["stone"] == 1  # the last die went to seat 1 by itself
