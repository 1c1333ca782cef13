"""Tool tiles: the tool maker's progression, once-per-round use and the reset."""

from __future__ import annotations

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
    events = play(state, 0, "tool:0", "tool:1", "take")
    assert first(events, "gathered").args["amount"] == 2
    # The take ended seat 0's actions, the round, feeding, and began round 2.
    assert first(events, "round_started").args["round"] == 2
    assert state.players[0].tools_used == [False, False, False]
    assert ready_tools(state.players[0]) == [0, 1]
    start_actions(state, {0: {"hunt": 2}})
    prompt = GAME.pending(state)[0]
    assert prompt.seat == 0
    assert prompt.keys() == ["tool:0", "tool:1", "take"]


def test_used_tools_stay_used_for_the_rest_of_the_round():
    """Within one round a turned tile adds nothing to what later rolls may gain."""
    state = scripted(dice=[1, 2])
    state.players[0].tools = [2, 1, 0]
    start_actions(state, {0: {"hunt": 1, "forest": 1}, 1: {"hunt": 1, "clay": 1}})
    assert best_bonus(state.players[0]) == 3
    play(state, 0, "do:hunt", "tool:0", "take")
    assert best_bonus(state.players[0]) == 1
    assert ready_tools(state.players[0]) == [1]
