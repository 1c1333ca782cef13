"""The draft's old names still lead to the finished game (tests written against them)."""

from __future__ import annotations

from engine.caverna.caverna_game import CAVERNA
from engine.caverna.draft_game import CAVERNA_DRAFT, new_game, scores, tally
from engine.caverna.results import sheet


def test_the_draft_name_is_the_game() -> None:
    assert CAVERNA_DRAFT is CAVERNA


def test_the_draft_helpers_score_as_the_game() -> None:
    state = new_game(3, 5)
    assert tally(state, 2).goods["food"] == 2
    assert scores(state, 1) == sheet(state, 1)
