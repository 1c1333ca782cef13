"""IllegalMove: a reason code for the bot to translate, and the values it mentions."""

from __future__ import annotations

import pytest

from engine.core.errors import IllegalMove


def test_args_are_a_copy() -> None:
    extra = {"paid": {"wood": 1}}
    exc = IllegalMove("wrong_payment", **extra)
    extra["other"] = {}
    assert exc.args_map == {"paid": {"wood": 1}}


def test_a_refusal_from_the_game_carries_its_code_and_args() -> None:
    from engine.stone_age.game import GAME

    state = GAME.new(2, seed=1)
    with pytest.raises(IllegalMove) as info:
        GAME.apply(state, 0, "place:hut:1")
    assert info.value.code == "bad_count"
    assert info.value.args_map == {"loc": "hut", "count": 1}
