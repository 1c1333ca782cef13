"""Gathering with dice and tools: the rulebook's hunting and river examples."""

from __future__ import annotations

import random

import pytest

from engine.core.errors import IllegalMove
from engine.core.prompts import Prompt
from engine.stone_age.game import GAME
from engine.stone_age.gathering import tool_uses
from engine.stone_age.state import RollStep, StoneAgeState
from engine.stone_age.tools import ready_tools
from tests.engine.patching import patch_source
from tests.engine.stone_age.helpers import codes, first, play, scripted, start_actions
from tests.engine.stone_age.reach import offered, outcomes

# Seat 1 keeps two locations, so the round stops at its turn and seat 0's stock is read
# before feeding touches it.
BYSTANDER = {"forest": 1, "clay": 1}


def _prompt(state, seat):
    """The open prompt of ``seat`` (fails if it has none)."""
    for prompt in GAME.pending(state):
        if prompt.seat == seat:
            return prompt
    raise AssertionError(f"seat {seat} has no prompt: {GAME.pending(state)}")


def _take_amount(state, seat, key="take"):
    """The yield an option of the open roll announces (``take``: without tools)."""
    option = next(o for o in _prompt(state, seat).options if o.key == key)
    return option.label.args["amount"]


def test_hunt_five_dice_fourteen_without_tools_gives_seven_food():
    """Blue hunts with five dice, rolls 14, has no tools and takes 7 food."""
    state = scripted(dice=[3, 3, 3, 3, 2])
    events = start_actions(state, {0: {"hunt": 5}, 1: BYSTANDER})
    gathered = first(events, "gathered")
    assert gathered.args["amount"] == 7
    assert gathered.args["total"] == 14
    assert gathered.args["tools"] == []
    assert state.players[0].goods["food"] == 12 + 7
    # Nothing to decide: the roll resolved by itself.
    assert [p.seat for p in GAME.pending(state)] == [1]


def test_hunt_three_dice_eleven_with_tool_one_gives_six_food_and_uses_the_tool():
    """Green rolls 11 on three dice, adds his tool of 1 to reach 12 and takes 6 food."""
    state = scripted(dice=[5, 4, 2, 1, 1])
    state.players[0].tools = [1, 0, 0]
    state.players[0].one_use_tools = [2]  # keeps a later roll open to inspect
    start_actions(state, {0: {"hunt": 3, "forest": 2}, 1: BYSTANDER})
    play(state, 0, "do:hunt")
    prompt = _prompt(state, 0)
    # Every way to add the tile of 1 and the one-use 2, each taken in one press.
    assert prompt.keys() == ["take", "take:t0", "take:o0", "take:t0.o0"]
    assert [o.label.args["amount"] for o in prompt.options] == [5, 6, 6, 7]
    events = play(state, 0, "take:t0")
    gathered = first(events, "gathered")
    assert (gathered.args["total"], gathered.args["amount"]) == (12, 6)
    assert gathered.args["tools"] == [1]
    assert state.players[0].goods["food"] == 12 + 6
    assert state.players[0].tools_used == [True, False, False]
    assert state.players[0].one_use_tools == [2]
    # The forest roll (1 + 1) resolves next; the turned tile is no longer offered.
    prompt = _prompt(state, 0)
    assert prompt.label.args["resource"] == "wood"
    assert prompt.keys() == ["take", "take:o0"]
    for key in ("take:t0", "tool:0"):
        with pytest.raises(IllegalMove) as err:
            GAME.apply(state, 0, key)
        assert err.value.code == "tool_not_ready"


def test_hunt_two_dice_four_with_two_tools_of_one_gives_three_food():
    """Yellow rolls 4 on two dice, turns both tools of 1 to reach 6 and takes 3 food."""
    state = scripted(dice=[1, 3])
    state.players[0].tools = [1, 1, 0]
    start_actions(state, {0: {"hunt": 2}, 1: BYSTANDER})
    # Two tools of one value are alike: none, one or both of them.
    assert _prompt(state, 0).keys() == ["take", "take:t0", "take:t0.t1"]
    assert _take_amount(state, 0, "take:t0.t1") == 3
    events = play(state, 0, "take:t0.t1")
    gathered = first(events, "gathered")
    assert (gathered.args["total"], gathered.args["amount"]) == (6, 3)
    assert state.players[0].goods["food"] == 12 + 3
    assert state.players[0].tools_used == [True, True, False]


def test_tool_toggled_off_again_is_not_used():
    """A tool added to a roll and withdrawn again before taking stays ready (the
    toggles of games logged before tools were chosen in one press)."""
    state = scripted(dice=[1, 3])
    state.players[0].tools = [1, 1, 0]
    start_actions(state, {0: {"hunt": 2}, 1: BYSTANDER})
    play(state, 0, "tool:0", "tool:1", "tool:1")
    assert _take_amount(state, 0) == 2
    play(state, 0, "take")
    assert state.players[0].goods["food"] == 12 + 2
    assert state.players[0].tools_used == [True, False, False]


