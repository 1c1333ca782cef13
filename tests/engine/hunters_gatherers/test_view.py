"""The public view: the fixed shape the renderer draws from, with nothing hidden leaking."""

from __future__ import annotations

import random

from engine.core.views import View
from engine.hunters_gatherers.game import GAME
from engine.hunters_gatherers.view import HuntersGatherersView, MapFigure, MapTile, PlayerView

from .scenario import play, scripted

KEYS = {"game", "you", "turn", "step", "tiles_left", "bonus_left", "tiles", "current",
        "spots", "figures", "players", "end_reason", "naming"}


def test_view_shape_and_hidden_piles() -> None:
    state = GAME.new(3, 7)
    # The JSON a web page receives: the shape is the point here.
    v = GAME.view(state, 1).model_dump(mode="json")
    assert set(v) == KEYS and v["game"] == "hunters_gatherers" and v["you"] == 1
    assert v["step"] == "spot" and v["tiles_left"] == len(state.draw)
    assert v["bonus_left"] == 12 and v["tiles"] == [{"x": 0, "y": 0, "tile": "HG001",
                                                     "rotation": 0}]
    assert v["current"] == {"tile": state.current, "bonus": False}
    assert v["naming"] == state.naming  # the scheme that names the squares (``coords``)
    assert [s["n"] for s in v["spots"]] == list(range(1, len(v["spots"]) + 1))
    text = str(v)
    for hidden in state.draw[:-1] + state.bonus:
        assert hidden not in text
    assert "rng" not in text and "seed" not in text


def test_view_during_figure_step_shows_the_new_tile_and_figures() -> None:
    state = scripted(draw=["HG028", "HG002"], figures=[(0, 0, "fisher", "river", 0, 1)])
    play(state, 0, "at:-1,0", "rot:2")
    v = GAME.view(state, None)
    assert v.step == "figure" and v.spots == ()
    assert v.tiles[-1] == MapTile(x=-1, y=0, tile="HG028", rotation=2)
    assert v.figures == (MapFigure(x=0, y=0, kind="fisher", feature="river",
                                   index=0, seat=1),)
    assert v.players[1] == PlayerView(seat=1, score=0, members=4, huts=2)


def test_view_at_the_end() -> None:
    state = scripted(draw=["HG002"])
    play(state, 0, "at:0,-1", "rot:0", "none")
    v = GAME.view(state, 0)
    assert v.step == "over" and v.current is None and v.end_reason == "last_tile_placed"


def test_every_view_of_a_played_game_round_trips_through_json() -> None:
    """Each seat's view and the onlooker's, in every step of a real game, read back from
    their JSON as an equal model with the same JSON."""
    state = GAME.new(3, 21)
    agent = random.Random(21)
    steps: set[str] = set()
    while True:
        for seat in [None, *range(state.n)]:
            v = GAME.view(state, seat)
            assert isinstance(v, HuntersGatherersView) and isinstance(v, View)
            again = HuntersGatherersView.model_validate_json(v.model_dump_json())
            assert again == v
            assert again.model_dump(mode="json") == v.model_dump(mode="json")
            assert set(again.model_dump(mode="json")) == KEYS
            steps.add(v.step)
        prompts = GAME.pending(state)
        if not prompts:
            break
        GAME.apply(state, prompts[0].seat, agent.choice(prompts[0].options).key)
    assert steps == {"spot", "rotation", "figure", "over"}


def test_heuristic_counts_score_and_majorities() -> None:
    state = scripted(draw=["HG002", "HG003"], figures=[(0, 0, "hunter", "meadow", 0, 0)])
    assert GAME.heuristic(state, 0) > GAME.heuristic(state, 1)
