"""The game's board cache: owned per game object, bounded, and never changes an answer."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator

from engine.hunters_gatherers.board import board_of, spots
from engine.hunters_gatherers.board_cache import BoardCache
from engine.hunters_gatherers.game import GAME, HuntersGatherers
from engine.hunters_gatherers.state import HuntersGatherersState
from tests.engine.round_trip import random_moves


def _record(game: HuntersGatherers, state: HuntersGatherersState) -> str:
    """Everything the outside sees of one moment of a game."""
    prompts = game.pending(state)
    return json.dumps(
        {
            "prompts": repr([(p.seat, p.label, p.options, p.step) for p in prompts]),
            "views": [game.view(state, seat).model_dump(mode="json")
                      for seat in [None, *range(state.n)]],
            "values": [game.heuristic(state, seat) for seat in range(state.n)],
            "problems": game.invariants(state),
            "dump": game.dump(state),
        },
        sort_keys=True,
    )


def _steps(
    game: HuntersGatherers, players: int, seed: int, agent_seed: int | None = None
) -> Iterator[str]:
    """Play one random game on ``game``, yielding a record before each choice and after
    the last; a refused misfit key and the events of each choice are recorded too."""
    state = game.new(players, seed)
    agent = random.Random(seed if agent_seed is None else agent_seed)
    while True:
        record = _record(game, state)
        prompts = game.pending(state)
        if not prompts:
            yield record + repr(game.result(state))
            return
        prompt = agent.choice(prompts)
        key = agent.choice(prompt.options).key
        events = game.apply(state, prompt.seat, key)
        yield record + key + repr([(e.code, e.seat, e.args) for e in events])


def _alone(players: int, seed: int, agent_seed: int | None = None) -> list[str]:
    return list(_steps(HuntersGatherers(), players, seed, agent_seed))


def _interleaved(*games: Iterator[str]) -> list[list[str]]:
    """Advance every game one step at a time, round robin, until all have ended."""
    out: list[list[str]] = [[] for _ in games]
    live = dict(enumerate(games))
    while live:
        for i, steps in list(live.items()):
            step = next(steps, None)
            if step is None:
                del live[i]
            else:
                out[i].append(step)
    return out


def test_each_game_object_owns_its_cache() -> None:
    first, second = HuntersGatherers(), HuntersGatherers()
    assert first.cache is not second.cache and first.cache is not GAME.cache
    state = first.new(3, 1)
    first.view(state, None)
    assert any(first.cache.sizes().values())
    assert not any(second.cache.sizes().values())


def test_two_games_interleaved_on_one_game_object_play_as_if_alone() -> None:
    shared = HuntersGatherers()
    a, b = _interleaved(_steps(shared, 2, 11), _steps(shared, 4, 12))
    assert a == _alone(2, 11)
    assert b == _alone(4, 12)
    assert a != b


def test_same_deal_different_choices_interleaved_share_boards_safely() -> None:
    # Same seed, so the same tiles come up and early boards have equal keys; different
    # agents, so the maps part ways. Each must still play exactly as when alone.
    shared = HuntersGatherers()
    a, b, c = _interleaved(
        _steps(shared, 3, 5, agent_seed=1),
        _steps(shared, 3, 5, agent_seed=2),
        _steps(shared, 3, 5, agent_seed=1),
    )
    assert a == _alone(3, 5, agent_seed=1) == c
    assert b == _alone(3, 5, agent_seed=2)


def test_clearing_the_cache_mid_game_changes_nothing() -> None:
    game = HuntersGatherers()
    expected = _alone(2, 21)
    got = []
    for n, step in enumerate(_steps(game, 2, 21)):
        got.append(step)
        if n % 37 == 0:
            game.cache.clear()
    assert got == expected


def test_the_cache_stays_bounded() -> None:
    game = HuntersGatherers()
    bounds = game.cache.bounds()
    most = dict.fromkeys(bounds, 0)
    games = [_steps(game, 2 + seed % 4, 100 + seed) for seed in range(6)]
    live = list(games)
    while live:
        for steps in list(live):
            if next(steps, None) is None:
                live.remove(steps)
            sizes = game.cache.sizes()
            assert all(sizes[name] <= bounds[name] for name in bounds), sizes
            most = {name: max(most[name], sizes[name]) for name in bounds}
    # Six games lay hundreds of distinct maps: every memo filled up and then forgot.
    assert most == bounds


def test_cached_answers_match_fresh_ones() -> None:
    game = HuntersGatherers()
    state = game.new(3, 8)
    agent = random.Random(8)
    while prompts := game.pending(state):
        assert game.cache.spots(state) == spots(state)
        assert game.cache.board(state) == board_of(state)
        prompt = agent.choice(prompts)
        game.apply(state, prompt.seat, agent.choice(prompt.options).key)
    assert game.cache.spots(state) == spots(state) == []


def test_a_new_cache_is_empty() -> None:
    cache = BoardCache()
    assert not any(cache.sizes().values())
    assert all(bound > 0 for bound in cache.bounds().values())


def test_tiles_put_in_a_list_by_hand_are_read_afresh() -> None:
    # Only a tuple of tiles is known by itself: a list may change under the cache.
    game = HuntersGatherers()
    state = game.new(2, 3)
    random_moves(game, state, random.Random(3), 30)
    tiles = list(state.tiles)
    state.tiles = tiles  # type: ignore[assignment]  # what a careless caller might do
    assert game.cache.board(state) == board_of(state)
    tiles.pop()
    assert game.cache.board(state) == board_of(state)
    assert len(game.cache.board(state)) == len(tiles)
