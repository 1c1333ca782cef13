"""Tool tiles: the tool maker's progression, once-per-round use and the reset."""

from __future__ import annotations

import pytest

from engine.stone_age.game import GAME
from engine.stone_age.tools import best_bonus, gain_tool, ready_tools, tool_total
from tests.engine.stone_age.helpers import first, play, scripted, start_actions

# Tiles after each tool step, as the tool maker section describes them: three new tiles
# of 1, then the lowest tile goes up one at a time until all three show 4.
PROGRESSION = [
    [1, 0, 0], [1, 1, 0], [1, 1, 1],
    [2, 1, 1], [2, 2, 1], [2, 2, 2],
    [3, 2, 2], [3, 3, 2], [3, 3, 3],
    [4, 3, 3], [4, 4, 3], [4, 4, 4],
]


def _well_fed(state):
    for player in state.players:
        player.goods["food"] = 100


def test_tool_maker_progression_one_to_twelve_then_nothing_more():
    """Twelve visits to the tool maker climb 1,1,1 → 4,4,4; a thirteenth gives nothing."""
    state = scripted()
    _well_fed(state)
    seen = []
    for visit in range(12):
        events = start_actions(state, {0: {"toolmaker": 1}})
        gained = first(events, "tool_gained")
        assert gained.seat == 0
        seen.append(gained.args["tools"])
        assert state.round == visit + 2  # each visit was a whole round
    assert seen == PROGRESSION
    assert tool_total(state.players[0]) == 12
    events = start_actions(state, {0: {"toolmaker": 1}})
    maxed = first(events, "tools_maxed")
    assert maxed.seat == 0
    assert "tool_gained" not in [e.code for e in events]
    assert state.players[0].tools == [4, 4, 4]


def test_gain_tool_reports_when_board_is_full():
    """The tool step itself refuses a thirteenth tool and leaves the tiles alone."""
    player = GAME.new(2, seed=3).players[0]
    results = [gain_tool(player) for _ in range(13)]
    assert results == [True] * 12 + [False]
    assert player.tools == [4, 4, 4]


def test_used_tools_are_turned_back_at_the_next_round():
    """Tools turned aside during a round are ready again when the next round begins."""
    state = scripted(dice=[1, 1, 2, 2])
    _well_fed(state)
    state.players[0].tools = [1, 1, 0]
    start_actions(state, {0: {"hunt": 2}})
    events = play(state, 0, "take:t0.t1")
    assert first(events, "gathered").args["amount"] == 2
    # The take ended seat 0's actions, the round, feeding, and began round 2.
    assert first(events, "round_started").args["round"] == 2
    assert state.players[0].tools_used == [False, False, False]
    assert ready_tools(state.players[0]) == [0, 1]
    start_actions(state, {0: {"hunt": 2}})
    prompt = GAME.pending(state)[0]
    assert prompt.seat == 0
    # Both +1 tools are ready again: none, one or both of them.
    assert prompt.keys() == ["take", "take:t0", "take:t0.t1"]


def test_used_tools_stay_used_for_the_rest_of_the_round():
    """Within one round a turned tile adds nothing to what later rolls may gain."""
    state = scripted(dice=[1, 2])
    state.players[0].tools = [2, 1, 0]
    start_actions(state, {0: {"hunt": 1, "forest": 1}, 1: {"hunt": 1, "clay": 1}})
    assert best_bonus(state.players[0]) == 3
    play(state, 0, "do:hunt", "take:t0")
    assert best_bonus(state.players[0]) == 1
    assert ready_tools(state.players[0]) == [1]


def _board(tools: list[int], used: list[bool]):
    player = GAME.new(2, seed=3).players[0]
    player.tools, player.tools_used = list(tools), list(used)
    return player


# (tiles, used, tiles after a new tool, used after, values of the ready tiles after,
# best bonus after); None: not checked in that case.
NEW_TOOL = [
    # Three tiles of 1, the first turned aside: the fourth tool raises a ready tile to
    # 2, and the used tile stays a used 1 (the slots keep falling order).
    pytest.param([1, 1, 1], [True, False, False], [2, 1, 1], [False, True, False], [1, 2], 3,
                 id="a ready tile before a used one of the same value"),
    pytest.param([2, 1, 1], [False, True, False], [2, 2, 1], [False, False, True], None, 4,
                 id="the ready tile even when not the leftmost of its value"),
    pytest.param([3, 2, 2], [False, True, True], [3, 3, 2], [False, True, True], None, None,
                 id="every lowest tile used: the raised one stays used"),
    # A ready tile of a higher value does not count: only the lowest go up.
    pytest.param([3, 3, 2], [False, False, True], [3, 3, 3], [False, False, True], None, None,
                 id="only the lowest go up"),
    pytest.param([3, 2, 2], [False, False, False], [3, 3, 2], [False, False, False], None,
                 None, id="nothing used: the leftmost lowest tile"),
]


@pytest.mark.parametrize(("tools", "used", "after", "used_after", "ready", "bonus"), NEW_TOOL)
def test_a_new_tool_raises_the_right_tile(tools: list[int], used: list[bool], after: list[int],
                                          used_after: list[bool], ready: list[int] | None,
                                          bonus: int | None) -> None:
    player = _board(tools, used)
    assert gain_tool(player)
    assert player.tools == after
    assert player.tools_used == used_after
    if ready is not None:
        assert sorted(player.tools[i] for i in ready_tools(player)) == ready
    if bonus is not None:
        assert best_bonus(player) == bonus


def test_a_tool_got_between_two_rolls_helps_the_second_roll_in_full():
    """Seat 0 hunts with one of its three 1-tiles, then takes a tool at the tool maker,
    then rolls in the forest: the upgrade went to a ready tile, so +2 and +1 are ready
    (6 on the dice + 3 = 9, three wood; the used tile would have left only +1 +1)."""
    state = scripted(dice=[2, 3, 3, 3, 1, 1, 1])  # then one die each for the others
    _well_fed(state)
    state.players[0].tools = [1, 1, 1]
    start_actions(state, {0: {"hunt": 2, "toolmaker": 1, "forest": 2},
                          1: {"clay": 1}, 2: {"quarry": 1}, 3: {"river": 1}})
    events = play(state, 0, "do:hunt", "take:t0")
    assert first(events, "gathered").args["amount"] == 3  # 5 + 1 = 6, halved
    events = play(state, 0, "do:toolmaker")
    assert first(events, "tool_gained").args["tools"] == [2, 1, 1]
    assert state.players[0].tools_used == [False, True, False]
    # The forest, the last place left, rolls at once: 3 + 3.
    prompt = GAME.pending(state)[0]
    assert prompt.keys() == ["take", "take:t2", "take:t0", "take:t0.t2"]
    events = play(state, 0, "take:t0.t2")
    gathered = first(events, "gathered")
    assert (gathered.args["total"], gathered.args["amount"]) == (9, 3)
    assert gathered.args["tools"] == [2, 1]
