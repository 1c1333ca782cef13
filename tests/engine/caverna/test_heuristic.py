"""The greedy autopilot's judgement: it ranks sensibly, and autopilot-only games end."""

from __future__ import annotations

import random

import pytest

from bot.autopilot import choose
from engine.caverna.caverna_game import CAVERNA, new_game
from engine.caverna.heuristic import hunger, open_action, position_value
from engine.caverna.state import Dwarf


def greedy_game(players: int, seed: int) -> tuple[int, list[int]]:
    """An autopilot-only game: (actions, totals)."""
    state = new_game(players, seed)
    rnd = random.Random(seed)
    actions = 0
    while prompts := CAVERNA.pending(state):
        prompt = prompts[0]
        CAVERNA.apply(state, prompt.seat, choose(CAVERNA, state, prompt, "greedy", rnd))
        actions += 1
        assert not CAVERNA.invariants(state)
    result = CAVERNA.result(state)
    assert result is not None
    return actions, [s.total for s in result.scores]


@pytest.mark.parametrize("players", range(1, 8))
def test_autopilot_games_end(players: int) -> None:
    actions, totals = greedy_game(players, players)
    assert actions > 0 and len(totals) == players


def test_more_food_is_better_when_short() -> None:
    state = new_game(4, 1)
    before = position_value(state, 0)
    assert hunger(state, 0) > 0
    state.players[0].goods["food"] += 3
    assert hunger(state, 0) == 0
    assert position_value(state, 0) > before + 3


def test_a_bigger_family_is_better() -> None:
    state = new_game(4, 1)
    before = position_value(state, 1)
    state.players[1].goods["food"] += 10  # no hunger in either position
    fed = position_value(state, 1)
    state.players[1].dwarfs.append(Dwarf(born=True))
    assert position_value(state, 1) > fed > before


def test_begging_is_worse() -> None:
    state = new_game(4, 1)
    before = position_value(state, 0)
    state.players[0].begging = 1
    assert position_value(state, 0) < before - 2


def test_an_action_begun_counts_the_parts_still_to_do() -> None:
    state = new_game(4, 1)
    CAVERNA.apply(state, 0, "go:excavation_4_7")  # 2 stone and/or a cavern/tunnel twin
    keys = [o.key for o in CAVERNA.pending(state)[0].options]
    assert keys == ["part:0", "part:1"]
    waiting = open_action(state, 0)
    assert waiting > 0
    CAVERNA.apply(state, 0, "part:0")  # the stone is taken: less is still to come
    assert state.players[0].goods["stone"] == 2
    assert 0 <= open_action(state, 0) < waiting
