"""engine.ai.levels: every level decides on what its seat may know, and nothing else."""

from __future__ import annotations

import random
from typing import Any

import pytest

from engine.ai import LEVELS, decide
from engine.ai.greedy import greedy, real_options
from engine.core.prompts import Prompt
from engine.registry import games, get_game
from tests.engine.ai.omniscient import Omniscient

GAMES = sorted(games())
# A search capped by iterations, with no time limit, is repeatable.
ITERATIONS = 12


def _choices(name: str, players: int, seed: int, every: int) -> list[tuple[Any, Prompt]]:
    """(state, prompt) at every ``every``-th prompt with a choice of a random game."""
    game: Any = get_game(name)
    state = game.new(players, seed)
    rnd = random.Random(seed)
    out: list[tuple[Any, Prompt]] = []
    n = 0
    while prompts := game.pending(state):
        prompt = rnd.choice(prompts)
        if len(real_options(prompt)) > 1:
            n += 1
            if n % every == 0:
                out.append((game.copy(state), prompt))
        game.apply(state, prompt.seat, rnd.choice(prompt.options).key)
    return out


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("level", sorted(LEVELS))
def test_two_states_that_differ_only_in_hidden_parts_get_the_same_decision(
        name: str, level: str) -> None:
    """A twin — the same state with its hidden part drawn again (deck orders, dice to
    come, face-down tiles, others' blind cards) — gets the same decision for the same
    seed at every level, even judged by a heuristic that reads every byte it is given."""
    game: Any = Omniscient(get_game(name))
    every = 9 if level == "strong" else 3
    checked = 0
    for state, prompt in _choices(name, 3, 5, every)[:12]:
        twin = game.redraw(state, prompt.seat, 424242)
        assert game.view(twin, prompt.seat) == game.view(state, prompt.seat)
        for seed in (1, 2):
            mine = decide(game, state, prompt, level, seed, iterations=ITERATIONS)
            theirs = decide(game, twin, prompt, level, seed, iterations=ITERATIONS)
            assert mine == theirs, (name, level, prompt.label.code)
            checked += 1
    assert checked >= 6


@pytest.mark.parametrize("name", GAMES)
def test_the_twins_hide_something_a_peeking_player_would_use(name: str) -> None:
    """The control for the test above: on the same kind of twins, a greedy player that
    tries its options on the real state decides differently, so a player that peeked
    would be caught."""
    game: Any = Omniscient(get_game(name))
    differs = 0
    for state, prompt in _choices(name, 3, 5, 1):
        twin = game.redraw(state, prompt.seat, 424242)
        # The greedy player handed the real state, as the autopilot was before.
        peeked = (greedy(game, s, prompt, random.Random(0)) for s in (state, twin))
        if next(peeked) != next(peeked):
            differs += 1
            if differs >= 2:
                break
    assert differs >= 1, name


def test_a_lone_real_option_is_played_at_once() -> None:
    """With one real option (a step back aside) no level weighs anything."""
    game: Any = get_game("stone_age")
    state = game.new(2, 3)
    prompt = game.pending(state)[0]
    lone = Prompt(prompt.seat, prompt.label, (prompt.options[0],))
    for level in LEVELS:
        assert decide(game, state, lone, level, 1) == prompt.options[0].key


def test_easy_misses_some_of_the_moves_normal_makes() -> None:
    """The easy level's noise: over many decisions it sometimes differs from normal,
    and normal is the same greedy choice every time for the same seed."""
    game: Any = get_game("stone_age")
    pairs = _choices("stone_age", 2, 7, 2)[:40]
    differ = sum(decide(game, s, p, "easy", 3) != decide(game, s, p, "normal", 3)
                 for s, p in pairs)
    assert 0 < differ < len(pairs)
    assert all(decide(game, s, p, "normal", 3) == decide(game, s, p, "normal", 3)
               for s, p in pairs[:10])


def test_the_state_handed_in_is_never_changed() -> None:
    game: Any = get_game("hunters_gatherers")
    for state, prompt in _choices("hunters_gatherers", 2, 4, 6)[:4]:
        before = game.dump(state)
        for level in LEVELS:
            decide(game, state, prompt, level, 9, iterations=ITERATIONS)
        assert game.dump(state) == before
