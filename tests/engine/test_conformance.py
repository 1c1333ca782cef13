"""Every registered game passes the same conformance checks (engine/core/conformance.py).

A game is picked up here by registration alone: nothing below names a game.
"""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest

from engine.core.conformance import (
    GARBLED_KEYS,
    check_redraw,
    check_refused_keys,
    conformance_playout,
    leaks,
    redraw_playout,
)
from engine.core.protocol import Game
from engine.registry import games
from tests.tiny_game.hosting import with_test_games

GAMES = with_test_games(games())
PLAYOUTS = 3


def _counts(game: Game[Any]) -> list[int]:
    return list(range(game.min_players, game.max_players + 1))


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.usefixtures("hosted_game")
def test_random_playouts_conform(name: str) -> None:
    game = games()[name]
    promises = 0
    for players in _counts(game):
        for seed in range(PLAYOUTS):
            found = conformance_playout(game, players, 1000 * players + seed)
            assert not found.problems, (name, players, found.seed, found.problems[:5])
            assert found.result is not None and found.actions > 0
            promises += found.promises
    # "You're next" was promised and checked, not merely never offered.
    assert promises > 0


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.usefixtures("hosted_game")
def test_new_is_reproducible_from_the_seed(name: str) -> None:
    game = games()[name]
    players = game.min_players
    assert game.dump(game.new(players, 42, {})) == game.dump(game.new(players, 42, {}))
    assert game.dump(game.new(players, 42, {})) != game.dump(game.new(players, 43, {}))


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.usefixtures("hosted_game")
def test_views_never_show_the_seed(name: str) -> None:
    game = games()[name]
    seed = 987_654_321_123
    state = game.new(game.max_players, seed, {})
    for seat in [None, *range(game.max_players)]:
        assert not leaks(game.view(state, seat), seed)


def test_leaks_finds_orders_and_values_but_not_small_numbers() -> None:
    view = {"row": ["c1", "c2"], "deck": 3, "players": [{"cards": ["c9", "c4", "c7"]}]}
    assert leaks(view, ["c9", "c4"])
    assert not leaks(view, ["c4", "c9"])  # the order is the secret
    assert leaks(view, ["c7"]) and not leaks(view, ["c8"])
    assert not leaks(view, 3)  # too small to tell from a count
    assert leaks({"seed": 123456}, {"seed": 123456, "pos": 2})
    assert not leaks(view, [])


class _Lenient:
    """A broken game that accepts anything: the refusal check must notice."""

    def __init__(self, game: Game[Any]) -> None:
        self.game = game

    def __getattr__(self, name: str) -> Any:
        return getattr(self.game, name)

    def apply(self, state: Any, seat: int, key: str) -> list[Any]:
        state.actions = getattr(state, "actions", 0) + 1
        return []


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.usefixtures("hosted_game")
def test_the_refusal_check_can_fail(name: str) -> None:
    import random

    game = games()[name]
    state = game.new(game.min_players, 5, {})
    problems = check_refused_keys(_Lenient(game), state, random.Random(1))  # type: ignore[arg-type]
    assert any("accepted though not offered" in p for p in problems)
    assert GARBLED_KEYS


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.usefixtures("hosted_game")
def test_a_move_never_changes_the_stored_state_it_was_loaded_from(name: str) -> None:
    """The bot loads a state from a stored record's data and applies a move to it; the
    store keeps the record it read or wrote for the next press (``GameStore.get``), so
    that data must come out of every move unchanged."""
    game = games()[name]
    rnd = random.Random(7)
    for players in (game.min_players, game.max_players):
        stored = game.state_type.model_validate(
            game.new(players, 100 + players, {}).model_dump(mode="json")).model_dump(mode="json")
        for _ in range(150):
            before = copy.deepcopy(stored)
            state = game.state_type.model_validate(stored)
            prompts = game.pending(state)
            if not prompts:
                break
            prompt = rnd.choice(prompts)
            game.apply(state, prompt.seat, rnd.choice(prompt.keys()))
            assert stored == before, (name, players)
            stored = state.model_dump(mode="json")


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.usefixtures("hosted_game")
def test_redraws_conform(name: str) -> None:
    """Over states of a random game per player count and every seat: the seat cannot
    tell a redrawn state, twins redraw alike, redrawn states hold and play to their end;
    and redraws do vary (else a redraw that changed nothing would pass)."""
    game = games()[name]
    checked = varied = 0
    for players in _counts(game):
        found = redraw_playout(game, players, 500 + players)
        assert not found.problems, (name, players, found.problems[:5])
        checked += found.checked
        varied += found.varied
    assert checked > 0 and varied > 0, (name, checked, varied)


class _Redrawn:
    """A game whose ``redraw`` is replaced by a broken one: the checks must notice."""

    def __init__(self, game: Game[Any], redraw: Any) -> None:
        self.game = game
        self.redraw = redraw

    def __getattr__(self, name: str) -> Any:
        return getattr(self.game, name)


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.usefixtures("hosted_game")
def test_a_redraw_that_changes_nothing_is_caught_by_the_variety_check(name: str) -> None:
    game = games()[name]
    unchanged = _Redrawn(game, lambda state, seat, seed: game.copy(state))
    found = redraw_playout(unchanged, game.max_players, 3, playouts=0)
    # Every other check passes a copy: only the variety shows the redraw is no redraw.
    assert not found.problems and found.checked > 0 and found.varied == 0


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.usefixtures("hosted_game")
def test_a_redraw_that_ignores_the_state_is_caught(name: str) -> None:
    game = games()[name]
    state = game.new(game.max_players, 3, {})
    seat = game.pending(state)[0].seat
    game.apply(state, seat, game.pending(state)[0].options[-1].key)
    # The same state whatever it is given: twins redraw alike, but the seat can tell.
    constant = _Redrawn(game, lambda _s, _seat, seed: game.new(game.max_players, seed, {}))
    problems = check_redraw(constant, state, 0)
    assert problems == ["seat 0 can tell a redrawn state by its view"]


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.usefixtures("hosted_game")
def test_a_redraw_that_changes_its_input_is_caught(name: str) -> None:
    game = games()[name]
    state = game.new(game.max_players, 3, {})

    def in_place(given: Any, seat: int, seed: int) -> Any:
        redrawn = game.redraw(given, seat, seed)
        for field_name in type(given).model_fields:
            setattr(given, field_name, getattr(redrawn, field_name))
        return redrawn

    problems = check_redraw(_Redrawn(game, in_place), state, 0)
    assert "redraw for seat 0 changed the state it was given" in problems
