"""The rulebook's scoring examples, played on real tiles with scripted piles."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from engine.core.prompts import Event
from engine.hunters_gatherers.features import Feature
from engine.hunters_gatherers.flow import end_game
from engine.hunters_gatherers.game import GAME
from engine.hunters_gatherers.scoring import meadow_points
from engine.hunters_gatherers.state import HuntersGatherersState

from .scenario import codes, first, play, scripted

# Start tile (0,0): river from its W side into a 1-fish lake; forest E+S with a nugget;
# meadow 0 (N side) holds a mammoth.


def test_river_of_three_tiles_between_lakes_of_two_and_one_fish_scores_six() -> None:
    # HG028 straight river W-E west of the start; HG061 (2-fish lake) closes it turned
    # so that its river faces east. The fisherman of seat 0 owns the river.
    state = scripted(
        draw=["HG061", "HG002"],
        laid=[(-1, 0, "HG028", 0)],
        figures=[(-1, 0, "fisher", "river", 0, 0)],
    )
    events = play(state, 0, "at:-2,0")  # one rotation fits: step skipped
    assert state.step == "figure" and state.rotation == 2
    events = play(state, 0, "none")
    scored = first(events, "river_scored")
    assert scored.args["points"] == 6 and scored.args["tiles"] == 3 and scored.args["fish"] == 3
    assert scored.args["pieces"] == 3
    assert scored.args["winners"] == [0] and scored.args["returned"] == [0]
    assert state.players[0].points["rivers"] == 6
    assert state.players[0].members == 5
    assert not state.figures


def test_quick_points_member_placed_on_the_river_it_completes_comes_back() -> None:
    state = scripted(draw=["HG061", "HG002"], laid=[(-1, 0, "HG028", 0)])
    events = play(state, 0, "at:-2,0", "fig:fisher:0")
    assert codes(events)[:3] == ["tile_placed", "figure_placed", "river_scored"]
    assert state.players[0].score == 6 and state.players[0].members == 5
    assert not state.figures


def test_river_of_two_tiles_with_one_fish_scores_three_for_its_owner() -> None:
    # Seat 1's fisherman stands on the start river; seat 0 closes it with a spring tile
    # (HG042 turned so its river faces east) while putting a gatherer in its forest.
    state = scripted(draw=["HG042", "HG002"], figures=[(0, 0, "fisher", "river", 0, 1)])
    events = play(state, 0, "at:-1,0", "fig:gatherer:0")
    scored = first(events, "river_scored")
    assert scored.args["points"] == 3 and scored.args["winners"] == [1]
    assert state.players[1].points["rivers"] == 3 and state.players[0].score == 0
    assert state.players[1].members == 5 and state.players[0].members == 4


def test_forest_of_two_tiles_scores_four() -> None:
    # HG004 (forest on E) north of the start; HG007 turned twice (forest on W) closes it.
    state = scripted(
        draw=["HG007", "HG002"],
        laid=[(0, -1, "HG004", 0)],
        figures=[(0, -1, "gatherer", "forest", 0, 0)],
    )
    events = play(state, 0, "at:1,-1", "none")
    scored = first(events, "forest_scored")
    assert scored.args["points"] == 4 and scored.args["winners"] == [0]
    assert state.players[0].points["forests"] == 4 and state.players[0].members == 5
    assert "bonus_turn" not in codes(events)  # no gold in it


def test_tied_gatherers_both_score_the_forest_in_full() -> None:
    state = scripted(
        draw=["HG009", "HG002"],
        bonus=["HG088"],
        laid=[(0, -1, "HG004", 0), (2, -1, "HG007", 2)],
        figures=[(0, -1, "gatherer", "forest", 0, 0), (2, -1, "gatherer", "forest", 0, 1)],
    )
    play(state, 0, "at:1,-1")
    assert state.step == "figure"  # its two turns that fit lay the same map: not asked
    events = play(state, 0, "none")
    scored = first(events, "forest_scored")
    assert scored.args["points"] == 6 and scored.args["winners"] == [0, 1]
    assert [p.points["forests"] for p in state.players] == [6, 6]
    # the middle tile had a nugget: the placer takes a bonus turn
    assert "bonus_turn" in codes(events)
    assert state.turn == 0 and state.current == "HG088" and state.current_bonus


# --- paid by piece: a tile with two forest pieces or several river pieces ---------------


def test_forest_around_a_tile_pays_both_of_its_forest_pieces() -> None:
    # A ring of forest north of the start: HG008 (forest pieces on W and on E, a meadow
    # between them) at (0,-2) is the last tile; corners and a straight join its two
    # pieces round the north into one forest of 7 pieces on 6 tiles: 14 points, where
    # paying per tile would give 12. HG002 links the ring to the start.
    ring = [
        (0, -1, "HG002", 0),
        (-1, -2, "HG015", 0),  # forest N+E
        (-1, -3, "HG012", 0),  # forest E+S
        (0, -3, "HG009", 0),  # forest W+E
        (1, -3, "HG016", 0),  # forest S+W
        (1, -2, "HG014", 0),  # forest N+W
    ]
    state = scripted(draw=["HG008", "HG003"], laid=ring,
                     figures=[(0, -3, "gatherer", "forest", 0, 1)])
    play(state, 0, "at:0,-2")
    # Turned twice it fits as well, but lays the same map: no rotation is asked.
    assert state.step == "figure"  # the meadow between the pieces is free
    events = play(state, 0, "none")
    scored = first(events, "forest_scored")
    assert (scored.args["pieces"], scored.args["tiles"]) == (7, 6)
    assert scored.args["points"] == 14 and scored.args["winners"] == [1]
    assert state.players[1].points["forests"] == 14 and state.players[1].members == 5
    # both pieces of HG008 are one forest now
    features = GAME.cache.features(state)
    assert features.same(((0, -2), "forest", 0), ((0, -2), "forest", 1))


def test_river_from_spring_to_spring_through_one_tile_twice_pays_both_pieces() -> None:
    # HG052 has two river pieces, each from a spring to a side (N and E). Three bends
    # lead its north river round to its east side: one river of 5 pieces on 4 tiles,
    # both ends springs: 5 points (4 if paid per tile). HG005 turned twice links the
    # spring tile's forest to the start's meadow.
    state = scripted(
        draw=["HG052", "HG003"],
        laid=[(0, -1, "HG005", 2), (0, -3, "HG033", 2), (1, -3, "HG034", 3),
              (1, -2, "HG035", 0)],
        figures=[(0, -3, "fisher", "river", 0, 1)],
    )
    play(state, 0, "at:0,-2")  # only one rotation fits
    assert state.step == "figure"
    keys = GAME.pending(state)[0].keys()
    assert not any(k.startswith("fig:fisher") for k in keys)  # the river is taken
    events = play(state, 0, "none")
    scored = first(events, "river_scored")
    assert (scored.args["pieces"], scored.args["tiles"], scored.args["fish"]) == (5, 4, 0)
    assert scored.args["points"] == 5 and scored.args["winners"] == [1]
    assert state.players[1].points["rivers"] == 5


def test_river_leaving_a_lake_and_coming_back_pays_two_pieces_and_its_fish_once() -> None:
    # HG072: three river pieces into one 1-fish lake (from N, E and W). The bends lead
    # the north piece round into the east one: a river of 5 pieces whose both ends are
    # that lake: 5 + 1 fish = 6 points. The west piece is a river of its own, still open.
    state = scripted(
        draw=["HG072", "HG003"],
        laid=[(0, -1, "HG002", 0), (0, -3, "HG033", 2), (1, -3, "HG034", 3),
              (1, -2, "HG035", 0)],
        figures=[(1, -2, "fisher", "river", 0, 0)],
    )
    play(state, 0, "at:0,-2")
    events = play(state, 0, "none")
    [scored] = [e for e in events if e.code == "river_scored"]
    assert (scored.args["pieces"], scored.args["tiles"], scored.args["fish"]) == (5, 4, 1)
    assert scored.args["points"] == 6 and state.players[0].points["rivers"] == 6
    features = GAME.cache.features(state)
    assert not features.same(((0, -2), "river", 0), ((0, -2), "river", 2))


def test_huts_and_meadows_are_not_paid_by_piece() -> None:
    # HG072 (three river pieces into one lake) west of HG028 and the start: huts pay the
    # fish of the river system (start lake 1 + HG072's lake 1), meadows their animals
    # (a mammoth each on the start and HG028, HG072's deer: across meadow pieces of three
    # tiles), never their pieces.
    state = scripted(
        draw=["HG002"],
        laid=[(-1, 0, "HG028", 0), (-2, 0, "HG072", 0)],
        figures=[(-1, 0, "hut", "river", 0, 1), (0, 0, "hunter", "meadow", 0, 0)],
    )
    features = GAME.cache.features(state)
    assert features.system(((-1, 0), "river", 0)).pieces > 3
    assert features.feature(((0, 0), "meadow", 0)).pieces == 3
    events: list = []
    end_game(state, GAME.cache, events, "test")
    assert first(events, "huts_scored").args["points"] == 2
    assert state.players[1].points["huts"] == 2
    meadow = first(events, "meadow_scored")
    assert (meadow.args["mammoths"], meadow.args["deer"]) == (2, 1)
    assert meadow.args["winners"] == [0] and meadow.args["points"] == 6
    assert state.players[0].points["meadows"] == 6


@pytest.mark.parametrize(
    ("animals", "points"),
    [
        ({"deer": 1}, 2),  # meadow 1
        ({"deer": 1, "mammoth": 1, "tiger": 1}, 2),  # meadow 2: the deer is eaten
        ({"deer": 2, "mammoth": 2, "aurochs": 1, "tiger": 1}, 8),  # meadow 3
        ({"deer": 1, "tiger": 2}, 0),  # meadow 4: no penalty for the spare tiger
    ],
)
def test_final_meadow_values_of_the_rulebook_figure(animals: dict[str, int], points: int) -> None:
    meadow = Feature(kind="meadow", animals=Counter(animals))
    assert meadow_points(meadow, fire=False) == points


def test_fire_keeps_every_deer() -> None:
    meadow = Feature(kind="meadow", animals=Counter({"deer": 1, "tiger": 2}))
    assert meadow_points(meadow, fire=True) == 2


def test_meadow_majority_hunters_merged_by_the_last_tile_both_score() -> None:
    # Two tied hunters in one meadow (start mammoth + HG003 deer); the last land tile
    # adds a mammoth. Both owners score the whole meadow: 2 x (2 mammoths + 1 deer).
    state = scripted(
        draw=["HG002"],
        laid=[(0, -1, "HG003", 0)],
        figures=[(0, 0, "hunter", "meadow", 0, 0), (0, -1, "hunter", "meadow", 0, 1)],
    )
    # The all-meadow tile could only take a hunter, and its meadow is taken; every turn
    # lays the same map: no question at all, the spot lays it and ends the game.
    events = play(state, 0, "at:-1,-1")
    assert codes(events)[0] == "tile_placed" and "figure_placed" not in codes(events)
    assert codes(events)[-1] == "game_over" and state.end_reason == "last_tile_placed"
    scored = first(events, "meadow_scored")
    assert scored.args["points"] == 6 and scored.args["winners"] == [0, 1]
    assert [p.points["meadows"] for p in state.players] == [6, 6]
    assert GAME.result(state) is not None
    assert GAME.result(state).winners == [0, 1]  # type: ignore[union-attr]


def ended(**tiles: Any) -> tuple[HuntersGatherersState, list[Event]]:
    """A game scripted with ``tiles`` (``laid``, ``figures``; HG002 still to draw),
    ended now: its state and the final scoring's events."""
    state = scripted(draw=["HG002"], **tiles)
    events: list[Event] = []
    end_game(state, GAME.cache, events, "test")
    return state, events


