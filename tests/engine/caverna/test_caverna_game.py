"""Caverna through the engine protocol: whole games for 1 to 7 players with invariants
checked after every action, the conformance suite, options, the final result and
"you're next" promises."""

from __future__ import annotations

import pytest

from engine.caverna.caverna_game import CAVERNA, new_game
from engine.caverna.components import components
from engine.caverna.results import final_result
from engine.caverna.scoring import SCORE_SHEET, pad
from engine.caverna.spaces import furnish_choices
from engine.caverna.turn_order import next_turn
from engine.caverna.variants import read_options
from engine.core.conformance import conformance_playout
from engine.core.errors import IllegalMove
from engine.core.playout import random_playout
from engine.registry import games


@pytest.mark.parametrize("players", range(1, 8))
def test_random_games_end_with_invariants_kept(players: int) -> None:
    out = random_playout(CAVERNA, players, seed=players)
    assert out.error is None, out.error
    assert out.result is not None
    assert len(out.result.scores) == players
    for score in out.result.scores:
        assert list(score.breakdown) == list(SCORE_SHEET)
        assert score.total == sum(score.breakdown.values())


@pytest.mark.parametrize("players", range(1, 8))
def test_random_games_conform(players: int) -> None:
    found = conformance_playout(CAVERNA, players, 1000 * players + 7,
                                check_every=7 if players < 5 else 13)
    assert not found.problems, found.problems[:5]
    assert found.result is not None
    if players > 1:
        assert found.promises > 0  # "you're next" is said, and was right each time


@pytest.mark.parametrize("seed", range(3))
def test_fuzzed_beginner_games_keep_to_their_set(seed: int) -> None:
    class Beginner:
        """The game with the beginner set, as random_playout starts games plainly."""

        def __getattr__(self, name: str) -> object:
            return getattr(CAVERNA, name)

        def new(self, players: int, seed: int, options: object = None) -> object:
            return CAVERNA.new(players, seed, {"furnishings": "beginner"})

    out = random_playout(Beginner(), 3, seed=seed)  # type: ignore[arg-type]
    assert out.error is None, out.error


def test_state_stays_small() -> None:
    out = random_playout(CAVERNA, 7, seed=3, check=False)
    assert out.error is None
    assert max(out.state_bytes) <= 16 * 1024


def test_new_games_replay_from_the_seed() -> None:
    assert new_game(5, 42).model_dump() == new_game(5, 42).model_dump()
    assert new_game(5, 42).cards != new_game(5, 43).cards or (
        new_game(5, 42).markers != new_game(5, 43).markers
    )


def test_options_are_checked_and_stored() -> None:
    assert CAVERNA.new(2, 1).options == {"furnishings": "official"}
    assert CAVERNA.new(2, 1, {"furnishings": "beginner"}).options == {"furnishings": "beginner"}
    state = CAVERNA.new(2, 1, {"furnishings": "beginner"})
    assert CAVERNA.load(CAVERNA.dump(state)).options == {"furnishings": "beginner"}
    with pytest.raises(IllegalMove):
        CAVERNA.new(2, 1, {"furnishings": "all"})
    with pytest.raises(IllegalMove):
        CAVERNA.new(2, 1, {"tiles": "beginner"})
    assert read_options(None) == {"furnishings": "official"}


def test_the_beginner_set_offers_only_its_tiles() -> None:
    state = CAVERNA.new(2, 1, {"furnishings": "beginner"})
    player = state.players[0]
    for good in ("wood", "stone", "ore", "gold", "food", "grain", "vegetable", "ruby"):
        player.goods[good] = 20
    offered = furnish_choices(state, 0, "any")
    tiles = components().furnishings
    assert offered and all(tiles[t].bga_beginner for t in offered)
    official = CAVERNA.new(2, 1)
    official.players[0].goods.update(state.players[0].goods)
    assert set(furnish_choices(official, 0, "any")) > set(offered)


def test_the_result_scores_every_category_and_shares_ties() -> None:
    out = random_playout(CAVERNA, 4, seed=9, check=False)
    assert out.result is not None
    result = out.result
    best = max(s.total for s in result.scores)
    assert result.winners == [s.seat for s in result.scores if s.total == best]
    assert result.reason == "last_round"
    for s in result.scores:
        assert sum(result.details["pad"][s.seat].values()) == s.total
        assert result.details["pad"][s.seat] == pad(s.breakdown)
        assert sum(result.details["bonus_tiles"][s.seat].values()) == s.breakdown["bonus"]


def test_equal_totals_share_the_win() -> None:
    state = new_game(3, 1)
    state.phase = "over"
    state.end_reason = "last_round"
    result = final_result(state)
    # Nothing done yet: seats 0 and 1 (1 food each) score the same as seat 2 (2 food).
    totals = [s.total for s in result.scores]
    assert totals[0] == totals[1] == totals[2]
    assert result.winners == [0, 1, 2]


def test_no_result_before_the_end() -> None:
    assert CAVERNA.result(new_game(2, 1)) is None


def test_next_turn_is_promised_only_in_the_work_phase() -> None:
    state = new_game(4, 1)
    assert next_turn(state, 0) == 1  # four accumulating spaces hold goods in round 1
    assert next_turn(state, 2) is None  # not seat 2's turn
    state.phase = "harvest"
    assert next_turn(state, 0) is None
    assert next_turn(new_game(1, 1), 0) is None  # solo: nobody else


def test_caverna_is_registered() -> None:
    # engine/caverna/game.py hosts the protocol object since the bot side is ready.
    assert games()["caverna"] is CAVERNA
