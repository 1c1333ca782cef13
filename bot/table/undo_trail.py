"""Keeping the trail of decisions that may still be taken back (``/undo``).

Every move extends the table's ``UndoTrail`` (in its bookkeeping) unless it showed
something random or hidden (``engine.core.reveals``): that move seals everything
before it, and the trail starts afresh after it. The trail holds the game state from
before its first decision, and for each decision its key and the bookkeeping it
replaced, so a decision is taken back by replaying the ones before it from that state
(``bot.table.undo``), never the whole game. It is bounded: past ``MAX_POINTS`` the
oldest decision is folded into the state the trail starts from.
"""

from __future__ import annotations

from typing import Any

from bot.table.settings import TableMeta, UndoPoint, UndoTrail
from engine.core.protocol import Game

# The event a taken-back decision leaves in the table's story (the table's own, worded
# by the shared catalog: no game has it).
UNDO_EVENT = "undo"
# As many decisions as a long Caverna turn takes, several times over.
MAX_POINTS = 24
# Bookkeeping a point does not keep: the trail itself, and what is rebuilt on an undo.
NOT_KEPT = frozenset({"undo", "recent", "names"})


def extend_trail(
    game: Game[Any], meta_before: TableMeta, state_before: dict[str, Any],
    seat: int, key: str, version: int, events: int, revealed: bool,
) -> tuple[UndoTrail | None, int]:
    """The trail, and the sealed version, after ``seat`` chose ``key`` to make
    ``version`` (adding ``events`` events) on a state that was ``state_before``."""
    if revealed:
        return None, version
    trail = meta_before.undo or UndoTrail(base=state_before)
    point = UndoPoint(version=version, seat=seat, key=key, events=events,
                      meta=meta_before.model_dump(mode="json", exclude=set(NOT_KEPT)))
    points = [*trail.points, point]
    base = trail.base
    while len(points) > MAX_POINTS:
        base = _after(game, base, points[0])
        points = points[1:]
    return UndoTrail(base=base, points=points), meta_before.sealed


def _after(game: Game[Any], state: dict[str, Any], point: UndoPoint) -> dict[str, Any]:
    """``state`` with ``point``'s decision applied."""
    loaded = game.load(state)
    game.apply(loaded, point.seat, point.key)
    folded: dict[str, Any] = loaded.model_dump(mode="json")
    return folded


def replay_trail(game: Game[Any], trail: UndoTrail, upto: int) -> Any:
    """The game state after the trail's first ``upto`` decisions."""
    state = game.load(trail.base)
    for point in trail.points[:upto]:
        game.apply(state, point.seat, point.key)
    return state
