"""Paying for cards and buildings: the payment module and the payment prompts.

Rulebook: a card costs 1-4 resources of any kinds by its slot; a building asks a fixed
bill, or n resources of exactly k kinds, or 1-7 resources of any kinds (variable
buildings score the value of what was paid). Food is never a resource.
"""

from __future__ import annotations

from itertools import product

import pytest

from engine.stone_age.components import components
from engine.stone_age.game import GAME
from engine.stone_age.payment import (
    MAX_LISTED,
    Bill,
    affordable,
    bill_dict,
    bill_key,
    bill_value,
    bills,
    building_rule,
    can_pay,
    card_rule,
    completable,
    fits,
    food_rule,
    listed,
    parse_bill,
    pay,
)
from engine.stone_age.state import PayRule, Player, StoneAgeState, start_goods
from tests.engine.stone_age.helpers import (
    codes,
    first,
    play,
    refused,
    scripted,
    start_actions,
)

ROW = ["c06", "c15", "c16", "c01"]  # card4 (cost 4) is c01: food 7


def keys(state: StoneAgeState, seat: int = 0) -> list[str]:
    (prompt,) = [p for p in GAME.pending(state) if p.seat == seat]
    return prompt.keys()


def rule_of(building_id: str) -> PayRule:
    return building_rule(components().buildings[building_id])


def brute_force(rule: PayRule, have: Bill) -> set[Bill]:
    ranges = [range(h + 1) for h in have]
    return {(w, c, s, g) for w, c, s, g in product(*ranges) if fits(rule, (w, c, s, g))}


# --- rules --------------------------------------------------------------------------


def test_rules_from_the_components() -> None:
    assert card_rule(3) == PayRule(count_min=3, count_max=3)
    assert food_rule(2) == PayRule(count_min=2, count_max=2)
    assert rule_of("b01") == PayRule(fixed={"wood": 2, "clay": 1, "stone": 0, "gold": 0})
    assert rule_of("b17") == PayRule(fixed={"wood": 0, "clay": 0, "stone": 2, "gold": 1})
    assert rule_of("b19") == PayRule(count_min=4, count_max=4, kinds=2)
    assert rule_of("b25") == PayRule(count_min=5, count_max=5, kinds=4)
    assert rule_of("b26") == PayRule(count_min=1, count_max=7)


def test_fits_a_fixed_bill_exactly() -> None:
    rule = rule_of("b01")
    assert fits(rule, (2, 1, 0, 0))
    assert not fits(rule, (1, 2, 0, 0))
    assert not fits(rule, (2, 1, 1, 0))
    assert not fits(rule, (2, 0, 0, 0))


def test_fits_any_resources_of_a_count() -> None:
    assert fits(card_rule(2), (0, 0, 0, 2))
    assert fits(card_rule(2), (1, 0, 1, 0))
    assert not fits(card_rule(2), (1, 0, 0, 0))
    assert not fits(card_rule(2), (1, 1, 1, 0))
    b26 = rule_of("b26")
    assert not fits(b26, (0, 0, 0, 0))
    assert fits(b26, (1, 0, 0, 0))
    assert fits(b26, (2, 2, 2, 1))
    assert not fits(b26, (2, 2, 2, 2))


@pytest.mark.parametrize(("bill", "ok"), [
    ((2, 2, 0, 0), True),
    ((3, 1, 0, 0), True),
    ((0, 0, 1, 3), True),
    ((1, 0, 0, 3), True),
    ((4, 0, 0, 0), False),  # one kind
    ((2, 1, 1, 0), False),  # three kinds
    ((1, 1, 1, 1), False),  # four kinds
    ((2, 1, 0, 0), False),  # three resources
    ((3, 2, 0, 0), False),  # five resources
])
def test_four_resources_of_exactly_two_kinds(bill: Bill, ok: bool) -> None:
    assert fits(rule_of("b19"), bill) is ok


def test_n_of_exactly_k_kinds_for_every_such_building() -> None:
    for bid, building in components().buildings.items():
        if building.form != "kinds":
            continue
        rule = rule_of(bid)
        found = bills(rule, (5, 5, 5, 5))
        assert found, bid
        for bill in found:
            assert sum(bill) == building.count, (bid, bill)
            assert sum(1 for n in bill if n) == building.kinds, (bid, bill)
        assert set(found) == brute_force(rule, (5, 5, 5, 5))


