"""The shared bookkeeping of a game object: apply counts, result once over, JSON."""

from __future__ import annotations

import pytest
from pydantic import BaseModel

from engine.core.base_game import BaseGame
from engine.core.errors import IllegalMove
from engine.core.machine import Machine
from engine.core.prompts import Event, Label, Option
from engine.core.protocol import Result, SeatScore
from engine.core.steps import StepRules, Turn, fixed_label


class Tally(BaseModel):
    total: int = 0
    actions: int = 0


def _apply(state: Tally, step: Turn, key: str, events: list[Event]) -> None:
    if key != "add":
        raise IllegalMove("unknown_option", key=key)
    state.total += 1


class TallyGame(BaseGame[Tally]):
    name = "tally"
    min_players = 1
    max_players = 1
    state_type = Tally
    machine: Machine[Tally] = Machine(
        rules={"add": StepRules(lambda s, t: [Option("add", Label("t.add"))], _apply,
                                fixed_label("t.prompt"))},
        over=lambda s: s.total >= 2,
        deciding=lambda s: [] if s.total >= 2 else [0],
        current=lambda s, seat: Turn("add", seat),
        depth=lambda s, step: 1,
    )

    def carry_on(self, state: Tally, events: list[Event]) -> None:
        events.append(Event("carried_on"))

    def final_result(self, state: Tally) -> Result:
        return Result(scores=[SeatScore(0, state.total, {})], winners=[0], reason="done")


def test_apply_counts_the_choice_and_carries_on() -> None:
    game, state = TallyGame(), Tally()
    assert game.apply(state, 0, "add") == [Event("carried_on")]
    assert (state.total, state.actions) == (1, 1)
    assert game.result(state) is None


def test_a_refused_choice_is_not_counted() -> None:
    game, state = TallyGame(), Tally()
    with pytest.raises(IllegalMove):
        game.apply(state, 0, "sub")
    assert state.actions == 0


def test_result_once_over_and_json_round_trip() -> None:
    game, state = TallyGame(), Tally(total=2, actions=2)
    result = game.result(state)
    assert result is not None and result.scores[0].total == 2
    assert game.load(game.dump(state)) == state
    assert game.pending(state) == []
