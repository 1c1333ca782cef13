"""The autopilot (bot/table/autopilot.py): the greedy level decides from what its seat
may know. Two states that differ only in what the seat cannot see — the deck's order,
the dice to come, the face-down tiles, cards and markers — get the same choice from the
same randomness; trying the options on the real state instead would not."""

from __future__ import annotations

import random
from collections.abc import Callable
from functools import cache
from typing import Any

import pytest
from pydantic import BaseModel

from bot.table.autopilot import choose
from engine.ai.greedy import greedy
from engine.caverna.caverna_game import CAVERNA
from engine.caverna.components import components as caverna_components
from engine.caverna.state import CavernaState
from engine.core.prompts import Prompt
from engine.core.protocol import Game
from engine.core.reveals import hidden_part
from engine.core.rng import SeededRandom
from engine.hunters_gatherers.game import GAME as HUNTERS_GATHERERS
from engine.hunters_gatherers.state import HuntersGatherersState
from engine.stone_age.game import GAME as STONE_AGE
from engine.stone_age.state import StoneAgeState
from tests.engine.ai.omniscient import Omniscient
from tests.tiny_game.engine.game import CHARMS, CharmNimState
from tests.tiny_game.engine.game import GAME as CHARM_NIM

STATES = 8  # decision points tried per game
SEEDS = range(3)  # the autopilot's randomness, per decision point


# --- twins made by hand: everything the seat cannot see changed -----------------------


def _stone_age_twin(state: StoneAgeState, seat: int) -> StoneAgeState:
    twin = STONE_AGE.copy(state)
    twin.deck.reverse()
    if twin.box and any(len(p) > 1 for p in twin.piles):
        pile = next(p for p in twin.piles if len(p) > 1)
        pile[0], twin.box[0] = twin.box[0], pile[0]
    other = next((p for s, p in enumerate(twin.players) if s != seat and p.blind), None)
    if other is not None and twin.deck and twin.phase != "over":
        blind, unseen = other.blind[0], twin.deck[0]
        other.cards[other.cards.index(blind)] = unseen
        other.blind[0] = unseen
        twin.deck[0] = blind
    twin.rng = SeededRandom(seed=424242)
    return twin


def _hunters_gatherers_twin(state: HuntersGatherersState, seat: int) -> HuntersGatherersState:
    twin = HUNTERS_GATHERERS.copy(state)
    twin.draw.reverse()
    twin.bonus.reverse()
    twin.rng = SeededRandom(seed=424242)
    return twin


def _caverna_twin(state: CavernaState, seat: int) -> CavernaState:
    twin = CAVERNA.copy(state)
    rounds = sorted(twin.markers)
    twin.markers = dict(zip(rounds, [twin.markers[r] for r in reversed(rounds)], strict=True))
    fixed = caverna_components().fixed_round_cards()
    for stage_rounds in caverna_components().tables.rounds.stages.values():
        hidden = [r for r in stage_rounds if r in twin.cards and r not in fixed]
        cards = [twin.cards[r] for r in reversed(hidden)]
        twin.cards.update(zip(hidden, cards, strict=True))
    twin.rng = SeededRandom(seed=424242)
    return twin


def _charm_nim_twin(state: CharmNimState, seat: int) -> CharmNimState:
    twin = CHARM_NIM.copy(state)
    other = (seat + 1) % len(twin.charms)
    twin.charms[other], twin.deck[0] = twin.deck[0], twin.charms[other]
    return twin


Twin = Callable[[Any, int], Any]
# Each game, and how to make a twin of one of its states for a seat by hand.
GAMES: dict[str, tuple[Game[Any], Twin]] = {
    "stone_age": (STONE_AGE, _stone_age_twin),
    "hunters_gatherers": (HUNTERS_GATHERERS, _hunters_gatherers_twin),
    "caverna": (CAVERNA, _caverna_twin),
    "charm_nim": (CHARM_NIM, _charm_nim_twin),
}


# --- the old way, for the positive controls --------------------------------------------


# --- the decision points ----------------------------------------------------------------


def _reveals(game: Game[Any], state: BaseModel, prompt: Prompt) -> bool:
    """Does some option of ``prompt`` roll, draw or turn something up?"""
    before = hidden_part(game, state)
    for option in prompt.options:
        trial = game.copy(state)
        game.apply(trial, prompt.seat, option.key)
        if hidden_part(game, trial) != before:
            return True
    return False