def test_majority_of_hunters_takes_the_meadow() -> None:
    state, _ = ended(
        laid=[(0, -1, "HG003", 0), (0, -2, "HG031", 0)],
        figures=[
            (0, 0, "hunter", "meadow", 0, 1),
            (0, -1, "hunter", "meadow", 0, 1),
            (0, -2, "hunter", "meadow", 1, 0),
        ],
    )
    # one meadow: mammoth + deer + tiger (HG031's south bank) -> 2, all to seat 1
    assert [p.points["meadows"] for p in state.players] == [0, 2]


def test_fire_tile_drives_tigers_from_its_meadow() -> None:
    # start mammoth + HG003 deer + HG088 fire with a tiger: 2 x (1 mammoth + 1 deer)
    state, events = ended(
        laid=[(0, -1, "HG003", 0), (0, -2, "HG088", 0)],
        figures=[(0, -1, "hunter", "meadow", 0, 0)],
    )
    assert state.players[0].points["meadows"] == 4
    assert first(events, "meadow_scored").args["fire"] is True


def test_shrine_hunter_alone_scores_the_meadow() -> None:
    # Seat 1 has two hunters in the meadow, seat 0 one on the shrine tile: only seat 0
    # scores (1 mammoth + 1 deer, the tiger of the shrine tile eats the deer) = 2.
    state, _ = ended(
        laid=[(0, -1, "HG003", 0), (0, -2, "HG090", 2)],
        figures=[
            (0, 0, "hunter", "meadow", 0, 1),
            (0, -1, "hunter", "meadow", 0, 1),
            (0, -2, "hunter", "meadow", 0, 0),
        ],
    )
    assert [p.points["meadows"] for p in state.players] == [2, 0]


def test_huts_score_the_fish_of_their_river_system_at_the_end() -> None:
    # Start lake (1 fish) + HG061 lake (2 fish) joined by HG028: one system of 3 fish.
    # Seat 0's unfinished-river fisherman elsewhere goes home without points.
    state, _ = ended(
        laid=[(-1, 0, "HG028", 0), (-2, 0, "HG061", 2), (0, -1, "HG029", 0)],
        figures=[(-1, 0, "hut", "river", 0, 1), (0, -1, "fisher", "river", 0, 0)],
    )
    assert state.players[1].points["huts"] == 3
    assert state.players[0].score == 0 and state.players[0].members == 5
    assert [f.kind for f in state.figures] == ["hut"]
