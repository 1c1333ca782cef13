"""Placing dwarfs: turn order, weapon order (unarmed first), a ruby to break the order,
one dwarf per space, and players who run out of dwarfs or of spaces."""

from __future__ import annotations

from engine.caverna.placement import next_in_order, out_of_order
from engine.caverna.state import Dwarf
from tests.engine.caverna.scenario import GAME, first, give, keys, play, prompt, refused, scripted
from tests.engine.events import assert_turns


def test_turns_go_round_one_dwarf_each() -> None:
    state = scripted(3)
    assert state.turn == 0
    assert_turns(GAME, state, [
        (0, "go:wood_gathering", 1), (1, "go:supplies", 2), (2, "go:ruby_mining", 0)])


def test_a_space_takes_one_dwarf_a_round() -> None:
    state = scripted(3)
    play(state, 0, "go:wood_gathering")
    assert "go:wood_gathering" not in keys(state, 1)
    refused(state, 1, "go:wood_gathering", "space_not_open")


def test_only_the_seat_whose_turn_it_is_may_place() -> None:
    state = scripted(3)
    refused(state, 1, "go:supplies", "not_your_turn")


def test_unarmed_dwarfs_go_first_then_by_rising_strength() -> None:
    state = scripted(2)
    player = state.players[0]
    player.dwarfs = [Dwarf(weapon=5), Dwarf(weapon=0), Dwarf(weapon=3)]
    assert next_in_order(player) == 1
    play(state, 0, "go:supplies")
    assert player.dwarfs[1].at == "supplies"
    play(state, 1, "go:wood_gathering")
    assert next_in_order(player) == 2


def test_a_ruby_sends_a_dwarf_out_of_order() -> None:
    """Two dwarfs at home, strength 3 and 14: the 14 goes first for 1 ruby."""
    state = scripted(2)
    player = state.players[0]
    player.dwarfs = [Dwarf(weapon=3), Dwarf(weapon=14)]
    assert out_of_order(player) == []
    give(state, 0, ruby=1)
    assert out_of_order(player) == [1]
    assert "dwarf:1" in keys(state, 0)
    play(state, 0, "dwarf:1")
    assert prompt(state, 0).options[-1].back
    events = play(state, 0, "go:supplies")
    assert player.goods["ruby"] == 0
    assert player.dwarfs[1].at == "supplies"
    assert first(events, "placed").args["out_of_order"] is True


def test_dwarfs_of_equal_strength_need_no_ruby() -> None:
    state = scripted(2)
    give(state, 0, ruby=2)
    assert out_of_order(state.players[0]) == []
    assert not any(k.startswith("dwarf:") for k in keys(state, 0))


def test_back_out_of_a_ruby_choice_costs_nothing() -> None:
    state = scripted(2)
    state.players[0].dwarfs = [Dwarf(weapon=0), Dwarf(weapon=4)]
    give(state, 0, ruby=1)
    play(state, 0, "dwarf:1", "back")
    assert state.players[0].goods["ruby"] == 1
    assert state.top(0) is None


def test_a_player_out_of_dwarfs_is_passed_over() -> None:
    state = scripted(2)
    state.players[1].dwarfs.append(Dwarf())
    state.players[1].board.edit((3, 1)).tile = "cavern"
    play(state, 0, "go:wood_gathering")
    play(state, 1, "go:supplies")
    play(state, 0, "go:excavation_1_3", "part:0", "stop")
    play(state, 1, "go:logging_1_3")
    assert state.turn == 1  # seat 0 is out of dwarfs; seat 1 places its third
    play(state, 1, "go:sustenance_1_3", "part:0", "stop")
    assert state.phase == "work" and state.round == 2


def test_an_empty_space_with_nothing_else_to_do_is_not_open() -> None:
    """Two players: Ruby mining holds no ruby in round 1, and nobody has a ruby mine."""
    state = scripted(2)
    assert "go:ruby_mining" not in keys(state, 0)
    refused(state, 0, "go:ruby_mining", "space_not_open")


def test_newborn_dwarfs_do_not_work_in_their_birth_round() -> None:
    state = scripted(2)
    state.players[0].dwarfs.append(Dwarf(born=True))
    assert state.players[0].home() == [0, 1]
