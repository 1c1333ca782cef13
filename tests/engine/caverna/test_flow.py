"""Carrying out parts and receiving goods: furnishings that react (on building, on
gaining), animals that do not fit, turns passing once an action is complete."""

from __future__ import annotations

from engine.caverna.receiving import receive
from engine.caverna.spaces import furnish_choices
from tests.engine.caverna.scenario import codes, give, keys, play, scripted


def _furnish(state, tile: str) -> None:  # type: ignore[no-untyped-def]
    play(state, 0, "go:housework")
    if keys(state, 0)[0] == "part:0":
        play(state, 0, "part:1")
    if f"tile:{tile}" in keys(state, 0):  # else it was the one tile there was: laid
        play(state, 0, f"tile:{tile}")
    if state.top(0) is not None and "stop" in keys(state, 0):
        play(state, 0, "stop")
    assert state.players[0].board.has_furnishing(tile)


def test_the_blacksmith_gives_two_ore_when_built() -> None:
    state = scripted(3)
    give(state, 0, wood=1, stone=2)
    _furnish(state, "blacksmith")
    assert state.players[0].goods["ore"] == 2


def test_the_seam_gives_an_ore_for_each_stone() -> None:
    state = scripted(3)
    give(state, 0, wood=2)
    _furnish(state, "seam")
    events: list = []  # type: ignore[type-arg]
    receive(state, 0, {"stone": 3}, events)
    assert state.players[0].goods["ore"] == 3


def test_the_dog_school_gives_a_wood_for_each_new_dog() -> None:
    state = scripted(3)
    _furnish(state, "dog_school")
    receive(state, 0, {"dog": 2}, [])
    assert state.players[0].goods["wood"] == 2


def test_the_weaving_parlor_gives_food_per_sheep_when_built() -> None:
    state = scripted(3)
    give(state, 0, wood=2, stone=1, sheep=2)
    _furnish(state, "weaving_parlor")
    assert state.players[0].goods["food"] == 1 + 2


def test_a_furnishing_tile_goes_only_once_into_play() -> None:
    state = scripted(3)
    give(state, 0, wood=1)
    give(state, 1, wood=1)
    state.players[1].board.edit((3, 2)).furnishing = "carpenter"  # fills seat 1's cavern
    state.players[1].board.edit((4, 3)).tile = "cavern"
    _furnish(state, "trader")
    assert "trader" not in furnish_choices(state, 1, "any")
    give(state, 1, wood=4, stone=3)
    give(state, 0, wood=8, stone=6)
    _cavern = state.players[0].board.edit((4, 3))
    _cavern.tile = "cavern"
    state.players[0].board.edit((4, 3)).furnishing = "dwelling"
    assert "dwelling" in furnish_choices(state, 1, "any")  # never out of stock


def test_animals_that_cannot_stay_become_food() -> None:
    state = scripted(3)
    events: list = []  # type: ignore[type-arg]
    receive(state, 0, {"sheep": 3}, events)
    assert state.players[0].animals["sheep"] == 2
    assert state.players[0].goods["food"] == 2
    assert "animals_eaten" in codes(events)


def test_wild_boar_from_a_bonus_space_joins_the_board() -> None:
    state = scripted(3)
    board = state.players[0].board
    for pos in ((2, 3), (2, 2), (2, 1)):
        board.edit(pos).tile = "meadow"
    give(state, 0, ruby=1)
    events = play(state, 0, "exchange", "tile:meadow", "lay:meadow:2,0")
    assert state.players[0].animals["wild_boar"] == 1
    assert state.top(0) is None  # no ruby left: the trades menu closed by itself
    assert "tile_laid" in codes(events)
