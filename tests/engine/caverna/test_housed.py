"""The housed event: after every change of a seat's animals or board, where the animals
live now, said once per change."""

from __future__ import annotations

from engine.caverna.caverna_game import CAVERNA
from engine.caverna.housed import arrangement, place_of, tell_housing
from engine.caverna.state import CavernaState, Dwarf
from engine.core.prompts import Event
from tests.engine.caverna.scenario import give, scripted


def _told(state: CavernaState) -> list[Event]:
    events: list[Event] = []
    tell_housing(state, events)
    return [e for e in events if e.code == "housed"]


def test_the_arrangement_is_told_once_per_change() -> None:
    state = scripted(3)
    assert _told(state) == []  # no animals yet
    give(state, 0, sheep=2)
    first = _told(state)
    assert len(first) == 1 and first[0].seat == 0
    (place,) = first[0].args["places"]
    assert place["place"] == "entry_level_dwelling" and place["animals"] == {"sheep": 2}
    assert _told(state) == []  # nothing changed since
    board = state.players[0].board
    board.edit((1, 1)).tile = "meadow"
    board.edit((1, 1)).stable = True
    give(state, 0, dog=1, donkey=1)
    (again,) = _told(state)
    assert again.args["free_dogs"] + sum(p["animals"].get("dog", 0)
                                         for p in again.args["places"]) == 1
    state.players[0].animals.update(sheep=0, donkey=0, dog=0)
    (gone,) = _told(state)
    assert gone.args == {"places": [], "free_dogs": 0} and state.players[0].housed == {}


def test_places_are_named_by_what_they_are() -> None:
    state = scripted(3)
    board = state.players[0].board
    board.edit((1, 1)).tile = "meadow"
    board.edit((0, 1)).tile = "meadow"
    board.edit((0, 1)).stable = True
    board.edit((2, 3)).stable = True
    assert place_of(board, "1,1") == "meadow"
    assert place_of(board, "0,1") == "stable" and place_of(board, "2,3") == "stable"
    assert place_of(board, "0,0+1,0") == "large_pasture"
    give(state, 0, wild_boar=1)
    assert arrangement(state.players[0]) == {"2,3": {"wild_boar": 1}}


def test_a_game_move_tells_the_new_home() -> None:
    from tests.engine.caverna.scenario import play

    state = scripted(3, cards={1: "sheep_farming"})
    give(state, 0, wood=10)
    events = play(state, 0, "go:sheep_farming")
    housed = [e.args for e in events if e.code == "housed"]
    assert housed == [{"places": [{"at": "3,3", "place": "entry_level_dwelling",
                                   "animals": {"sheep": 1}}], "free_dogs": 0}]


def test_what_was_told_is_kept_beside_the_state_only() -> None:
    """A seat is passed over while its board, animals and family are as when last told
    on this state; any of them changing tells again. A copy takes over what was told (of
    its own), a reloaded state starts without it (``engine.caverna.told``)."""
    state = scripted(3)
    give(state, 0, sheep=3)
    assert len(_told(state)) == 1
    told = state.__pydantic_private__["_told"].by_seat  # type: ignore[index]
    assert set(told) == {0}
    copied, loaded = CAVERNA.copy(state), CAVERNA.load(CAVERNA.dump(state))
    assert copied.__pydantic_private__["_told"].by_seat == told  # type: ignore[index]
    assert copied.__pydantic_private__["_told"].by_seat is not told  # type: ignore[index]
    assert not loaded.__pydantic_private__["_told"].by_seat  # type: ignore[index]
    for twin in (copied, loaded):
        assert _told(twin) == []  # nothing changed: the same as told
    state.players[0].dwarfs.append(Dwarf(born=True))
    state.players[0].animals["sheep"] = 3
    _told(state)  # a larger family: worked out again
    assert told[0][2] == 3
