"""The home board's decisions: laying tiles, furnishing, sowing, fencing, stables.

Every home-board step is stored with the kind ``board`` (the JSON of stored games), so
the machine's table has one ``board`` row; it hands each step to the rules of its own
``what``, gathered here from the modules that hold them.
"""

from __future__ import annotations

from typing import Any

from engine.caverna.decisions import fencing, furnishing, sowing, stables, tile_laying
from engine.caverna.state import CavernaState, HomeBoardStep
from engine.core.prompts import Event, Label, Option
from engine.core.steps import StepRules

# Each home-board decision (``what``): its options, how a key is applied, its question.
BOARD: dict[str, StepRules[CavernaState, Any]] = {
    **tile_laying.BOARD_STEPS, **furnishing.BOARD_STEPS, **sowing.BOARD_STEPS,
    **fencing.BOARD_STEPS, **stables.BOARD_STEPS,
}


def board_options(state: CavernaState, step: HomeBoardStep) -> list[Option]:
    """The options of a home-board step."""
    return BOARD[step.what].options(state, step)


def _apply(state: CavernaState, step: HomeBoardStep, key: str, events: list[Event]) -> None:
    BOARD[step.what].apply(state, step, key, events)


def _label(state: CavernaState, step: HomeBoardStep) -> Label:
    return BOARD[step.what].label(state, step)


STEPS: dict[str, StepRules[CavernaState, Any]] = {
    "board": StepRules(board_options, _apply, _label),
}
