"""A table's result as it is kept for good, made from its last record.

The places: a winner (the game's own decision, its tie-breakers included) is first;
every other seat is placed by its score, seats with equal scores sharing a place, as
Board Game Arena shows a finished table. A game ended early (aborted) is kept with the
scores it stood at, and is never rated: its places say how it stood, not who won. Nor
is a game played alone (a solo game has no one to be rated against).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from pydantic import BaseModel

from bot.identity import ai_parts, is_ai
from bot.storage import TableRecord, TableStatus
from bot.storage.results import KeptResult, KeptSeat
from bot.ui.present import seat_names
from engine.registry import get_game

ABORTED = "aborted"
# A game played alone is kept but not rated: a rating compares players.
MIN_RATED_SEATS = 2


def places(scores: Sequence[int], winners: Sequence[int]) -> list[int]:
    """Each seat's place: winners first, then by score; equal standing, equal place."""
    standing = [(seat in winners, score) for seat, score in enumerate(scores)]
    return [1 + sum(other > mine for other in standing) for mine in standing]


def kept_result(record: TableRecord, state: BaseModel, ended_at: datetime) -> KeptResult | None:
    """What is kept of ``record`` (a table that is over; ``state`` its game state), or
    None for a table whose game never began (cancelled in its lobby)."""
    if not record.status.is_over or record.seed is None:
        return None
    game = get_game(record.game)
    result = game.result(state) if record.status == TableStatus.FINISHED else None
    if result is not None:
        totals = {s.seat: s.total for s in result.scores}
        scores = [totals.get(seat, 0) for seat in range(len(record.seats))]
        winners, reason = list(result.winners), result.reason
    else:
        scores, winners, reason = list(game.summary(state).scores), [], ABORTED
    names = seat_names(record)
    seats = tuple(
        KeptSeat(user_id=user_id, name=names[seat],
                 ai_level=ai_parts(user_id)[0] if is_ai(user_id) else None,
                 score=scores[seat], place=place)
        for seat, (user_id, place) in enumerate(zip(record.seats, places(scores, winners),
                                                    strict=True)))
    return KeptResult(table_id=record.table_id, game=record.game, options=record.options,
                      chat_id=record.chat_id, opened_at=record.created_at, ended_at=ended_at,
                      seats=seats, reason=reason,
                      rated=result is not None and len(seats) >= MIN_RATED_SEATS)
