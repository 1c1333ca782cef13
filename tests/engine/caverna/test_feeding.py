"""Food: conversions, the cheapest ways to pay, rubies standing in, feeding, begging."""

from __future__ import annotations

import random

from engine.caverna.feeding import (
    can_pay,
    covers,
    decode,
    encode,
    food_from,
    food_needed,
    pay,
    ways_to_pay,
)
from engine.caverna.state import Dwarf, FeedStep, Player
from tests.engine.caverna.scenario import first, keys, play, refused, scripted


def test_conversion_rates() -> None:
    assert [food_from(k, 1) for k in ("grain", "vegetable", "sheep", "wild_boar", "cattle",
                                      "ruby")] == [1, 2, 1, 2, 3, 2]
    assert [food_from("donkey", n) for n in (1, 2, 3, 4)] == [1, 3, 4, 6]


def test_gold_buys_one_food_less_than_the_coins() -> None:
    assert [food_from("gold", n) for n in (1, 2, 3, 4, 7)] == [0, 1, 2, 3, 6]


def _minimal(have: dict[str, int], conv: dict[str, int], need: int) -> bool:
    total = sum(food_from(k, n) for k, n in conv.items())
    if total < need or any(conv[k] > have[k] for k in conv):
        return False
    for kind in conv:
        less = dict(conv, **{kind: conv[kind] - 1})
        if sum(food_from(k, n) for k, n in less.items()) >= need:
            return False
    return True


def test_covers_are_cheapest_first_and_never_wasteful() -> None:
    have = {"grain": 3, "vegetable": 1, "ruby": 1, "gold": 4, "sheep": 2, "cattle": 1}
    found = covers(have, 4)
    assert found[0] == {"grain": 2, "vegetable": 1}
    assert 1 < len(found) <= 5
    assert len({encode(c) for c in found}) == len(found)
    for conv in found:
        assert _minimal(have, conv, 4), conv


def test_no_cover_when_everything_is_not_enough() -> None:
    assert covers({"grain": 1, "gold": 1}, 2) == []


def test_slaughtering_cave_adds_a_food_per_animal() -> None:
    assert food_from("sheep", 2, bonus=1) == 4
    assert food_from("grain", 2, bonus=1) == 2


def test_keys_spell_conversions_canonically() -> None:
    assert encode({"sheep": 1, "grain": 2}) == "grain*2+sheep*1"
    assert decode("grain*2+sheep*1") == {"grain": 2, "sheep": 1}
    assert decode("sheep*1+grain*2") is None
    assert decode("grain*0") is None and decode("dog*1") is None and decode("") is None


def test_rubies_stand_in_for_missing_materials() -> None:
    player = Player()
    player.goods.update(wood=3, stone=3, ruby=2)
    assert can_pay(player, {"wood": 4, "stone": 3})
    assert ways_to_pay(player, {"wood": 4, "stone": 3}) == [{}]
    stand_in = pay(player, {"wood": 4, "stone": 3}, {})
    assert stand_in == {"wood": 1}
    assert (player.goods["wood"], player.goods["stone"], player.goods["ruby"]) == (0, 0, 1)
    assert not can_pay(player, {"wood": 1, "stone": 1})


def test_a_food_bill_short_of_food_offers_conversions() -> None:
    player = Player()
    player.goods.update(food=1, grain=1, vegetable=1)
    ways = ways_to_pay(player, {"food": 3})
    assert ways[0] == {"vegetable": 1}
    pay(player, {"food": 3}, ways[0])
    assert player.goods["food"] == 0 and player.goods["vegetable"] == 0


def test_food_needed_two_per_dwarf_one_for_a_newborn() -> None:
    player = Player()
    player.dwarfs = [Dwarf(), Dwarf(), Dwarf(born=True)]
    assert food_needed(player, 2) == 5
    assert food_needed(player, 1) == 3


def _feeding(food: int, **goods: int):  # type: ignore[no-untyped-def]
    state = scripted(3, start=False)
    state.phase = "harvest"
    player = state.players[0]
    player.goods.update(food=food, **{k: v for k, v in goods.items() if k in player.goods})
    player.animals.update({k: v for k, v in goods.items() if k in player.animals})
    state.push(FeedStep(seat=0, need=4))
    return state


def test_begging_for_each_missing_food() -> None:
    state = _feeding(1, grain=1)
    assert keys(state, 0) == ["conv:grain", "beg"]
    events = play(state, 0, "beg")
    assert state.players[0].begging == 3
    assert state.players[0].goods["food"] == 0 and state.players[0].goods["grain"] == 1
    assert first(events, "begged").args == {"food": 1, "markers": 3}


def test_convert_a_little_then_beg_for_the_rest() -> None:
    """Once nothing is left to convert, the rest is begged for without asking."""
    state = _feeding(1, grain=1)
    events = play(state, 0, "conv:grain")
    assert state.players[0].begging == 2
    assert first(events, "begged").args == {"food": 2, "markers": 2}


