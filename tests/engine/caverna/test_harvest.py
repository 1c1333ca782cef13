"""Harvests: the fixed track (rounds 1–5), the face-down markers and the three red
events in the order revealed, the field phase, feeding and breeding."""

from __future__ import annotations

from engine.caverna.rounds import open_round
from engine.caverna.state import CavernaState, Dwarf
from tests.engine.caverna.scenario import codes, first, give, keys, play, run, scripted


def _at_round(state: CavernaState, round_number: int) -> None:
    """Jump to the start of ``round_number`` (its card and marker are turned)."""
    state.stacks = {}
    state.round = state.rounds[state.rounds.index(round_number) - 1]
    run(state, open_round)


def _end_work(state: CavernaState) -> list:  # type: ignore[type-arg]
    """Every dwarf is out: the work phase ends and the harvest runs."""
    for player in state.players:
        for dwarf in player.dwarfs:
            if not dwarf.born:
                dwarf.at = "elsewhere"
    return run(state)


def _food(state: CavernaState) -> list[int]:
    return [p.goods["food"] for p in state.players]


def test_no_harvest_in_rounds_one_and_two() -> None:
    state = scripted(3)
    give(state, 0, food=10)
    events = _end_work(state)
    assert "no_harvest" in codes(events)
    assert state.players[0].goods["food"] == 11
    assert state.round == 2


def test_round_three_is_a_harvest_two_food_per_dwarf() -> None:
    state = scripted(3)
    _at_round(state, 3)
    for seat in range(3):
        give(state, seat, food=10)
    before = _food(state)
    _end_work(state)
    assert [b - a for a, b in zip(_food(state), before, strict=True)] == [4, 4, 4]


def test_round_four_each_dwarf_eats_one_the_newborn_too() -> None:
    state = scripted(3)
    _at_round(state, 4)
    assert state.harvest == "feed1"
    state.players[0].dwarfs.append(Dwarf(born=True))
    state.players[0].animals["sheep"] = 2
    state.players[0].board.edit((2, 3)).tile = "field"
    state.players[0].board.edit((2, 3)).crop = "grain"
    state.players[0].board.edit((2, 3)).crop_count = 3
    for seat in range(3):
        give(state, seat, food=10)
    before = _food(state)
    _end_work(state)
    assert [b - a for a, b in zip(_food(state), before, strict=True)] == [3, 2, 2]
    # no field phase, no breeding
    assert state.players[0].board.at((2, 3)).crop_count == 3
    assert state.players[0].animals["sheep"] == 2


def test_a_newborn_eats_one_in_a_normal_harvest() -> None:
    state = scripted(3)
    _at_round(state, 3)
    state.players[0].dwarfs.append(Dwarf(born=True))
    give(state, 0, food=10)
    _end_work(state)
    assert state.players[0].goods["food"] == 11 - 5


def test_green_marker_is_a_normal_harvest() -> None:
    state = scripted(3, markers={6: "green"})
    _at_round(state, 6)
    assert state.harvest == "harvest" and state.reds == 0


def test_rulebook_example_the_second_red_marker_feeds_one_per_dwarf() -> None:
    """One red marker was turned earlier; the round's marker is the second red: every
    dwarf (newborns included) eats 1 food, nothing else happens."""
    state = scripted(3, markers={6: "red", 7: "green", 8: "red"})
    _at_round(state, 6)
    assert state.reds == 1 and state.harvest == "none"
    _at_round(state, 8)
    assert state.reds == 2 and state.harvest == "feed1"
    for seat in range(3):
        give(state, seat, food=5)
    before = _food(state)
    events = _end_work(state)
    assert first(events, "harvest").args == {"round": 8, "kind": "feed1"}
    assert [b - a for a, b in zip(_food(state), before, strict=True)] == [2, 2, 2]


def test_the_first_red_marker_means_no_harvest() -> None:
    state = scripted(3, markers={7: "red"})
    _at_round(state, 7)
    give(state, 0, food=9)
    events = _end_work(state)
    assert "no_harvest" in codes(events) and state.players[0].goods["food"] == 10


