"""Rounds: a card turned each round, the round-4 card turned to its urgent side by Family
life, supplier income, solo clearing of crowded spaces, the end of the game."""

from __future__ import annotations

import random

import pytest

from engine.caverna.caverna_game import CAVERNA
from engine.caverna.rounds import open_round
from engine.caverna.state import CavernaState
from tests.engine.caverna.scenario import codes, first, give, keys, play, run, scripted


def _to_round(state: CavernaState, round_number: int) -> list:  # type: ignore[type-arg]
    state.stacks = {}
    state.round = state.rounds[state.rounds.index(round_number) - 1]
    return run(state, open_round)


def test_each_round_adds_its_card_as_a_space() -> None:
    state = scripted(3, cards={1: "blacksmithing", 2: "sheep_farming"})
    assert state.space("blacksmithing").round == 1
    assert not state.has_space("sheep_farming")
    events = _to_round(state, 2)
    assert first(events, "card_revealed").args == {"round": 2, "card": "sheep_farming"}
    assert state.space("sheep_farming").goods == {"sheep": 1}


def test_family_life_turns_wish_for_children_to_its_urgent_side() -> None:
    state = scripted(3)
    state.cards = {4: "wish_for_children", 7: "family_life"}
    _to_round(state, 4)
    assert state.has_space("wish_for_children")
    events = _to_round(state, 7)
    assert "card_turned" in codes(events)
    assert state.has_space("urgent_wish_for_children")
    assert not state.has_space("wish_for_children")
    assert state.space("urgent_wish_for_children").round == 4


def test_supplier_goods_arrive_at_the_start_of_their_round() -> None:
    state = scripted(3)
    state.players[0].income = {2: {"wood": 1}, 3: {"wood": 1}}
    _to_round(state, 2)
    assert state.players[0].goods["wood"] == 1 and 2 not in state.players[0].income


def test_wood_supplier_puts_wood_on_the_next_seven_rounds() -> None:
    state = scripted(3)
    give(state, 0, stone=1)
    play(state, 0, "go:housework", "part:1", "tile:wood_supplier")
    assert sorted(state.players[0].income) == [2, 3, 4, 5, 6, 7, 8]


def test_solo_clears_a_space_holding_exactly_six_goods() -> None:
    """Solo: before replenishing, a space with 6 or more goods is emptied (rulebook:
    "6 или больше"); 5 goods stay."""
    state = scripted(1)
    state.space("wood_gathering").goods = {"wood": 6}
    state.space("logging_1_3").goods = {"wood": 5}
    events = _to_round(state, 2)
    assert first(events, "space_cleared").args == {"space": "wood_gathering",
                                                   "goods": {"wood": 6}}
    assert state.space("wood_gathering").goods == {"wood": 1}  # cleared, then replenished
    assert state.space("logging_1_3").goods == {"wood": 6}


def test_solo_keeps_a_crowded_space_for_a_ruby() -> None:
    state = scripted(1)
    state.space("wood_gathering").goods = {"wood": 6}
    state.space("ore_mining_1_3").goods = {"ore": 7}
    give(state, 0, ruby=1)
    _to_round(state, 2)
    assert keys(state, 0) == ["keep:ore_mining_1_3", "keep:wood_gathering", "clear"]
    events = play(state, 0, "keep:ore_mining_1_3")
    # no ruby left: the other space is cleared without asking, and the log says so
    assert first(events, "space_cleared").args["space"] == "wood_gathering"
    assert state.space("ore_mining_1_3").goods == {"ore": 8}
    assert state.space("wood_gathering").goods == {"wood": 1}
    assert state.players[0].goods["ruby"] == 0


def test_the_game_ends_after_round_twelve() -> None:
    state = scripted(3)
    _to_round(state, 12)
    state.harvest = "none"
    for player in state.players:
        for dwarf in player.dwarfs:
            dwarf.at = "elsewhere"
    events = run(state)
    assert state.phase == "over" and "game_over" in codes(events)


@pytest.mark.parametrize("players", [1, 2, 3])
def test_a_skipped_round_is_said(players: int) -> None:
    """With one or two players round 9 is not played, and the start of round 10 says
    so; with more players no round is skipped."""
    rnd = random.Random(players)
    state = CAVERNA.new(players, players)
    skipped = []
    while prompts := CAVERNA.pending(state):
        prompt = rnd.choice(prompts)
        events = CAVERNA.apply(state, prompt.seat, rnd.choice(prompt.keys()))
        skipped += [(e.args["round"], state.round) for e in events if e.code == "round_skipped"]
    assert skipped == ([(9, 10)] if players <= 2 else [])