# --- enumeration -------------------------------------------------------------------

SMALL_HAVES: list[Bill] = [
    (0, 0, 0, 0), (1, 0, 0, 0), (2, 1, 1, 0), (1, 1, 1, 1), (3, 2, 1, 1), (4, 0, 0, 2),
    (0, 3, 0, 3), (2, 2, 2, 2),
]
RULES = {
    "card1": card_rule(1), "card2": card_rule(2), "card3": card_rule(3), "card4": card_rule(4),
    "b01": rule_of("b01"), "b13": rule_of("b13"), "b18": rule_of("b18"), "b19": rule_of("b19"),
    "b20": rule_of("b20"), "b21": rule_of("b21"), "b23": rule_of("b23"), "b26": rule_of("b26"),
}


@pytest.mark.parametrize("name", sorted(RULES))
def test_bills_are_complete_and_cheapest_first(name: str) -> None:
    rule = RULES[name]
    for have in SMALL_HAVES:
        found = bills(rule, have)
        assert len(found) == len(set(found)), (name, have)
        assert set(found) == brute_force(rule, have), (name, have)
        assert all(affordable(b, have) for b in found)
        # Cheapest first for each number of resources; fewer resources first.
        ordered = [(sum(b), bill_value(b)) for b in found]
        assert ordered == sorted(ordered), (name, have, found)
        assert can_pay(rule, have) is bool(found)
        assert bills(rule, have, limit=2) == found[:2]


def test_the_cheapest_way_to_pay_a_card_comes_first() -> None:
    found = bills(card_rule(2), (2, 2, 2, 2))
    assert len(found) == 10
    assert found[0] == (2, 0, 0, 0)
    assert found[1] == (1, 1, 0, 0)
    assert found[-1] == (0, 0, 0, 2)
    values = [bill_value(b) for b in found]
    assert values == sorted(values)
    assert bill_value((1, 1, 1, 1)) == 3 + 4 + 5 + 6


def test_bills_with_nothing_to_pay_with() -> None:
    assert bills(card_rule(1), (0, 0, 0, 0)) == []
    assert not can_pay(card_rule(1), (0, 0, 0, 0))
    assert bills(rule_of("b01"), (2, 0, 5, 5)) == []
    assert bills(rule_of("b01"), (2, 1, 0, 0)) == [(2, 1, 0, 0)]
    assert bills(rule_of("b21"), (3, 3, 3, 0)) == []


def test_listed_gives_up_beyond_twenty_four_ways() -> None:
    assert MAX_LISTED == 24
    # Four resources out of four of each kind: 35 ways.
    assert len(bills(card_rule(4), (4, 4, 4, 4))) == 35
    assert listed(card_rule(4), (4, 4, 4, 4)) is None
    # Exactly 24 ways are still listed, 25 are not.
    assert len(bills(card_rule(4), (4, 4, 3, 1))) == 24
    assert listed(card_rule(4), (4, 4, 3, 1)) == bills(card_rule(4), (4, 4, 3, 1))
    assert len(bills(card_rule(4), (4, 4, 4, 1))) == 25
    assert listed(card_rule(4), (4, 4, 4, 1)) is None
    assert listed(card_rule(2), (2, 2, 2, 2)) == bills(card_rule(2), (2, 2, 2, 2))
    assert listed(card_rule(2), (1, 0, 0, 0)) == []


def test_completable_with_any_resources() -> None:
    rule, have = card_rule(4), (4, 4, 4, 4)
    assert completable(rule, have, (0, 0, 0, 0))
    assert completable(rule, have, (1, 1, 1, 0))
    assert completable(rule, have, (4, 0, 0, 0))
    assert not completable(rule, have, (4, 1, 0, 0))  # five is too many
    assert not completable(rule, have, (5, 0, 0, 0))  # more than held
    assert not completable(rule, (1, 1, 0, 0), (0, 0, 0, 0))  # only two held
    assert completable(rule, (1, 1, 1, 1), (1, 0, 0, 0))
    assert completable(rule_of("b26"), (9, 0, 0, 0), (7, 0, 0, 0))
    assert not completable(rule_of("b26"), (9, 0, 0, 0), (8, 0, 0, 0))


