"""engine.ai.rewards: gains for a game going on, the result for one that is over."""

from __future__ import annotations

from typing import Any

from engine.ai.rewards import baseline, reward, rewards
from tests.tiny_game.engine.game import CharmNim, CharmNimState


def _state(pile: int, points: list[int], last: int | None = None) -> CharmNimState:
    return CharmNimState(pile=pile, turn=0, charms=["owl", "fox"],
                         deck=["hare", "lynx", "bear", "wolf"], charm_points=points,
                         last_taker=last)


def test_a_game_going_on_is_judged_by_each_seats_own_gain() -> None:
    game = CharmNim()
    start = _state(9, [0, 0])
    base = baseline(game, start, 2)
    assert rewards(game, start, base) == [0.5, 0.5]
    later = _state(7, [1, 0])
    mine, theirs = rewards(game, later, base)
    assert mine > 0.5 and theirs == 0.5


def test_a_finished_game_rewards_the_winner_most() -> None:
    game = CharmNim()
    base = baseline(game, _state(9, [0, 0]), 2)
    won, lost = rewards(game, _state(0, [1, 0], last=0), base)
    assert won == 1.0 and 0.0 < lost < 0.5
    close, far = (rewards(game, _state(0, [0, p], last=0), base)[1] for p in (2, 0))
    assert close > far  # a loser nearer the winner is judged less badly


def test_a_game_that_weighs_rivals_judges_a_seat_against_their_gains() -> None:
    """With ``rivalry`` 1 what a rival gains counts against a seat as much as its own
    gain for it: equal gains leave both where they began, and ``reward`` tells one seat
    what ``rewards`` tells it."""
    game = CharmNim()
    game.rivalry = 1.0
    base = baseline(game, _state(9, [0, 0]), 2)
    mine, theirs = rewards(game, _state(7, [1, 0]), base)
    assert mine > 0.5 > theirs
    assert rewards(game, _state(7, [1, 1]), base) == [0.5, 0.5]
    assert reward(game, _state(7, [1, 0]), base, 1) == theirs


def test_a_game_that_weighs_its_rivals_mean_judges_a_seat_against_it() -> None:
    """With ``rival_mean`` a seat's gain counts against its rivals' mean gain, not the
    top rival's: the same with two seats."""
    game = CharmNim()
    game.rivalry, game.rival_mean = 1.0, True
    base = baseline(game, _state(9, [0, 0]), 2)
    game.rival_mean = False
    by_top = rewards(game, _state(7, [1, 0]), base)
    game.rival_mean = True
    assert rewards(game, _state(7, [1, 0]), base) == by_top


class _Gains:
    """A stand-in game of three seats whose state is each seat's value."""

    rivalry, rival_mean = 1.0, True

    def result(self, state: list[float]) -> None:
        return None

    def heuristic(self, state: list[float], seat: int) -> float:
        return state[seat]


def test_three_seats_against_their_rivals_mean_gain() -> None:
    """Seat 0 gains 3, its rivals 6 and 0: level with their mean, it is where it began
    (against the top rival's 6 it would be behind)."""
    game: Any = _Gains()
    mine, top, low = rewards(game, [3.0, 6.0, 0.0], [0.0, 0.0, 0.0])
    assert mine == 0.5 and top > mine > low
    game.rival_mean = False
    assert rewards(game, [3.0, 6.0, 0.0], [0.0, 0.0, 0.0])[0] < 0.5
