"""Prompts and keys: any-time trades (rubies, the furnishings' conversions, the Peaceful
cave), the last trades before scoring, and refusals that change nothing."""

from __future__ import annotations

from engine.caverna.rounds import open_round
from engine.caverna.state import FeedStep
from tests.engine.caverna.scenario import (
    codes,
    first,
    give,
    keys,
    play,
    prompt,
    refused,
    run,
    scripted,
)


def _cavern(state, seat: int, tile: str, pos=(3, 2)) -> None:  # type: ignore[no-untyped-def]
    space = state.players[seat].board.edit(pos)
    space.tile, space.furnishing = "cavern", tile


def test_a_ruby_buys_a_good_at_any_time() -> None:
    state = scripted(3)
    assert "exchange" not in keys(state, 0)
    give(state, 0, ruby=2)
    play(state, 0, "exchange")
    assert {"buy:wood", "buy:sheep", "buy:gold", "tile:tunnel", "back"} <= set(keys(state, 0))
    play(state, 0, "buy:sheep")
    assert state.players[0].animals["sheep"] == 1 and state.players[0].goods["ruby"] == 1
    play(state, 0, "back")
    assert state.top(0) is None and state.turn == 0


def test_cattle_cost_a_ruby_and_a_food() -> None:
    state = scripted(3)
    give(state, 0, ruby=1)
    play(state, 0, "exchange", "buy:cattle")
    player = state.players[0]
    assert (player.animals["cattle"], player.goods["ruby"], player.goods["food"]) == (1, 0, 0)


def test_rubies_buy_single_tiles_laid_by_the_usual_rules() -> None:
    state = scripted(3)
    give(state, 0, ruby=2)
    play(state, 0, "exchange", "tile:cavern")
    assert keys(state, 0)[-1] == "back"
    lay = keys(state, 0)[0]
    play(state, 0, lay)
    assert state.players[0].goods["ruby"] == 0
    assert state.players[0].board.count("cavern") == 3


def test_the_cooking_cave_helps_with_feeding() -> None:
    state = scripted(3, start=False)
    state.phase = "harvest"
    _cavern(state, 0, "cooking_cave")
    give(state, 0, grain=1, vegetable=1)
    state.push(FeedStep(seat=0, need=5))
    assert "exchange" in keys(state, 0)
    # The Cooking cave's swap is the one trade open: made on opening the trades. 1 + 5
    # food: the trades menu closes (nothing left to trade) and the feeding is paid.
    events = play(state, 0, "exchange")
    assert first(events, "swapped").args["tile"] == "cooking_cave"
    assert state.players[0].goods["food"] == 1
    assert state.top(0) is None


def test_the_beer_parlor_offers_one_of_two_trades() -> None:
    state = scripted(3)
    _cavern(state, 0, "beer_parlor")
    give(state, 0, grain=2)
    play(state, 0, "exchange")
    assert {"swap:beer_parlor:0", "swap:beer_parlor:1"} <= set(keys(state, 0))
    play(state, 0, "swap:beer_parlor:1")
    assert state.players[0].goods["food"] == 1 + 4 and state.players[0].goods["grain"] == 0


def test_the_peaceful_cave_turns_a_weapon_into_food() -> None:
    state = scripted(3)
    _cavern(state, 0, "peaceful_cave")
    state.players[0].dwarfs[1].weapon = 6
    play(state, 0, "exchange")  # the one trade open: made on opening the trades
    assert state.players[0].dwarfs[1].weapon == 0
    assert state.players[0].goods["food"] == 7


def test_last_trades_before_scoring() -> None:
    """After the last harvest a player with a ruby may still buy a missing animal kind."""
    state = scripted(3)
    state.stacks = {}
    state.round = 11
    run(state, open_round)
    give(state, 1, ruby=1)
    for seat in range(3):
        give(state, seat, food=20)
    for player in state.players:
        for dwarf in player.dwarfs:
            dwarf.at = "elsewhere"
    run(state)
    assert state.phase == "final"
    assert "done" in keys(state, 1) and "buy:donkey" in keys(state, 1)
    play(state, 1, "buy:donkey")
    assert state.phase == "over"  # nothing left to trade: no need to say done
    assert state.players[1].animals["donkey"] == 1


def test_refused_keys_change_nothing() -> None:
    state = scripted(3)
    for key, code in (("go:nowhere", "space_not_open"), ("dwarf:1", "dwarf_not_free"),
                      ("exchange", "nothing_to_exchange"), ("bogus", "unknown_option"),
                      ("dwarf:01", "dwarf_not_free")):
        refused(state, 0, key, code)
    play(state, 0, "go:drift_mining_1_3")
    refused(state, 0, "part:7", "part_not_open")
    refused(state, 0, "stop", "part_not_open")


def test_prompt_steps_count_the_open_decisions() -> None:
    state = scripted(3)
    assert prompt(state, 0).step == 1
    play(state, 0, "go:drift_mining_1_3")
    assert prompt(state, 0).step == 2
    play(state, 0, "part:1")
    assert prompt(state, 0).step == 3


