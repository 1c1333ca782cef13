"""Between rounds: sliding and refilling the cards, the marker, and the two game ends."""

from __future__ import annotations

import pytest

from engine.core.errors import IllegalMove
from engine.stone_age.game import GAME
from tests.engine.stone_age.helpers import codes, first, play, scripted, start_actions

ROW = ["c16", "c15", "c13", "c11"]  # slot 1 (rightmost, cost 1) .. slot 4


def _take_slots_two_and_three(state):
    """Seat 0 buys the card in slot 2, seat 1 the card in slot 3; returns the events."""
    state.players[0].goods["wood"] = 2
    state.players[1].goods["wood"] = 3
    start_actions(state, {0: {"card2": 1}, 1: {"card3": 1}})
    events = play(state, 0, "pay:2.0.0.0")
    events += play(state, 1, "pay:3.0.0.0")
    return events


def test_cards_two_and_three_taken_slide_and_refill_from_the_deck():
    """Slot 1 stays, the slot-4 card slides to slot 2, two new cards fill slots 3 and 4."""
    state = scripted(row=list(ROW), deck=["c36", "c02", "c01"])
    events = _take_slots_two_and_three(state)
    assert state.players[0].cards == ["c15"]
    assert state.players[1].cards == ["c13"]
    assert first(events, "round_started").args["round"] == 2
    # The deck's next card (c01) goes to slot 3, the one after it (c02) to slot 4.
    assert state.row == ["c16", "c11", "c01", "c02"]
    assert state.deck == ["c36"]
    view_row = GAME.view(state, None).row
    assert [(r.loc, r.cost, r.card.id if r.card else None) for r in view_row] == [
        ("card1", 1, "c16"), ("card2", 2, "c11"), ("card3", 3, "c01"), ("card4", 4, "c02"),
    ]


def test_new_round_passes_the_marker_left_and_clears_the_board():
    """After feeding the next seat becomes first, places first, and tools are ready again."""
    state = scripted(row=list(ROW), deck=["c36", "c02", "c01"])
    state.players[1].tools = [1, 0, 0]
    state.players[1].tools_used = [True, False, False]
    events = _take_slots_two_and_three(state)
    assert first(events, "round_started").seat == 1
    assert (state.round, state.first, state.turn, state.phase) == (2, 1, 1, "placement")
    assert all(p.placed == {} for p in state.players)
    assert state.players[1].tools_used == [False, False, False]
    assert [p.seat for p in GAME.pending(state)] == [1]
    with pytest.raises(IllegalMove) as err:
        GAME.apply(state, 0, "at:hunt")
    assert err.value.code == "not_your_turn"


def test_marker_wraps_from_the_last_seat_to_the_first():
    """With the last seat holding the marker, it goes back to seat 0."""
    state = scripted(3)
    state.first = 2
    start_actions(state, {})
    assert (state.first, state.turn) == (0, 0)


def test_deck_too_short_to_refill_ends_the_game_at_once():
    """Two empty slots but one card left: the game ends, no new round is placed."""
    state = scripted(row=list(ROW), deck=["c01"])
    events = _take_slots_two_and_three(state)
    # The round's feeding was done, then the game stopped instead of a new round.
    assert codes(events).index("fed") < codes(events).index("game_over")
    assert "round_started" not in codes(events)
    assert first(events, "game_over").args == {"reason": "cards_exhausted"}
    assert state.phase == "over"
    assert state.round == 1
    assert GAME.pending(state) == []
    with pytest.raises(IllegalMove) as err:
        GAME.apply(state, 1, "at:hunt")
    assert err.value.code == "game_over"
    result = GAME.result(state)
    assert result is not None
    assert result.reason == "cards_exhausted"
    # Card points scored during play are in the result.
    assert result.scores[0].breakdown["cards"] == 3


def test_deck_exactly_enough_to_refill_keeps_playing():
    """Two empty slots and two cards in the deck: the next round starts with an empty deck."""
    state = scripted(row=list(ROW), deck=["c02", "c01"])
    _take_slots_two_and_three(state)
    assert state.phase == "placement"
    assert state.round == 2
    assert state.deck == []
    assert state.row == ["c16", "c11", "c01", "c02"]
    # A round in which nobody takes a card needs no refill, so play goes on.
    start_actions(state, {})
    assert (state.phase, state.round) == ("placement", 3)
    assert GAME.result(state) is None


def test_emptied_building_pile_ends_the_game_after_the_round_and_feeding():
    """The last tile of a pile is bought: everyone still acts and eats, then the game ends."""
    state = scripted(dice=[3, 3], piles=[["b01"], ["b02", "b03"], ["b04"], ["b05"]])
    state.players[0].goods.update(wood=2, clay=1)
    state.players[2].goods["food"] = 0  # will go hungry
    state.players[3].goods.update(food=0, stone=5)  # will be asked how to eat
    start_actions(state, {0: {"bld1": 1}, 1: {"hunt": 2}})
    events = play(state, 0, "pay:2.1.0.0")
    assert first(events, "pile_empty").args == {"loc": "bld1", "pile": 1}
    assert state.last_round is True
    # Seat 1 still hunted after the pile ran out.
    hunt = first(events, "gathered")
    assert (hunt.seat, hunt.args["amount"]) == (1, 3)
    assert codes(events).index("pile_empty") < codes(events).index("gathered")
    # Feeding is under way and waits for seat 3; the game is not over yet.
    assert state.phase == "feeding"
    assert GAME.result(state) is None
    assert [p.seat for p in GAME.pending(state)] == [3]
    assert "hungry" in codes(events)
    events = play(state, 3, "pay:0.0.5.0")
    assert codes(events)[-1] == "game_over"
    assert first(events, "game_over").args == {"reason": "building_pile_empty"}
    assert "round_started" not in codes(events)
    assert state.phase == "over"
    assert state.round == 1
    assert GAME.pending(state) == []
    result = GAME.result(state)
    assert result is not None
    assert result.reason == "building_pile_empty"
    assert result.scores[0].breakdown["buildings"] == 10
    assert result.scores[2].breakdown["feeding"] == -10
    assert result.winners == [0]


def test_building_pile_with_tiles_left_does_not_end_the_game():
    """Taking a tile that is not a pile's last one lets the game go on."""
    state = scripted(piles=[["b07", "b01"], ["b02"], ["b03"], ["b04"]])
    state.players[0].goods.update(wood=2, clay=1)
    start_actions(state, {0: {"bld1": 1}})
    events = play(state, 0, "pay:2.1.0.0")
    assert "pile_empty" not in codes(events)
    assert (state.phase, state.round) == ("placement", 2)
    assert "bld1" in [o.key[3:] for o in GAME.pending(state)[0].options]