def test_completable_with_kinds_and_fixed_bills() -> None:
    b19, have = rule_of("b19"), (4, 4, 4, 4)
    assert completable(b19, have, (1, 1, 0, 0))
    assert completable(b19, have, (3, 0, 0, 0))
    assert not completable(b19, have, (4, 0, 0, 0))
    assert not completable(b19, have, (1, 1, 1, 0))
    assert completable(b19, (4, 0, 0, 1), (2, 0, 0, 0))  # 3 wood + 1 gold
    assert not completable(b19, (4, 0, 0, 1), (0, 0, 0, 2))
    b01 = rule_of("b01")
    assert completable(b01, (2, 1, 0, 0), (1, 0, 0, 0))
    assert completable(b01, (2, 1, 0, 0), (2, 1, 0, 0))
    assert not completable(b01, (2, 1, 0, 0), (0, 0, 1, 0))
    assert not completable(b01, (1, 1, 0, 0), (0, 0, 0, 0))


def test_bill_keys_round_trip() -> None:
    assert bill_key((1, 0, 2, 3)) == "pay:1.0.2.3"
    assert parse_bill("1.0.2.3") == (1, 0, 2, 3)
    assert parse_bill("10.0.0.0") == (10, 0, 0, 0)
    for bad in ("", "1.2", "1.2.3", "1.2.3.4.5", "a.0.0.0", "-1.0.0.0", "1..0.0", " 1.0.0.0"):
        assert parse_bill(bad) is None, bad
    assert bill_dict((1, 0, 0, 2)) == {"wood": 1, "gold": 2}


def test_pay_takes_the_bill() -> None:
    player = Player(goods=start_goods(3), people=5)
    player.goods.update(wood=3, clay=1, stone=2, gold=1)
    pay(player, (2, 1, 0, 1))
    assert player.goods == {"food": 3, "wood": 1, "clay": 0, "stone": 2, "gold": 0}


# --- the payment prompts -------------------------------------------------------------


def card4_position(goods: dict[str, int], boons: int = 0) -> StoneAgeState:
    """Seat 0 has a worker on card 4 (cost 4, c01: 7 food) and on the field; the field
    goes by itself, then the card asks its payment."""
    state = scripted(2, dice=[1, 1], row=list(ROW))
    state.players[0].goods.update(goods)
    state.players[0].boons = boons
    start_actions(state, {0: {"card4": 1, "field": 1}, 1: {"hunt": 1, "toolmaker": 1}})
    return state


def test_stepwise_payment_of_a_cost_four_card() -> None:
    state = card4_position({"wood": 4, "clay": 4, "stone": 4, "gold": 4})
    (prompt,) = GAME.pending(state)
    assert prompt.label.code == "sa.prompt.pay_card"
    assert prompt.label.args == {"target": "card4", "paid": {}, "cost": 4}
    assert prompt.keys() == ["add:wood", "add:clay", "add:stone", "add:gold", "decline"]
    assert refused(state, 0, "confirm") == "payment_incomplete"
    assert refused(state, 0, "undo") == "nothing_to_undo"
    assert refused(state, 0, "add:food") == "food_is_not_a_resource"

    play(state, 0, "add:wood")
    assert keys(state) == ["add:wood", "add:clay", "add:stone", "add:gold", "undo", "decline"]
    assert refused(state, 0, "confirm") == "payment_incomplete"
    play(state, 0, "add:wood", "add:clay")
    assert GAME.pending(state)[0].label.args["paid"] == {"wood": 2, "clay": 1}
    play(state, 0, "undo")
    assert GAME.pending(state)[0].label.args["paid"] == {"wood": 2}
    play(state, 0, "add:stone")
    assert "confirm" not in keys(state)
    play(state, 0, "add:gold")
    assert keys(state) == ["confirm", "undo", "decline"]
    assert refused(state, 0, "add:wood") == "wrong_payment"  # a fifth resource
    assert state.players[0].goods["wood"] == 4  # nothing is taken before confirming
    events = play(state, 0, "confirm")
    bought = first(events, "card_bought")
    assert bought.args == {"card": "c01", "slot": 4, "paid": {"wood": 2, "stone": 1, "gold": 1}}
    p0 = state.players[0]
    assert (p0.goods["wood"], p0.goods["clay"], p0.goods["stone"], p0.goods["gold"]) == (
        2, 4, 3, 3,
    )
    assert p0.cards == ["c01"]
    assert p0.goods["food"] == 12 + 7
    assert state.row[3] is None


