"""Helpers every game's engine tests use: events by code, and refusals that change
nothing."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import BaseModel

from engine.core.errors import IllegalMove
from engine.core.prompts import Event
from engine.core.protocol import Game


def codes(events: list[Event]) -> list[str]:
    """The event codes, in order."""
    return [e.code for e in events]


def first(events: list[Event], code: str) -> Event:
    """The first event with ``code`` (fails the test if absent)."""
    for e in events:
        if e.code == code:
            return e
    raise AssertionError(f"no {code!r} event in {codes(events)}")


def refusal(game: Game[Any], state: BaseModel, seat: int, key: str) -> str:
    """Apply ``key``, expect a refusal, check nothing changed; the reason code."""
    before = game.dump(state)
    with pytest.raises(IllegalMove) as info:
        game.apply(state, seat, key)
    assert game.dump(state) == before, f"refused {key!r} changed the state"
    return info.value.code


def assert_turns(game: Game[Any], state: Any, moves: list[tuple[int, str, int]]) -> None:
    """Each (seat, key, turn) in order: ``seat`` plays ``key``, then ``state.turn`` is
    ``turn``."""
    for seat, key, turn in moves:
        game.apply(state, seat, key)
        assert state.turn == turn, (seat, key)