def test_the_third_red_marker_each_player_skips_fields_or_breeding() -> None:
    state = scripted(3, markers={6: "red", 7: "red", 9: "red"})
    _at_round(state, 6)
    _at_round(state, 7)
    _at_round(state, 9)
    assert state.reds == 3 and state.harvest == "choice"
    for seat in range(3):
        give(state, seat, food=10)
        board = state.players[seat].board
        field = board.edit((2, 3))
        field.tile, field.crop, field.crop_count = "field", "grain", 3
        board.edit((0, 0)).stable = True
        state.players[seat].animals["wild_boar"] = 2
    _end_work(state)
    for seat in range(3):
        assert keys(state, seat) == ["skip:field", "skip:breed"]
    play(state, 0, "skip:field")
    play(state, 1, "skip:breed")
    play(state, 2, "skip:breed")
    assert state.round == 10
    assert _food(state) == [7, 7, 8]  # fed 4 each
    assert [p.goods["grain"] for p in state.players] == [0, 1, 1]
    assert [p.animals["wild_boar"] for p in state.players] == [3, 2, 2]


def test_the_third_red_marker_skips_by_itself_what_would_do_nothing() -> None:
    """Without sown fields, leaving out the field phase costs nothing: no question."""
    state = scripted(3, markers={6: "red", 7: "red", 8: "red"})
    for r in (6, 7, 8):
        _at_round(state, r)
    for seat in range(3):
        give(state, seat, food=10)
    events = _end_work(state)
    assert state.round == 9
    assert [e.args["stage"] for e in events if e.code == "skipped_empty"] == ["field"] * 3


def test_solo_harvests_every_round_from_five() -> None:
    state = scripted(1)
    kinds = {}
    for r in state.rounds[1:]:
        _at_round(state, r)
        kinds[r] = state.harvest
    assert kinds == {2: "none", 3: "harvest", 4: "feed1", 5: "harvest", 6: "harvest",
                     7: "harvest", 8: "harvest", 10: "harvest", 11: "harvest",
                     12: "harvest"}


def test_two_players_play_eleven_rounds() -> None:
    state = scripted(2)
    assert len(state.rounds) == 11 and 9 not in state.rounds


def test_field_phase_takes_one_from_each_sown_field() -> None:
    state = scripted(3)
    _at_round(state, 3)
    board = state.players[0].board
    for pos, crop, count in (((2, 3), "grain", 3), ((1, 3), "vegetable", 1)):
        space = board.edit(pos)
        space.tile, space.crop, space.crop_count = "field", crop, count
    give(state, 0, food=4)
    _end_work(state)
    assert state.players[0].goods["grain"] == 1 and state.players[0].goods["vegetable"] == 1
    assert board.at((2, 3)).crop_count == 2
    assert board.at((1, 3)).crop is None


def test_breeding_needs_two_and_room_for_the_young() -> None:
    """Two wild boars, one in the entry dwelling and one in a forest stable: there is
    room for a piglet in the dwelling, so it is born (rulebook example)."""
    state = scripted(3)
    _at_round(state, 3)
    player = state.players[0]
    player.board.edit((0, 0)).stable = True
    player.animals["wild_boar"] = 2
    give(state, 0, food=4)
    events = _end_work(state)
    assert first(events, "young_born").args == {"animals": {"wild_boar": 1}}
    assert player.animals["wild_boar"] == 3


def test_no_young_without_room() -> None:
    state = scripted(3)
    _at_round(state, 3)
    state.players[0].animals["sheep"] = 2
    give(state, 0, food=4)
    _end_work(state)
    assert state.players[0].animals["sheep"] == 2


def test_the_player_chooses_when_room_allows_only_some_young() -> None:
    state = scripted(3)
    _at_round(state, 3)
    player = state.players[0]
    board = player.board
    board.edit((2, 3)).tile = "small_pasture"
    meadow = board.edit((1, 3))
    meadow.tile, meadow.stable = "meadow", True
    player.animals.update(sheep=2, wild_boar=2)
    give(state, 0, food=4)
    _end_work(state)
    assert sorted(keys(state, 0)) == ["young:sheep*1", "young:wild_boar*1"]
    play(state, 0, "young:wild_boar*1")
    assert (player.animals["sheep"], player.animals["wild_boar"]) == (2, 3)
