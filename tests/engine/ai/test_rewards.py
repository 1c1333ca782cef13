"""engine.ai.rewards: gains for a game going on, the result for one that is over."""

from __future__ import annotations

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
