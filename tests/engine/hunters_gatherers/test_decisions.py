"""The three steps of a turn: spots (all of them), rotations, figures; refusals change
nothing; a figure step with nothing to place is skipped."""

from __future__ import annotations

import random

import pytest

from engine.core.errors import IllegalMove
from engine.hunters_gatherers.board import board_of
from engine.hunters_gatherers.coords import CURRENT, FIRST
from engine.hunters_gatherers.decisions import parse_spot
from engine.hunters_gatherers.game import GAME
from engine.hunters_gatherers.geometry import neighbour, opposite
from engine.hunters_gatherers.state import HuntersGatherersState
from tests.engine.events import refusal

from .scenario import codes, first, play, scripted


def refused(state: HuntersGatherersState, seat: int, key: str) -> str:
    """The code ``key`` is refused with; the state must be unchanged."""
    return refusal(GAME, state, seat, key)


def test_spot_keys_are_strict() -> None:
    assert parse_spot("at:-2,0") == (-2, 0)
    for bad in ("at:-0,1", "at:01,0", "at:1", "at:1,2,3", "at:+1,0", "at: 1,0", "xy"):
        assert parse_spot(bad) is None


@pytest.mark.parametrize(("scheme", "west", "start", "far", "east"), [
    (CURRENT, "CL91", "CM91", "A1", "CN91"),  # a new game
    (FIRST, "M14", "N14", "A1", "O14"),  # a game begun before the current scheme
])
def test_a_spot_may_be_named_by_its_square(scheme: int, west: str, start: str, far: str,
                                           east: str) -> None:
    """``/move CL91`` (typed, any case, Cyrillic look-alikes too) chooses the spot that
    ``at:-1,0`` does, by the game's own scheme; a square that is no spot is refused
    like its ``at:`` key."""
    cyrillic = west.translate(str.maketrans("CM", "СМ"))  # Cyrillic С and М
    for typed in (west, west.lower(), cyrillic):
        state = scripted(draw=["HG028", "HG002"])
        state.naming = scheme
        play(state, 0, typed)
        assert state.step == "rotation" and state.spot == (-1, 0)
    state = scripted(draw=["HG028", "HG002"])
    state.naming = scheme
    assert state.names.square_name((0, 0)) == start
    assert refused(state, 0, start) == "no_such_spot"  # the start tile lies there
    assert refused(state, 0, far) == "no_such_spot"  # touches nothing
    assert refused(state, 0, east) == "does_not_fit"  # by the start tile's forest
    for bad in (f"{west[:-2]}0{west[-2:]}", f"{west[:-2]} {west[-2:]}", "M-0", "14M", "MM",
                "14"):
        assert refused(state, 0, bad) == "unknown_option"


def test_a_refusal_names_the_square_as_the_game_does() -> None:
    state = scripted(draw=["HG028", "HG002"])
    with pytest.raises(IllegalMove) as refused_at:
        GAME.apply(state, 0, "at:1,0")
    assert (refused_at.value.code, refused_at.value.args_map["at"]) == ("does_not_fit", "CN91")


def test_illegal_choices_are_refused_with_their_reason_and_change_nothing() -> None:
    state = scripted(draw=["HG061", "HG002"], laid=[(-1, 0, "HG028", 0)])
    assert refused(state, 1, "at:-2,0") == "not_your_turn"
    assert refused(state, 0, "bogus") == "unknown_option"
    assert refused(state, 0, "at:01,0") == "unknown_option"
    assert refused(state, 0, "more") == "unknown_option"  # no paging key any more
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
    # ...and lays the same map: nothing to choose, the first turn is taken unasked.
    assert state.step == "figure" and state.rotation == 0
    # A log from before names a turn there: one of the same map turns the tile so.
    for k in range(4):
        turned = GAME.load(GAME.dump(state))
        play(turned, 0, f"rot:{k}")
        assert (turned.step, turned.rotation) == ("figure", k)
    assert refused(state, 0, "rot:4") == "unknown_option"
    assert refused(state, 0, "rot:x") == "unknown_option"
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
    # HG003 at (0,-1) with a hunter shares the start tile's northern meadow; HG032 west
    # of the start joins its own northern meadow to it (across the river's north bank),
    # so no second hunter may go there; its forest is still free.
    state = scripted(
        draw=["HG032", "HG002"],
        laid=[(0, -1, "HG003", 0)],
        figures=[(0, -1, "hunter", "meadow", 0, 1)],
    )
    play(state, 0, "at:-1,0", "rot:0")
    assert state.step == "figure"
    offered = GAME.pending(state)[0].keys()
    assert "fig:hunter:0" not in offered and "fig:gatherer:0" in offered
    assert refused(state, 0, "fig:hunter:0") == "feature_occupied"


def _state_with_many_spots() -> HuntersGatherersState:
    agent = random.Random(5)
    state = GAME.new(2, 5)
    while GAME.pending(state):
        prompt = GAME.pending(state)[0]
        if prompt.label.code == "hg.prompt.spot" and len(prompt.options) > 40:
            return state
        options = [o for o in prompt.options if not o.back]
        GAME.apply(state, prompt.seat, agent.choice(options).key)
    raise AssertionError("no prompt with many spots")