def test_a_cover_pays_the_feeding_in_one_step() -> None:
    state = _feeding(0, vegetable=2, sheep=3)
    assert keys(state, 0)[0] == "cover:vegetable*2"
    play(state, 0, "cover:vegetable*2")
    assert state.top(0) is None
    assert state.players[0].goods["food"] == 0


def test_with_nothing_to_convert_begging_needs_no_decision() -> None:
    from tests.engine.caverna.scenario import run

    state = _feeding(1)
    run(state)
    assert state.players[0].begging == 3


def test_working_cave_feeds_one_dwarf_with_wood() -> None:
    state = _feeding(2, wood=1)
    state.players[0].board.edit((3, 2)).furnishing = "working_cave"
    assert "work:wood" in keys(state, 0)
    play(state, 0, "work:wood")
    assert state.players[0].goods["wood"] == 0
    assert state.top(0) is None and state.players[0].goods["food"] == 0


def test_no_begging_while_an_any_time_trade_could_still_give_food() -> None:
    """The Spare part storage turns wood, stone and ore into 2 gold (1 food): the player
    is asked instead of begging at once; without it the feeding is begged away."""
    from tests.engine.caverna.scenario import run

    state = _feeding(0, wood=1, stone=1, ore=1)
    state.players[0].board.edit((3, 2)).furnishing = "spare_part_storage"
    run(state)
    assert keys(state, 0) == ["exchange", "beg"]
    play(state, 0, "exchange")  # the storage's swap, the one trade open, is made
    assert state.players[0].goods["gold"] == 2
    assert "conv:gold" in keys(state, 0)

    bare = _feeding(0, wood=1, stone=1, ore=1)
    run(bare)
    assert bare.players[0].begging == 4


def _option(state, key: str):  # type: ignore[no-untyped-def]
    from tests.engine.caverna.scenario import prompt

    return next(o for o in prompt(state, 0).options if o.key == key)


def test_a_gold_step_buys_the_food_missing_and_keeps_the_rest() -> None:
    """Gold buys food at 1 coin more than the food (rulebook): with 3 food missing and 10
    gold, one step pays 4 gold for 3 food; the other 6 stay (a point each). The option
    says exactly that, and so does the event."""
    state = _feeding(1, gold=10)
    # Here the gold step is a whole way to feed too: one option, not two alike.
    option = _option(state, "cover:gold*4")
    assert option.label.args == {"converted": {"gold": 4}, "food": 3}
    assert "conv:gold" not in keys(state, 0)
    refused(state, 0, "conv:gold", "unknown_option")
    events = play(state, 0, "cover:gold*4")
    player = state.players[0]
    assert (player.goods["gold"], player.begging, state.top(0)) == (6, 0, None)
    assert first(events, "converted").args == {"goods": {"gold": 4}, "food": 3}


def test_with_less_gold_than_the_need_a_gold_step_takes_it_all() -> None:
    state = _feeding(0, gold=3)
    assert _option(state, "conv:gold").label.args == {"converted": {"gold": 3}, "food": 2}
    play(state, 0, "conv:gold")
    assert state.players[0].goods["gold"] == 0 and state.players[0].begging == 2


def test_a_donkey_step_says_it_takes_the_pair() -> None:
    state = _feeding(0, donkey=3)
    assert _option(state, "conv:donkey").label.args == {"converted": {"donkey": 2}, "food": 3}
    assert _option(state, "conv:donkey").label.args["food"] == food_from("donkey", 2)
    # all three cover the need (3 + 1 food): a whole way, saying so
    assert _option(state, "cover:donkey*3").label.args == {"converted": {"donkey": 3},
                                                           "food": 4}


def test_can_pay_says_whether_there_is_a_way_to_pay() -> None:
    """``can_pay`` only adds up the food everything spare would give; it must agree
    with looking for the ways themselves, with and without the Slaughtering cave's
    bonus, rubies standing in and bills that take what could be converted."""
    pick = random.Random(24)
    outcomes = []
    for trial in range(3000):
        player = Player()
        if trial % 3 == 0:
            player.board.edit((1, 4)).furnishing = "slaughtering_cave"
        for good in ("food", "wood", "stone", "ore", "grain", "vegetable", "gold", "ruby"):
            player.goods[good] = pick.randint(0, 4)
        for animal in ("sheep", "donkey", "wild_boar", "cattle"):
            player.animals[animal] = pick.randint(0, 3)
        bill = {good: pick.randint(0, 3) for good in pick.sample(
            ["wood", "stone", "ore", "grain", "vegetable", "gold", "ruby"], 2)}
        bill["food"] = pick.randint(0, 25)
        outcome = can_pay(player, bill)
        assert outcome == bool(ways_to_pay(player, bill)), (player, bill)
        outcomes.append(outcome)
    assert 0.2 < sum(outcomes) / len(outcomes) < 0.8  # both answers are exercised
