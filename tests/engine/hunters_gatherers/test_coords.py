"""Names of map squares: fixed for a game by its scheme, one name per square and one
square per name, read leniently when typed; a new game's names are never negative."""

from __future__ import annotations

import json
import random
import re

import pytest

from engine.core.errors import IllegalMove
from engine.core.prompts import Event, Option
from engine.hunters_gatherers.coords import CURRENT, FIRST, NAMINGS, REACH, naming
from engine.hunters_gatherers.decisions import parse_spot
from engine.hunters_gatherers.game import GAME
from engine.hunters_gatherers.state import HuntersGatherersState
from engine.hunters_gatherers.tiles import all_tiles

OLD = naming(FIRST)
NEW = naming(CURRENT)
POSITIVE = re.compile(r"[A-Z]+[1-9][0-9]*")  # letters, then a number from 1


def test_the_first_scheme_is_a_to_z_by_1_to_26_around_n14() -> None:
    assert OLD.square_name((0, 0)) == "N14"  # the start tile
    assert OLD.square_name((-13, -13)) == "A1"  # north-west corner
    assert OLD.square_name((12, 12)) == "Z26"  # south-east corner
    assert OLD.square_name((1, 0)) == "O14" and OLD.square_name((0, 1)) == "N15"
    # Beyond the board, names go on: AA… east, 27… south, 0 and -1… north, -A… west.
    assert [OLD.column_name(x) for x in (12, 13, 14, 38, 39)] == ["Z", "AA", "AB", "AZ", "BA"]
    assert [OLD.column_name(x) for x in (-13, -14, -15, -39, -40)] == \
        ["A", "-A", "-B", "-Z", "-AA"]
    assert [OLD.row_name(y) for y in (12, 13, -13, -14, -15)] == ["26", "27", "1", "0", "-1"]


def test_the_current_scheme_leaves_room_for_the_whole_deck() -> None:
    # The start tile lies REACH columns and rows in: CM91.
    assert NEW.square_name((0, 0)) == "CM91"
    assert NEW.square_name((-REACH, -REACH)) == "A1"
    assert NEW.square_name((1, 0)) == "CN91" and NEW.square_name((0, 1)) == "CM92"
    # No tile lies farther than the deck less the start tile from it, and no spot more
    # than one square beyond a tile while one is left to lay: REACH squares at most.
    assert len(all_tiles()) - 1 == REACH
    for far in range(-REACH, REACH + 1):
        for name in (NEW.column_name(far), NEW.row_name(far)):
            assert not name.startswith("-") and name != "0", (far, name)


@pytest.mark.parametrize("scheme", sorted(NAMINGS))
def test_every_square_has_one_name_and_every_name_one_square(scheme: int) -> None:
    names = naming(scheme)
    seen = {}
    for x in range(-120, 121, 3):
        for y in range(-120, 121, 3):
            name = names.square_name((x, y))
            assert names.parse_square(name) == (x, y), name
            seen[name] = (x, y)
    assert len(seen) == 81 * 81


@pytest.mark.parametrize(("typed", "pos"), [
    ("n14", (0, 0)), ("N14", (0, 0)),
    ("Н14", (-6, 0)), ("н14", (-6, 0)), ("H14", (-6, 0)),  # Cyrillic Н is drawn like H
    ("С4", (-11, -10)), ("c4", (-11, -10)), ("-a0", (-14, -14)), ("AA-1", (13, -15)),
])
def test_typed_names_are_read_in_either_case_and_with_look_alike_letters(
        typed: str, pos: tuple[int, int]) -> None:
    assert OLD.parse_square(typed) == pos


def test_typed_names_of_a_new_game_mean_its_own_squares() -> None:
    assert NEW.parse_square("cm91") == (0, 0) and NEW.parse_square("СМ91") == (0, 0)
    assert NEW.parse_square("N14") == (13 - REACH, 14 - REACH - 1)  # far from the map