def test_river_five_with_only_tool_already_used_gives_no_gold_without_asking():
    """Green spent his only tool hunting, so his river roll of 5 brings no gold."""
    state = scripted(dice=[5, 2, 3])
    state.players[0].tools = [1, 0, 0]
    start_actions(state, {0: {"hunt": 1, "river": 2}, 1: BYSTANDER})
    play(state, 0, "do:hunt")
    events = play(state, 0, "take:t0")
    # The hunt took the tool; the river roll then resolved on its own (no prompt).
    assert codes(events) == ["gathered", "rolled", "gathered"]
    river = [e for e in events if e.code == "gathered"][1]
    assert river.args["source"] == "river"
    assert (river.args["total"], river.args["amount"]) == (5, 0)
    assert river.args["tools"] == []
    assert state.players[0].goods["gold"] == 0
    assert state.players[0].goods["food"] == 12 + 3
    assert [p.seat for p in GAME.pending(state)] == [1]


def test_river_seven_with_three_tools_of_two_gives_two_gold():
    """Red rolls 7 on three dice at the river, adds three tools of 2 to make 13: 2 gold."""
    state = scripted(dice=[1, 2, 4])
    state.players[0].tools = [2, 2, 2]
    start_actions(state, {0: {"river": 3}, 1: BYSTANDER})
    # Three tools of 2 are alike: none, one, two or all three of them.
    assert _prompt(state, 0).keys() == ["take", "take:t0", "take:t0.t1", "take:t0.t1.t2"]
    assert _take_amount(state, 0) == 1
    events = play(state, 0, "take:t0.t1.t2")
    gathered = first(events, "gathered")
    assert (gathered.args["total"], gathered.args["amount"]) == (13, 2)
    assert gathered.args["tools"] == [2, 2, 2]
    assert state.players[0].goods["gold"] == 2
    assert state.players[0].tools_used == [True, True, True]


@pytest.mark.parametrize(
    ("site", "resource", "dice", "expected"),
    [
        ("hunt", "food", [6, 5], 5),
        ("forest", "wood", [6, 5], 3),
        ("clay", "clay", [6, 5], 2),
        ("quarry", "stone", [6, 5], 2),
        ("river", "gold", [6, 5], 1),
    ],
)
def test_each_site_divides_by_its_own_number(site, resource, dice, expected):
    """The same roll of 11 yields 11 // divisor: hunt 2, wood 3, clay 4, stone 5, gold 6."""
    state = scripted(dice=dice)
    start_actions(state, {0: {site: 2}, 1: BYSTANDER})
    assert state.players[0].goods[resource] == (12 if resource == "food" else 0) + expected


def test_tools_that_cannot_raise_the_yield_are_not_offered():
    """A roll of 9 for wood with one tool of 1 stays at 3 wood, so nobody is asked."""
    state = scripted(dice=[4, 5])
    state.players[0].tools = [1, 0, 0]
    events = start_actions(state, {0: {"forest": 2}, 1: {"hunt": 1, "clay": 1}})
    assert first(events, "gathered").args["amount"] == 3
    assert state.players[0].tools_used == [False, False, False]
    assert [p.seat for p in GAME.pending(state)] == [1]


# --- tools in one press reach what adding them one at a time reached ------------------


def _roll_turn(seed: int) -> StoneAgeState:
    """Seat 0 rolls for one random site with random tiles (some turned aside) and one-use
    tools; seat 1 keeps two places, so the game waits there afterwards."""
    rnd = random.Random(seed)
    site = rnd.choice(["hunt", "forest", "clay", "quarry", "river"])
    people = rnd.randint(1, 4)
    state = scripted(2, dice=[rnd.randint(1, 6) for _ in range(people)])
    player = state.players[0]
    tiles = sorted((rnd.randint(1, 4) for _ in range(rnd.randint(1, 3))), reverse=True)
    player.tools = [*tiles, *[0] * (3 - len(tiles))]
    player.tools_used = [v > 0 and rnd.random() < 0.25 for v in player.tools]
    player.one_use_tools = [rnd.randint(2, 4) for _ in range(rnd.choice([0, 1, 2]))]
    player.people = max(player.people, people)
    start_actions(state, {0: {site: people}, 1: BYSTANDER})
    if _roll_done(state):  # tools could not change this roll: nobody was asked
        return _roll_turn(seed + 1000)
    return state


def _roll_done(state: StoneAgeState) -> bool:
    return not any(isinstance(step, RollStep) for step in state.stacks.get(0, []))


def _one_at_a_time(state: StoneAgeState, prompt: Prompt) -> list[str]:
    """A roll as it was asked at this issue's base: any ready tile or one-use tool added
    or withdrawn, one press each, then ``take``."""
    if prompt.label.code != "sa.prompt.roll":
        return offered(state, prompt)
    player = state.players[prompt.seat]
    return [*(f"tool:{i}" for i in ready_tools(player)),
            *(f"once:{i}" for i in range(len(player.one_use_tools))), "take"]


@pytest.mark.parametrize("seed", range(40))
def test_tools_in_one_press_reach_every_outcome_of_adding_them_one_at_a_time(seed):
    state = _roll_turn(seed)
    now = outcomes(state, _roll_done)
    assert now == outcomes(state, _roll_done, _one_at_a_time)
    assert len(now) == len(GAME.pending(state)[0].options)  # each option its own outcome


@pytest.mark.interpreted
def test_the_roll_comparison_finds_a_way_of_adding_tools_left_out():
    state = scripted(dice=[3])
    state.players[0].tools = [2, 1, 0]
    start_actions(state, {0: {"forest": 1}, 1: BYSTANDER})
    before = outcomes(state, _roll_done, _one_at_a_time)
    with patch_source("engine.stone_age.decisions.tool_uses",
                    lambda player: tool_uses(player)[:-1]):
        assert outcomes(state, _roll_done) < before
