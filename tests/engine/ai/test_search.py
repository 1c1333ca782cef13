"""engine.ai.search: the tree search finds what one step of greed cannot see."""

from __future__ import annotations

import math
import random

from engine.ai.greedy import greedy
from engine.ai.rewards import baseline
from engine.ai.search import Node, SearchLimits, _iterate, search
from tests.tiny_game.engine.game import CharmNim, CharmNimState

LIMITS = SearchLimits(seconds=math.inf, iterations=400, playout=0)


def _nim(pile: int, charm: str) -> tuple[CharmNim, CharmNimState]:
    game = CharmNim()
    state = CharmNimState(pile=pile, turn=0, charms=[charm, "owl"],
                          deck=["hare", "lynx", "bear", "wolf"], charm_points=[0, 0])
    return game, state


def test_search_leaves_the_rival_a_losing_pile_where_greed_takes_its_charm() -> None:
    """Five stones, a charm woken by 2: greed takes 2 (a point now) and leaves 3, so the
    rival takes the last stone (3 points). Search takes 1 and leaves 4: whatever the
    rival takes, the last stone is ours."""
    game, state = _nim(5, "fox")
    prompt = game.pending(state)[0]
    assert greedy(game, state, prompt, random.Random(1)) == "2"
    for seed in range(3):
        assert search(game, state, prompt, random.Random(seed), LIMITS) == "1"


def test_search_takes_the_last_stones_when_it_can() -> None:
    game, state = _nim(3, "owl")
    prompt = game.pending(state)[0]
    assert search(game, state, prompt, random.Random(0), LIMITS) == "3"


def test_a_time_budget_stops_the_search_on_its_clock() -> None:
    """The clock is read, not slept on: a clock that jumps past the budget after a few
    readings ends the search after the first iteration, with an answer."""
    game, state = _nim(9, "bear")
    prompt = game.pending(state)[0]
    ticks = iter(range(1000))
    answer = search(game, state, prompt, random.Random(0),
                    SearchLimits(seconds=2.0, playout=0, prior=0),
                    clock=lambda: 0.0 if next(ticks) < 2 else 10.0)
    assert answer in {"1", "2", "3"}


def test_the_exploration_bonus_counts_availability() -> None:
    """ISMCTS: a child seen available more often, with the same visits and rewards,
    is explored more."""
    often, rarely = Node(0, visits=2, total=1.0, available=50), Node(0, 2, 1.0, 3)
    assert often.score(0.7) > rarely.score(0.7)
    assert Node(0, 2, 1.0, 3).score(0.0) == 0.5


def _nodes(node: Node) -> list[Node]:
    return [node, *(n for child in node.children.values() for n in _nodes(child))]


def test_a_game_whose_rivals_answer_greedily_grows_their_greedy_answers_alone() -> None:
    """With ``greedy_rivals`` the tree branches on the searching seat's decisions only:
    at every rival's decision it holds the one answer greed gives, and the search still
    finds the winning move."""
    game, state = _nim(5, "fox")
    game.greedy_rivals = True
    prompt = game.pending(state)[0]
    root = Node(seat=-1)
    base = baseline(game, state, 2)
    rnd = random.Random(0)
    for _ in range(100):
        _iterate(game, state, prompt, root, base, rnd, LIMITS)
    answered = [n for n in _nodes(root) if n.answer is not None]
    assert answered and all(list(n.children) == [n.answer] for n in answered)
    assert all(child.seat == prompt.seat for child in root.children.values())
    assert search(game, state, prompt, random.Random(1), LIMITS) == "1"
