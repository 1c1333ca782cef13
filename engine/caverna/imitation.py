"""Imitation: doing what an opponent's dwarf is doing on another space.

A dwarf on an Imitation space pays the food printed there (0, 1, 2 or 4), then chooses
an action space an *opponent's* dwarf stands on and carries out its action as if it
stood there itself, staying on the Imitation space. What lies accumulated on the
imitated space is not taken (the opponent already took it). The first-player space
cannot be imitated, nor a space one's own dwarf took. Another Imitation space cannot
be imitated either (see ``imitable``).
"""

from __future__ import annotations

from functools import cache

from engine.caverna.components import components
from engine.caverna.state import ActionSpace, CavernaState


def imitation_cost(space_id: str) -> int | None:
    """The food an Imitation space costs (None: not an Imitation space)."""
    return components().space(space_id).imitation


def is_first_player_space(space_id: str) -> bool:
    return any(p.do == "first_player" for p in components().space(space_id).parts())


def imitable(state: CavernaState, seat: int, space_id: str) -> bool:
    """May ``seat`` imitate ``space_id`` (leaving aside whether the action is doable)?

    The space must be taken by an opponent's dwarf. Never the first-player space, and
    never an Imitation space: imitating an imitation would be a way round the rule that
    forbids imitating your own dwarf's space, and the rulebook names only action spaces
    "chosen by a dwarf" as targets.
    """
    return imitable_space(state.space(space_id), seat)


def imitable_space(space: ActionSpace, seat: int) -> bool:
    """:func:`imitable` for the action space in hand."""
    if space.seat is None or space.seat == seat:
        return False
    return not _never_imitated(space.id)


def imitable_spaces(state: CavernaState, seat: int) -> list[ActionSpace]:
    """The action spaces ``seat`` may imitate (:func:`imitable`), in table order."""
    return [s for s in state.spaces
            if s.seat is not None and s.seat != seat and not _never_imitated(s.id)]


@cache
def _never_imitated(space_id: str) -> bool:
    """Is ``space_id`` the first-player space or an Imitation space (printed: asked for
    every taken space whenever an imitation is weighed)?"""
    return is_first_player_space(space_id) or imitation_cost(space_id) is not None
