"""Keeping the trail of decisions that may still be taken back (``/undo``).

Every move extends the table's ``UndoTrail`` (in its bookkeeping) unless it showed
something random or hidden (``engine.core.reveals``): that move seals everything
before it, and the trail starts afresh after it. The trail holds the game state from
before its first decision, and for each decision its key and the bookkeeping it
replaced, so a decision is taken back by replaying the ones before it from that state
(``bot.table.undo``), never the whole game. It is bounded: past ``MAX_POINTS`` the
oldest decision is folded into the state the trail starts from.

The trail describes the table only while nothing else changed it since its last
decision (``standing``): a time-out's vote, a seat taken back from the autopilot or an
undo changes bookkeeping that an undo, restoring the bookkeeping from before a
decision, would wrongly undo too; the next decision starts a new trail. Changes to an
undo vote alone (asking, ballots, its end without an undo) change nothing an undo
restores, and carry the trail past them.
"""

from __future__ import annotations

from typing import Any

from bot.table.settings import TableMeta, UndoPoint, UndoTrail
from engine.core.protocol import Game

# The events an undo leaves in the table's story (the table's own, worded by the shared
# catalog: no game has them): one decision taken back, or one with those after it.
UNDO_EVENT = "undo"
UNDO_MANY_EVENT = "undo_many"
# As many decisions as a long Caverna turn takes, several times over.
MAX_POINTS = 24
# Bookkeeping a point does not keep: the trail itself, and what is rebuilt on an undo.
NOT_KEPT = frozenset({"undo", "recent", "names", "ended"})


def extend_trail(
    game: Game[Any], meta_before: TableMeta, state_before: dict[str, Any],
    seat: int, key: str, version: int, events: int, revealed: bool,
) -> tuple[UndoTrail | None, int]:
    """The trail, and the sealed version, after ``seat`` chose ``key`` to make
    ``version`` (adding ``events`` events) on a state that was ``state_before``."""
    if revealed:
        return None, version
    # A trail that no longer describes the table (another change came after its last
    # decision) must not reach back past that change: it starts afresh.
    kept = meta_before.undo if standing(meta_before, version - 1) else None
    trail = kept or UndoTrail(base=state_before)
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


def standing(meta: TableMeta, version: int) -> list[UndoPoint]:
    """The decisions that may be taken back at ``version`` of the table: the trail's,
    if it describes the table as it stands (its last decision made ``version``, or only
    changes to an undo vote came after it: ``carry``), else none."""
    trail = meta.undo
    if trail is None or not trail.points:
        return []
    return trail.points if version in (trail.points[-1].version, trail.carried) else []


def carry(meta: TableMeta, version: int) -> None:
    """``meta`` changed nothing but an undo vote on ``version``: a trail that stood
    there still describes the table after the change."""
    if meta.undo is not None and standing(meta, version):
        meta.undo.carried = version + 1


def undo_key(count: int) -> str:
    """The log key of an undo that takes back the last ``count`` decisions standing."""
    return UNDO_EVENT if count == 1 else f"{UNDO_EVENT}:{count}"


def undo_count(key: str) -> int:
    """How many decisions the undo logged under ``key`` took back."""
    _, _, count = key.partition(":")
    return int(count) if count.isdigit() else 1


def undo_event(count: int) -> str:
    """The event of an undo that takes back ``count`` decisions."""
    return UNDO_EVENT if count == 1 else UNDO_MANY_EVENT