def test_every_legal_spot_is_offered_numbered_like_the_view() -> None:
    state = _state_with_many_spots()
    listed = GAME.view(state, 0).spots
    prompt = GAME.pending(state)[0]
    # One prompt holds them all (the bot pages long lists itself): no paging option.
    assert [o.key for o in prompt.options] == [f"at:{s.x},{s.y}" for s in listed]
    for position, option in enumerate(prompt.options, start=1):
        assert option.label.code == "hg.opt.at" and not option.back
        spot = listed[position - 1]
        assert option.label.args == {"x": spot.x, "y": spot.y, "n": position,
                                      "at": state.names.square_name((spot.x, spot.y))}
        assert listed[position - 1].n == position
    assert set(prompt.label.args) == {"tile", "bonus", "spots"}
    # The label describes every spot for the words: what lies across each side, and the
    # rotations that fit there (as the view lists them).
    board = board_of(state)
    described = prompt.label.args["spots"]
    assert [(d["x"], d["y"], d["rotations"], d["at"]) for d in described] == [
        (s.x, s.y, list(s.rotations), state.names.square_name((s.x, s.y))) for s in listed]
    for spot in described:
        for side, edge in zip("NESW", spot["touch"], strict=True):
            near = board.get(neighbour((spot["x"], spot["y"]), side))
            assert edge == ("." if near is None else near.edges["NESW".index(opposite(side))])
    # The last spot of the list is as good as the first (it is chosen, or the tile is
    # already laid there when nothing was left to ask).
    last = parse_spot(prompt.options[-1].key)
    play(state, state.turn, prompt.options[-1].key)
    assert last in (state.spot, (state.tiles[-1].x, state.tiles[-1].y))


def test_a_stored_game_with_a_spot_page_still_loads() -> None:
    """States stored before the engine stopped paging carry ``page``: they load, play
    on alike, and the next dump leaves the field out."""
    state = _state_with_many_spots()
    old = GAME.dump(state).replace('"turn":', '"page":2,"turn":', 1)
    assert '"page":2' in old
    loaded = GAME.load(old)
    assert "page" not in GAME.dump(loaded) and GAME.dump(loaded) == GAME.dump(state)
    assert GAME.pending(loaded) == GAME.pending(state)
    assert not GAME.invariants(loaded)


def test_figure_labels_carry_their_button_number() -> None:
    state = scripted(draw=["HG028", "HG002"])
    play(state, 0, "at:-1,0", "rot:0")
    prompt = GAME.pending(state)[0]
    figures = [o for o in prompt.options if o.key.startswith("fig:")]
    assert figures and prompt.options[:len(figures)] == tuple(figures)
    assert [o.label.args["n"] for o in figures] == list(range(1, len(figures) + 1))
    assert [o.key for o in prompt.options[len(figures):]] == ["none", "back"]


def test_a_tile_that_takes_no_figure_is_laid_without_asking() -> None:
    # The all-meadow HG002 joins the meadow where seat 1's hunter stands: the only
    # figure it could take is a hunter, and that meadow is taken. With no turn to choose
    # either, choosing the spot lays the tile at once, exactly as "none" would, and the
    # turn passes.
    state = scripted(
        draw=["HG002", "HG005", "HG006"],
        laid=[(0, -1, "HG003", 0)],
        figures=[(0, -1, "hunter", "meadow", 0, 1)],
    )
    # Every turn of the tile lays the same map too: the spot alone lays it.
    twin = GAME.load(GAME.dump(state))
    events = play(state, 0, "at:-1,-1")
    assert codes(events) == ["tile_placed", "tile_drawn"]
    assert first(events, "tile_placed").args == {"tile": "HG002", "x": -1, "y": -1,
                                                 "at": "CL90", "rotation": 0, "bonus": False}
    assert state.turn == 1 and state.step == "spot" and state.current == "HG005"
    assert state.tiles[-1].tile == "HG002" and state.players[0].members == 5
    # What asking and answering "none" would have given (the step forced by hand):
    twin.spot, twin.rotation, twin.step = (-1, -1), 0, "figure"
    assert "a figure step is open with no figure to place" in GAME.invariants(twin)
    assert GAME.pending(twin)[0].keys() == ["none", "back"]
    assert play(twin, 0, "none") == events
    assert GAME.dump(twin) == GAME.dump(state)


def test_a_player_without_figures_is_not_asked_for_one() -> None:
    state = scripted(draw=["HG061", "HG002"], laid=[(-1, 0, "HG028", 0)])
    state.players[0].members = 0
    state.players[0].huts = 0
    events = play(state, 0, "at:-2,0")  # one rotation fits and no figure is left
    assert codes(events)[:2] == ["tile_placed", "river_scored"]
    assert state.turn == 1 and state.step == "spot"
    # with a hut still in the supply the question is asked
    again = scripted(draw=["HG061", "HG002"], laid=[(-1, 0, "HG028", 0)])
    again.players[0].members = 0
    play(again, 0, "at:-2,0")
    assert again.step == "figure"
    assert GAME.pending(again)[0].keys() == ["fig:hut:0", "none", "back"]
