"""Drawing tiles, bonus turns for gold, and the end of the game."""

from __future__ import annotations

from engine.hunters_gatherers.game import GAME

from .scenario import codes, first, play, scripted

# Closing the start tile's gold forest (E and S sides): HG007 turned twice lies east of
# the start; drawing HG005 and laying it south (only turn 2 fits) completes it.
GOLD = {"laid": [(1, 0, "HG007", 2)]}


def test_gold_forest_gives_the_placer_one_bonus_turn() -> None:
    state = scripted(draw=["HG005", "HG002"], bonus=["HG088", "HG089"], **GOLD)  # type: ignore[arg-type]
    events = play(state, 0, "at:0,1", "none")
    assert first(events, "forest_scored").args["points"] == 6
    assert first(events, "bonus_turn").args == {"tile": "HG088"}
    assert state.turn == 0 and state.current_bonus and state.current == "HG088"
    events = play(state, 0, "at:0,-1", "rot:0", "none")
    assert first(events, "tile_placed").args["bonus"] is True
    assert state.turn == 1 and not state.current_bonus and state.current == "HG002"


def test_unplaceable_bonus_tile_is_discarded_for_the_next() -> None:
    # Close the start river with a spring first: HG086 (rivers on all sides) fits nowhere.
    state = scripted(
        draw=["HG005", "HG002"], bonus=["HG086", "HG088"],
        laid=[(1, 0, "HG007", 2), (-1, 0, "HG042", 1)],
    )
    events = play(state, 0, "at:0,1", "none")
    assert codes(events)[-2:] == ["tile_discarded", "bonus_turn"]
    assert state.discards[-1] == "HG086" and state.current == "HG088"


def test_no_bonus_turn_when_the_bonus_pile_is_empty() -> None:
    state = scripted(draw=["HG005", "HG002"], bonus=[], **GOLD)  # type: ignore[arg-type]
    events = play(state, 0, "at:0,1", "none")
    assert "bonus_turn" not in codes(events) and state.turn == 1


def test_gold_completed_by_a_bonus_tile_gives_no_further_bonus() -> None:
    # Seat 0 is in a bonus turn holding HG090, whose gold forest closes the start's.
    # HG004 turned twice south-east closes the east side of the spot south of the start.
    state = scripted(
        draw=["HG002", "HG003"], bonus=["HG090", "HG088"],
        laid=[(1, 0, "HG007", 2), (1, 1, "HG004", 2)],
    )
    assert state.current is not None
    state.draw.append(state.current)  # put the drawn land tile back on the pile
    state.current, state.current_bonus = state.bonus.pop(), True
    assert state.current == "HG090" and GAME.invariants(state) == []
    play(state, 0, "at:0,1")
    assert state.step == "figure"  # only one turn of HG090 fits there
    events = play(state, 0, "none")
    scored = first(events, "forest_scored")
    assert scored.args["gold"] == 2 and scored.args["points"] == 8
    assert "bonus_turn" not in codes(events)
    assert state.turn == 1 and not state.current_bonus and state.current == "HG002"


def test_game_ends_after_the_last_land_tile_with_the_bonus_pile_unused() -> None:
    state = scripted(draw=["HG002"], bonus=["HG088", "HG089"])
    events = play(state, 0, "at:0,-1", "rot:0", "none")
    assert codes(events)[-1] == "game_over" and state.step == "over"
    assert state.end_reason == "last_tile_placed" and len(state.bonus) == 2
    assert GAME.pending(state) == [] and GAME.result(state) is not None
    assert GAME.invariants(state) == []


def test_tiles_that_fit_nowhere_are_discarded() -> None:
    # With the start river closed, a four-river tile cannot be laid and is set aside.
    state = scripted(draw=["HG079", "HG002"], laid=[(-1, 0, "HG042", 1)])
    assert state.current == "HG002" and state.discards[-1] == "HG079"