@cache
def _decision_points(name: str) -> list[tuple[Any, Any, Prompt]]:
    """States of a random game with a choice of two options or more, each with its twin
    for the seat deciding: just before a roll, a draw or a card turned when the game
    has such moves (the tiny game has none: its charms stay hidden throughout)."""
    game, twin_of = GAMES[name]
    rnd = random.Random(17)
    points: list[tuple[Any, Any, Prompt]] = []
    for seed in range(17, 27):  # a tiny game is over after a few choices: play more
        state = game.new(game.max_players if name != "caverna" else 3, seed, {})
        while (prompts := game.pending(state)) and len(points) < STATES:
            prompt = prompts[0]
            choices = [o for o in prompt.options if not o.back]
            if len(choices) > 1 and (name == "charm_nim" or _reveals(game, state, prompt)):
                twin = twin_of(state, prompt.seat)
                assert game.view(twin, prompt.seat) == game.view(state, prompt.seat)
                assert game.dump(twin) != game.dump(state)
                points.append((game.copy(state), twin, prompt))
            game.apply(state, prompt.seat, rnd.choice(prompt.options).key)
    assert len(points) == STATES, name
    return points


def _twin_prompt(game: Game[Any], twin: BaseModel, prompt: Prompt) -> Prompt:
    asked = next(p for p in game.pending(twin) if p.seat == prompt.seat)
    assert asked.keys() == prompt.keys()
    return asked


# --- the tests ---------------------------------------------------------------------------


@pytest.mark.parametrize("name", GAMES)
def test_the_greedy_choice_is_the_same_for_states_the_seat_cannot_tell_apart(
        name: str) -> None:
    game = GAMES[name][0]
    for state, twin, prompt in _decision_points(name):
        asked = _twin_prompt(game, twin, prompt)
        for seed in SEEDS:
            for judge in (game, Omniscient(game)):
                mine = choose(judge, state, prompt, "greedy", random.Random(seed))
                theirs = choose(judge, twin, asked, "greedy", random.Random(seed))
                assert mine == theirs, (name, prompt.label.code, seed)
                assert mine in {o.key for o in prompt.options}


@pytest.mark.parametrize("name", GAMES)
def test_trying_the_options_on_the_real_state_would_peek(name: str) -> None:
    """The positive control: the same decision points tell the old way's twins apart,
    so the test above could fail."""
    game = GAMES[name][0]
    omniscient = Omniscient(game)
    told = 0
    for state, twin, prompt in _decision_points(name):
        asked = _twin_prompt(game, twin, prompt)
        # The greedy player handed the real state, as the autopilot was before.
        told += sum(
            greedy(omniscient, state, prompt, random.Random(seed))
            != greedy(omniscient, twin, asked, random.Random(seed))
            for seed in SEEDS)
    assert told > 0, name


def test_the_old_way_followed_the_real_dice_in_stone_age() -> None:
    """With the game's own heuristic too: trying the options on the real state let the
    autopilot see the dice it would roll."""
    told = 0
    for state, twin, prompt in _decision_points("stone_age"):
        asked = _twin_prompt(STONE_AGE, twin, prompt)
        told += sum(
            greedy(STONE_AGE, state, prompt, random.Random(seed))
            != greedy(STONE_AGE, twin, asked, random.Random(seed))
            for seed in SEEDS)
    assert told > 0


def test_the_greedy_choice_leaves_the_state_alone_and_the_random_level_stays_random() -> None:
    state, _, prompt = _decision_points("stone_age")[0]
    before = STONE_AGE.dump(state)
    choose(STONE_AGE, state, prompt, "greedy", random.Random(1))
    assert STONE_AGE.dump(state) == before
    picks = {choose(STONE_AGE, state, prompt, "random", random.Random(seed)) for seed in range(30)}
    assert len(picks) > 1 and picks <= set(prompt.keys())


def test_greedy_prefers_what_the_heuristic_values() -> None:
    state = CHARM_NIM.new(2, 3)
    charm = state.charms[0]
    prompt = CHARM_NIM.pending(state)[0]
    # Taking as many stones as its charm names earns seat 0 a point: the greedy pick.
    wanted = str(CHARMS[charm])
    for seed in SEEDS:
        assert choose(CHARM_NIM, state, prompt, "greedy", random.Random(seed)) == wanted
