"""Caverna's table of step rules: one row per kind of step, each from one module."""

from __future__ import annotations

from typing import Any, get_args

from engine.caverna import decisions
from engine.caverna.decisions import home_board
from engine.caverna.state import BoardSteps, Frame


def test_no_two_modules_claim_a_kind() -> None:
    kinds = [kind for module in decisions.MODULES for kind in module.STEPS]
    assert len(kinds) == len(set(kinds)) == len(decisions.RULES)


def _members(annotated: object) -> tuple[Any, ...]:
    """The models of a discriminated union ``Annotated[A | B | ..., Field(...)]``."""
    (union, _) = get_args(annotated)
    return get_args(union)


def test_every_stored_step_and_the_turn_have_a_row() -> None:
    stored = {member.model_fields["kind"].default for member in _members(Frame)
              if member is not BoardSteps}
    # A seat's harvest is run by the flow, stage by stage: never a question itself.
    assert set(decisions.RULES) == stored - {"harvest"} | {"work", "board"}


def test_every_home_board_step_has_a_row() -> None:
    assert set(home_board.BOARD) == {
        member.model_fields["what"].default for member in _members(BoardSteps)}