def test_stepwise_payment_stops_adding_what_one_lacks() -> None:
    state = card4_position({"wood": 4, "clay": 4, "stone": 4, "gold": 1})
    assert keys(state)[:4] == ["add:wood", "add:clay", "add:stone", "add:gold"]
    play(state, 0, "add:gold")
    assert "add:gold" not in keys(state)
    assert refused(state, 0, "add:gold") == "cannot_afford"
    play(state, 0, "undo")
    assert refused(state, 0, "undo") == "nothing_to_undo"
    # The whole bill may still be typed in one go.
    events = play(state, 0, "pay:1.1.1.1")
    assert first(events, "card_bought").args["paid"] == {
        "wood": 1, "clay": 1, "stone": 1, "gold": 1,
    }


def test_a_cost_four_card_with_few_ways_lists_whole_bills() -> None:
    state = card4_position({"wood": 4, "clay": 4, "stone": 3, "gold": 1})
    listed_keys = keys(state)
    assert len(listed_keys) == 24 + 1
    assert listed_keys[0] == "pay:4.0.0.0" and listed_keys[-1] == "decline"
    assert refused(state, 0, "pay:0.0.4.0") == "cannot_afford"
    assert refused(state, 0, "pay:0.0.2.2") == "cannot_afford"
    assert refused(state, 0, "pay:1.1.1.0") == "wrong_payment"
    play(state, 0, "pay:0.0.3.1")
    assert state.players[0].goods["stone"] == 0 and state.players[0].goods["gold"] == 0


def test_a_card_one_cannot_pay_for_is_declined_by_itself() -> None:
    state = scripted(2, dice=[1], row=list(ROW))
    state.players[0].goods.update(wood=2, clay=1)
    events = start_actions(state, {0: {"card4": 1}, 1: {"hunt": 1}})
    declined = first(events, "card_declined")
    assert declined.seat == 0 and declined.args["cannot_pay"] is True
    assert state.row[3] == "c01" and state.players[0].goods["wood"] == 2


def test_a_boon_opens_a_payment_one_could_not_make_otherwise() -> None:
    state = card4_position({"wood": 2}, boons=1)
    assert keys(state) == ["boon", "decline"]
    assert refused(state, 0, "pay:2.0.0.0") == "wrong_payment"
    assert refused(state, 0, "pay:4.0.0.0") == "cannot_afford"
    play(state, 0, "boon", "gain:0.0.0.2")
    assert state.players[0].boons == 0
    assert keys(state) == ["pay:2.0.0.2", "decline"]
    play(state, 0, "pay:2.0.0.2")
    assert state.players[0].cards == ["c01"]


def building_position(pile: list[str], goods: dict[str, int], boons: int = 0) -> StoneAgeState:
    state = scripted(2, dice=[1], row=list(ROW), piles=[pile, ["b04", "b03"]])
    state.players[0].goods.update(goods)
    state.players[0].boons = boons
    start_actions(state, {0: {"bld1": 1}, 1: {"hunt": 1}})
    return state


def test_four_of_exactly_two_kinds_refuses_three_kinds() -> None:
    state = building_position(["b01", "b19"], {"wood": 4, "clay": 4, "stone": 4, "gold": 4})
    (prompt,) = GAME.pending(state)
    assert prompt.label.code == "sa.prompt.pay_building"
    assert prompt.label.args["building"] == "b19"
    assert len(prompt.keys()) == 18 + 1  # 6 pairs of kinds x 3 splits, and decline
    assert refused(state, 0, "pay:2.1.1.0") == "wrong_payment"
    assert refused(state, 0, "pay:1.1.1.1") == "wrong_payment"
    assert refused(state, 0, "pay:4.0.0.0") == "wrong_payment"
    assert refused(state, 0, "pay:2.1.0.0") == "wrong_payment"
    assert refused(state, 0, "pay:0.0.0.5") == "wrong_payment"
    events = play(state, 0, "pay:0.0.2.2")
    built = first(events, "building_built")
    assert built.args == {"building": "b19", "paid": {"stone": 2, "gold": 2}, "points": 22}
    assert state.players[0].points["buildings"] == 22
    assert state.piles[0] == ["b01"]