@pytest.mark.parametrize("typed", [
    "", "N", "14", "N 14", "N014", "N-0", "N+1", "14N", "at:0,0", "Ж14", "ß14", "N1.4",
    "AAAAA1", "N" + "9" * 7, "ы", "None", "a" * 300, "1e9",
])
def test_anything_else_names_no_square(typed: str) -> None:
    for scheme in NAMINGS.values():
        assert scheme.parse_square(typed) is None


def test_a_stored_game_without_a_scheme_keeps_the_first() -> None:
    """A game stored before schemes had numbers loads with the first one, so its log's
    typed names (``/move M14``) replay onto the same squares; a new game takes the
    current scheme."""
    state = GAME.new(2, 5)
    assert state.naming == CURRENT
    stored = json.loads(GAME.dump(state))
    del stored["naming"]
    old = GAME.load(json.dumps(stored))
    assert isinstance(old, HuntersGatherersState)
    assert old.naming == FIRST and old.names.square_name((0, 0)) == "N14"
    assert GAME.view(old, None).names == OLD and GAME.view(state, None).names == NEW


def _squares_named(events: list[Event]) -> list[tuple[tuple[int, int], str]]:
    return [((e.args["x"], e.args["y"]), e.args["at"]) for e in events if "at" in e.args]


def _north_west(options: list[Option], rnd: random.Random) -> Option:
    """The spot farthest to the north-west (a map that grows as far as it can that
    way), else any option."""
    spots = [(pos, o) for o in options
             if isinstance(o.key, str) and (pos := parse_spot(o.key)) is not None]
    if spots:
        return min(spots, key=lambda found: found[0][0] + found[0][1])[1]
    return rnd.choice(options)


@pytest.mark.parametrize(("seed", "policy"), [*((s, "random") for s in range(8)),
                                              *((s, "north_west") for s in range(3))])
def test_whole_games_never_show_a_negative_or_changing_name(seed: int, policy: str) -> None:
    """Whole games, random or growing the map north-west as far as the deck allows:
    every square a button, label, event or the view names has letters and a number
    from 1 (no minus sign, no row 0), and keeps its name for the whole game."""
    rnd = random.Random(seed)
    state = GAME.new(rnd.choice((2, 3, 4, 5)), seed)
    named: dict[tuple[int, int], str] = {}

    def note(pos: tuple[int, int], name: str) -> None:
        assert POSITIVE.fullmatch(name), (pos, name)
        assert named.setdefault(pos, name) == name, (pos, name, named[pos])

    while prompts := GAME.pending(state):
        prompt = prompts[0]
        for option in prompt.options:
            pos = parse_spot(option.key) if isinstance(option.key, str) else None
            if pos is not None:
                note(pos, str(option.label.args["at"]))
        for spot in prompt.label.args.get("spots") or ():
            note((spot["x"], spot["y"]), spot["at"])
        options = [o for o in prompt.options if not o.back]
        chosen = _north_west(options, rnd) if policy == "north_west" else rnd.choice(options)
        for pos, name in _squares_named(GAME.apply(state, prompt.seat, chosen.key)):
            note(pos, name)
    view = GAME.view(state, None)
    for tile in view.tiles:
        note((tile.x, tile.y), view.names.square_name((tile.x, tile.y)))
    assert state.naming == CURRENT and len(named) > len(view.tiles)
    if policy == "north_west":
        # Far beyond where the first scheme's names turned negative.
        assert min(min(x, y) for x, y in named) < -20


def test_a_table_chooses_its_scheme_by_the_names_variant() -> None:
    assert GAME.new(2, 1).naming == CURRENT  # the default: a game begun now
    assert GAME.new(2, 1, {"names": "cm91"}).names.square_name((0, 0)) == "CM91"
    assert GAME.new(2, 1, {"names": "n14"}).names.square_name((0, 0)) == "N14"
    with pytest.raises(IllegalMove) as bad:
        GAME.new(2, 1, {"names": "z1"})
    assert bad.value.code == "bad_option"