def test_furnishings_are_grouped_dwellings_green_yellow() -> None:
    state = scripted(3)
    give(state, 0, wood=20, stone=20, ore=10, gold=10, grain=5, vegetable=5, food=10)
    play(state, 0, "go:housework", "part:1")
    groups = [o.label.args["group"] for o in prompt(state, 0).options]
    assert groups == sorted(groups, key=["dwelling", "green", "yellow"].index)
    assert set(groups) == {"dwelling", "green", "yellow"}
    assert keys(state, 0)[0] == "tile:dwelling" and "tile:blacksmith" in keys(state, 0)
    play(state, 0, "tile:dwelling")
    assert state.players[0].board.has_furnishing("dwelling")


def test_a_twin_tile_goes_by_its_square_then_its_direction() -> None:
    state = scripted(3)
    _cavern(state, 0, "office_room")
    state.players[0].board.edit((3, 1)).tile = "tunnel"
    play(state, 0, "go:excavation_1_3", "part:1")
    first_step = prompt(state, 0).options
    spots = [o for o in first_step if o.key.startswith("at:")]
    assert spots and all(o.label.args["ways"] > 1 for o in spots)
    # a square with one legal placement is laid in one tap
    assert all(o.key.startswith(("at:", "lay:")) for o in first_step)
    play(state, 0, spots[0].key)
    second = keys(state, 0)
    assert second[-1] == "back" and len(second) - 1 == spots[0].label.args["ways"]
    assert all(k.startswith("lay:") and k.split(":")[2].startswith(spots[0].key[3:])
               for k in second[:-1])
    play(state, 0, "back")
    assert keys(state, 0) == [o.key for o in first_step]
    refused(state, 0, second[0].replace("lay:", "at:", 1), "tile_not_here")
    play(state, 0, spots[0].key, second[0])
    assert state.players[0].board.count("cavern") >= 3


def test_a_payment_offers_cheapest_ways_single_conversions_and_trades() -> None:
    state = scripted(4, cards={1: "blacksmithing"})
    give(state, 0, grain=1, vegetable=1, sheep=1, ruby=1)
    player = state.players[0]
    player.goods["food"] = 0
    from engine.caverna.decisions.payment import pay_then as _pay_then

    events: list = []
    _pay_then(state, 0, {"food": 2}, "buy:wood", events)
    got = keys(state, 0)
    ways = [k for k in got if k.startswith("pay:")]
    assert ways[0] == "pay:vegetable*1" and len(ways) <= 3
    assert {"conv:grain", "conv:vegetable", "conv:sheep", "exchange"} <= set(got)
    play(state, 0, "exchange")
    assert "buy:grain" in keys(state, 0) and not any(k.startswith("tile:")
                                                     for k in keys(state, 0))
    play(state, 0, "buy:grain")  # the ruby was the last trade: back to paying
    events = play(state, 0, "conv:grain", "conv:grain")
    # The food is there: paying is all that is left, and the engine pays (and says so).
    assert codes(events)[-2:] == ["paid", "gained"]
    assert (player.goods["food"], player.goods["wood"]) == (0, 1)


def test_a_payment_converts_only_the_gold_the_food_missing_needs() -> None:
    """A bill of 2 food with none: a gold step is 3 gold for 2 food (its label says so),
    and the other gold stays (a grain too, so that there is a choice to make)."""
    state = scripted(4, cards={1: "blacksmithing"})
    give(state, 0, gold=7, grain=1)
    player = state.players[0]
    player.goods["food"] = 0
    from engine.caverna.decisions.payment import pay_then as _pay_then

    _pay_then(state, 0, {"food": 2}, "buy:wood", [])
    [step] = [o for o in prompt(state, 0).options if o.key == "conv:gold"]
    assert step.label.args == {"converted": {"gold": 3}, "food": 2}
    events = play(state, 0, "conv:gold")
    # 3 gold became 2 food, which the bill then took (paid without asking: nothing
    # else was left to choose); the other gold and the grain stay.
    assert first(events, "converted").args == {"kind": "gold", "count": 3, "food": 2}
    assert "paid" in codes(events)
    assert (player.goods["gold"], player.goods["food"], player.goods["grain"]) == (4, 0, 1)


def test_a_step_back_is_offered_only_to_a_real_choice() -> None:
    """With nothing but food, the Dog school is the one furnishing there is: it is
    chosen without asking, and the caverns it fits offer no step back (it would lead
    to a choice the engine makes again at once). With wood, the tile is a choice, and
    the step back to it is offered."""
    from engine.caverna.state import FurnishArgs, FurnishStep

    state = scripted(3)
    state.players[0].board.edit((3, 1)).tile = "cavern"
    state.push(FurnishStep(seat=0, args=FurnishArgs(scope="any")))
    run(state)
    spots = keys(state, 0)
    assert len(spots) == 2 and all(k.startswith("at:") for k in spots)
    assert prompt(state, 0).options[0].label.args["tile"] == "dog_school"
    refused(state, 0, "back", "unknown_option")

    state = scripted(3)
    state.players[0].board.edit((3, 1)).tile = "cavern"
    give(state, 0, wood=2)
    state.push(FurnishStep(seat=0, args=FurnishArgs(scope="any")))
    assert len(keys(state, 0)) > 1
    play(state, 0, "tile:dog_school")
    assert keys(state, 0) == [*spots, "back"]
    play(state, 0, "back")
    assert "tile:dog_school" in keys(state, 0)