def test_exact_kinds_tiles_are_always_offered_whole() -> None:
    """Every exact-kinds tile has at most 24 bills, so they are all buttons; building
    one up resource by resource is then neither offered nor accepted when typed."""
    state = building_position(["b01", "b23"], {"wood": 9, "clay": 9, "stone": 9, "gold": 9})
    assert len(keys(state)) == 24 + 1  # 6 pairs of kinds x 4 splits of 5, and decline
    assert not [k for k in keys(state) if k.startswith("add:")]
    assert refused(state, 0, "add:wood") == "unknown_option"
    assert refused(state, 0, "add:food") == "food_is_not_a_resource"
    events = play(state, 0, "pay:3.2.0.0")
    assert first(events, "building_built").args["points"] == 3 * 3 + 2 * 4


def test_a_fixed_building_asks_exactly_its_bill() -> None:
    state = building_position(["b02", "b01"], {"wood": 3, "clay": 2, "stone": 1})
    assert keys(state) == ["pay:2.1.0.0", "decline"]
    assert refused(state, 0, "pay:1.2.0.0") == "wrong_payment"
    assert refused(state, 0, "pay:2.1.1.0") == "wrong_payment"
    events = play(state, 0, "pay:2.1.0.0")
    assert first(events, "building_built").args["points"] == 10
    assert state.players[0].goods["wood"] == 1


def test_a_fixed_building_one_cannot_afford() -> None:
    state = building_position(["b02", "b01"], {"wood": 1, "clay": 1}, boons=1)
    assert keys(state) == ["boon", "decline"]
    assert refused(state, 0, "pay:2.1.0.0") == "cannot_afford"
    events = play(state, 0, "decline")
    assert codes(events)[0] == "building_declined"
    assert state.piles[0] == ["b02", "b01"]
    # Without the boon nobody is asked: the worker comes back with nothing.
    no_boon = scripted(2, dice=[1], row=list(ROW), piles=[["b02", "b01"], ["b04", "b03"]])
    no_boon.players[0].goods.update(wood=1, clay=1)
    events = start_actions(no_boon, {0: {"bld1": 1}, 1: {"hunt": 1}})
    declined = first(events, "building_declined")
    assert declined.seat == 0 and declined.args["cannot_pay"] is True
    assert no_boon.players[0].buildings == [] and no_boon.piles[0] == ["b02", "b01"]


def test_a_variable_building_scores_what_was_paid() -> None:
    state = building_position(["b01", "b26"], {"wood": 1, "clay": 1})
    assert keys(state) == ["pay:1.0.0.0", "pay:0.1.0.0", "pay:1.1.0.0", "decline"]
    assert refused(state, 0, "pay:0.0.0.0") == "wrong_payment"
    events = play(state, 0, "pay:1.1.0.0")
    assert first(events, "building_built").args["points"] == 7


def test_a_building_no_two_resources_card_could_pay_for_is_passed_without_asking() -> None:
    """b01 wants 2 wood and 1 clay; with nothing in stock, a "two resources" card brings
    two of the three: the payment cannot be made, so nobody is asked (the card is kept)."""
    state = building_position(["b19", "b01"], {}, boons=1)
    assert [p.seat for p in GAME.pending(state)] == [1]
    assert state.players[0].buildings == [] and state.players[0].boons == 1


def test_a_two_resources_card_taken_to_no_avail_ends_the_payment_by_itself() -> None:
    """With 1 wood, the card could bring the wood and clay b01 still lacks; taken as two
    gold instead, only "don't build" would be left: the payment ends by itself."""
    state = building_position(["b19", "b01"], {"wood": 1}, boons=1)
    assert keys(state) == ["boon", "decline"]
    events = play(state, 0, "boon", "gain:0.0.0.2")
    assert codes(events)[:2] == ["boon_used", "building_declined"]
    assert first(events, "building_declined").args == {"loc": "bld1", "cannot_pay": True}
    assert state.players[0].goods["gold"] == 2 and state.players[0].buildings == []
