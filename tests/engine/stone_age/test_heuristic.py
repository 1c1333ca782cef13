"""The heuristic: a position valued as the final score it leads to, its future priced
by the rounds left."""

from __future__ import annotations

import random

from engine.stone_age.game import GAME
from engine.stone_age.heuristic import position_value
from engine.stone_age.outlook import rounds_after_this
from engine.stone_age.state import StoneAgeState
from tests.engine.stone_age.helpers import scripted


def _finished(seed: int) -> StoneAgeState:
    state = GAME.new(2, seed)
    rnd = random.Random(seed)
    while prompts := GAME.pending(state):
        prompt = rnd.choice(prompts)
        GAME.apply(state, prompt.seat, rnd.choice(prompt.options).key)
    return state


def test_a_finished_game_is_worth_its_final_score() -> None:
    for seed in (1, 2):
        state = _finished(seed)
        result = GAME.result(state)
        assert result is not None
        assert [position_value(state, s.seat) for s in result.scores] == [
            s.total for s in result.scores]


def test_the_rounds_left_shrink_as_the_deck_and_piles_run_out() -> None:
    state = scripted(players=2)
    early = rounds_after_this(state)
    state.deck = state.deck[:6]
    assert 0 < rounds_after_this(state) < early
    state.last_round = True
    assert rounds_after_this(state) == 0


def test_a_person_is_worth_more_with_more_rounds_to_work() -> None:
    """A person gained early pays for its food many times over; in the last round it
    only eats."""
    def gain(last: bool) -> float:
        state = scripted(players=2)
        state.last_round = last
        before = position_value(state, 0)
        state.players[0].people += 1
        return position_value(state, 0) - before
    assert gain(False) > 5 > gain(True)


def test_food_short_for_the_feedings_to_come_costs_at_most_the_hunger_penalty() -> None:
    """Food in hand is worth something only while feedings to come lack it; a feeding
    short costs less than the penalty when resources can cover it, the penalty at most."""
    state = scripted(players=2)
    state.last_round = True
    state.phase = "actions"
    player = state.players[0]
    player.goods["food"] = 5
    fed = position_value(state, 0)
    player.goods["food"] = 10
    assert position_value(state, 0) == fed  # the last feeding needs five, no more
    player.goods["food"] = 0
    starving = position_value(state, 0)
    assert fed - starving == 10  # no resources to cover it: the penalty
    player.goods["wood"] = 5
    fed_with_wood = position_value(state, 0)
    player.goods["wood"] = 0
    assert fed - 10 < fed_with_wood - 5 < fed  # five wood handed in, worth 1 each


def test_workers_placed_are_valued_by_what_their_places_bring() -> None:
    """A worker on the field raises agriculture for every feeding to come; one at the
    hunting grounds brings food; either beats leaving nothing to show."""
    state = scripted(players=2)
    base = position_value(state, 0)
    state.players[0].placed = {"field": 1}
    field = position_value(state, 0)
    state.players[0].placed = {"hunt": 1}
    hunt = position_value(state, 0)
    assert field > base and field > hunt
