"""The three steps of a turn: spots (paged), rotations, figures; refusals change nothing."""

from __future__ import annotations

import random

import pytest

from engine.core.errors import IllegalMove
from engine.hunters_gatherers.decisions import PAGE_SIZE, parse_spot
from engine.hunters_gatherers.game import GAME
from engine.hunters_gatherers.state import HuntersGatherersState

from .scenario import play, scripted


def refused(state: HuntersGatherersState, seat: int, key: str) -> str:
    """The code ``key`` is refused with; the state must be unchanged."""
    before = GAME.dump(state)
    with pytest.raises(IllegalMove) as err:
        GAME.apply(state, seat, key)
    assert GAME.dump(state) == before
    return err.value.code


def test_spot_keys_are_strict() -> None:
    assert parse_spot("at:-2,0") == (-2, 0)
    for bad in ("at:-0,1", "at:01,0", "at:1", "at:1,2,3", "at:+1,0", "at: 1,0", "xy"):
        assert parse_spot(bad) is None


def test_illegal_choices_are_refused_with_their_reason_and_change_nothing() -> None:
    state = scripted(draw=["HG061", "HG002"], laid=[(-1, 0, "HG028", 0)])
    assert refused(state, 1, "at:-2,0") == "not_your_turn"
    assert refused(state, 0, "bogus") == "unknown_option"
    assert refused(state, 0, "at:01,0") == "unknown_option"
    assert refused(state, 0, "more") == "unknown_option"  # a single page
    assert refused(state, 0, "at:0,0") == "no_such_spot"  # taken
    assert refused(state, 0, "at:7,7") == "no_such_spot"  # touches nothing
    rivers_only = scripted(draw=["HG079", "HG002"])  # four river sides
    assert refused(rivers_only, 0, "at:0,-1") == "does_not_fit"
    play(state, 0, "at:-2,0")
    assert refused(state, 0, "fig:gatherer:1") == "wrong_feature"
    assert refused(state, 0, "fig:hunter:9") == "wrong_feature"
    assert refused(state, 0, "fig:wizard:0") == "unknown_option"
    assert refused(state, 0, "fig:fisher:x") == "unknown_option"
    state.players[0].members = 0
    assert refused(state, 0, "fig:fisher:0") == "no_figures_left"


def test_rotation_step_refuses_turns_that_do_not_fit() -> None:
    state = scripted(draw=["HG003", "HG002"])
    play(state, 0, "at:0,-1")  # all-meadow tile above the start: every turn fits
    assert GAME.pending(state)[0].keys() == ["rot:0", "rot:1", "rot:2", "rot:3", "back"]
    assert refused(state, 0, "rot:4") == "unknown_option"
    state2 = scripted(draw=["HG028", "HG002"])
    play(state2, 0, "at:-1,0")
    assert GAME.pending(state2)[0].keys() == ["rot:0", "rot:2", "back"]
    assert refused(state2, 0, "rot:1") == "does_not_fit"


def test_back_undoes_rotation_then_spot() -> None:
    state = scripted(draw=["HG028", "HG002"])
    play(state, 0, "at:-1,0", "rot:2")
    assert state.step == "figure"
    play(state, 0, "back")
    assert state.step == "rotation" and state.rotation is None
    play(state, 0, "back")
    assert state.step == "spot" and state.spot is None
    # with a single legal turn, back from the figure step returns to the spot step
    single = scripted(draw=["HG061", "HG002"], laid=[(-1, 0, "HG028", 0)])
    play(single, 0, "at:-2,0", "back")
    assert single.step == "spot" and single.spot is None


def test_huts_and_fishermen_do_not_block_each_other() -> None:
    # A fisherman of seat 1 on the start river: seat 0 may add a hut but no fisherman.
    state = scripted(draw=["HG028", "HG002"], figures=[(0, 0, "fisher", "river", 0, 1)])
    play(state, 0, "at:-1,0", "rot:0")
    keys = GAME.pending(state)[0].keys()
    assert "fig:hut:0" in keys and "fig:fisher:0" not in keys
    assert refused(state, 0, "fig:fisher:0") == "feature_occupied"
    play(state, 0, "fig:hut:0")
    assert state.players[0].huts == 1
    # and the other way round: a hut there lets a fisherman in, but no second hut
    other = scripted(draw=["HG028", "HG002"], figures=[(0, 0, "hut", "river", 0, 1)])
    play(other, 0, "at:-1,0", "rot:0")
    keys = GAME.pending(other)[0].keys()
    assert "fig:fisher:0" in keys and "fig:hut:0" not in keys
    assert refused(other, 0, "fig:hut:0") == "feature_occupied"


def test_a_hut_anywhere_in_the_river_system_blocks_a_new_hut() -> None:
    # The start lake joins HG028's river to the start river: one system.
    state = scripted(
        draw=["HG061", "HG002"],
        laid=[(-1, 0, "HG028", 0)],
        figures=[(0, 0, "hut", "river", 0, 1)],
    )
    play(state, 0, "at:-2,0")
    assert refused(state, 0, "fig:hut:0") == "feature_occupied"


def test_merged_meadow_blocks_a_new_hunter() -> None:
    # HG003 at (0,-1) with a hunter; the new all-meadow tile west of it joins that meadow.
    state = scripted(
        draw=["HG002", "HG005"],
        laid=[(0, -1, "HG003", 0)],
        figures=[(0, -1, "hunter", "meadow", 0, 1)],
    )
    play(state, 0, "at:-1,-1", "rot:0")
    offered = GAME.pending(state)[0].keys()
    assert "fig:hunter:0" not in offered
    assert refused(state, 0, "fig:hunter:0") == "feature_occupied"


def _state_with_many_spots() -> HuntersGatherersState:
    agent = random.Random(5)
    state = GAME.new(2, 5)
    while GAME.pending(state):
        prompt = GAME.pending(state)[0]
        if prompt.label.code == "hg.prompt.spot" and prompt.label.args["pages"] > 1:
            return state
        options = [o for o in prompt.options if o.key not in ("back", "more")]
        GAME.apply(state, prompt.seat, agent.choice(options).key)
    raise AssertionError("no prompt with several pages")


def test_spots_are_paged_and_numbered_like_the_view() -> None:
    state = _state_with_many_spots()
    listed = GAME.view(state, 0)["spots"]
    seen: list[str] = []
    prompt = GAME.pending(state)[0]
    for _ in range(prompt.label.args["pages"]):
        prompt = GAME.pending(state)[0]
        assert len(prompt.options) <= PAGE_SIZE + 1
        assert prompt.options[-1].key == "more"
        for option in prompt.options[:-1]:
            seen.append(option.key)
            n = option.label.args["n"]
            assert listed[n - 1]["x"] == option.label.args["x"]
        GAME.apply(state, 0 if state.turn == 0 else state.turn, "more")
    assert seen == [f"at:{s['x']},{s['y']}" for s in listed]
    assert state.page == 0  # wrapped round
