"""Opening, joining, leaving, starting and cancelling a table: pure record changes.

Every function returns the changed record or raises ``LobbyError`` with a catalog
code; the caller commits the record. The creator sits at the table from the start, and
may seat AI players (``add_ai``) and take them away again (``remove_ai``) until it
starts; a table may be all AI but the creator. An AI's seat is the autopilot's from the
start (``TableMeta.autopilot``, at the AI's level).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from bot.identity import Chat, User, ai_id, ai_parts, is_ai
from bot.storage import TableRecord, TableStatus
from bot.table.settings import (
    AI_LEVELS,
    AiLevel,
    TableMeta,
    TableOptions,
    as_level,
    meta_of,
    options_of,
    setup_variants,
)
from bot.table.turns import state_dict
from engine.core.protocol import Game

# The lobby verbs (button tokens' words) that seat an AI player, by the level it plays
# at; and the one that takes the AI seated last away again.
AI_VERBS: dict[str, AiLevel] = {f"ai{level}": level for level in AI_LEVELS}
AI_DROP = "aidrop"


class LobbyError(Exception):
    """A lobby action the table refuses; ``code`` names the catalog text."""

    def __init__(self, code: str) -> None:
        super().__init__(code)
        self.code = code


def open_table(
    table_id: str, game: Game[Any], chat: Chat, creator: User, options: TableOptions
) -> TableRecord:
    """A new table in the lobby with its creator seated."""
    meta = TableMeta(names={creator.id: creator.name})
    return TableRecord(
        table_id=table_id,
        game=game.name,
        chat_id=chat.id,
        creator_id=creator.id,
        seats=(creator.id,),
        options=options.model_dump(mode="json"),
        meta=meta.model_dump(mode="json"),
    )


def _with_names(record: TableRecord, seats: tuple[str, ...], user: User) -> TableRecord:
    meta = meta_of(record)
    meta.names[user.id] = user.name
    return record.model_copy(update={"seats": seats, "meta": meta.model_dump(mode="json")})


def join(record: TableRecord, user: User) -> TableRecord:
    """Seat ``user`` at a table that is still open."""
    if record.status != TableStatus.LOBBY:
        raise LobbyError("lobby.not_open")
    if user.id in record.seats:
        raise LobbyError("lobby.already_joined")
    if len(record.seats) >= options_of(record).max_seats:
        raise LobbyError("lobby.full")
    return _with_names(record, (*record.seats, user.id), user)


def leave(record: TableRecord, user: User) -> TableRecord:
    """Take ``user``'s seat back before the start (the creator cancels instead)."""
    if record.status == TableStatus.RUNNING and user.id in record.seats:
        raise LobbyError("lobby.leave_running")
    if record.status != TableStatus.LOBBY:
        raise LobbyError("lobby.not_open")
    if user.id not in record.seats:
        raise LobbyError("lobby.not_joined")
    if user.id == record.creator_id:
        raise LobbyError("lobby.creator_cannot_leave")
    return record.model_copy(update={"seats": tuple(s for s in record.seats if s != user.id)})


def add_ai(record: TableRecord, user: User, level: AiLevel,
           name: Callable[[int], str]) -> TableRecord:
    """The creator seats an AI player at ``level`` on a free seat, named ``name(n)`` for
    its number ``n`` (the lowest no AI at the table has)."""
    _creator_in_lobby(record, user)
    if len(record.seats) >= options_of(record).max_seats:
        raise LobbyError("lobby.full")
    taken = {ai_parts(s)[1] for s in record.seats if is_ai(s)}
    n = next(i for i in range(1, len(record.seats) + 2) if i not in taken)
    return _with_names(record, (*record.seats, ai_id(level, n)), User(ai_id(level, n), name(n)))


def remove_ai(record: TableRecord, user: User) -> TableRecord:
    """The creator takes back the AI player seated last."""
    _creator_in_lobby(record, user)
    ais = [s for s in record.seats if is_ai(s)]
    if not ais:
        raise LobbyError("lobby.no_ai")
    meta = meta_of(record)
    meta.names.pop(ais[-1], None)
    return record.model_copy(update={"seats": tuple(s for s in record.seats if s != ais[-1]),
                                     "meta": meta.model_dump(mode="json")})


def _creator_in_lobby(record: TableRecord, user: User) -> None:
    if record.status != TableStatus.LOBBY:
        raise LobbyError("lobby.not_open")
    if user.id != record.creator_id:
        raise LobbyError("lobby.only_creator")


def ai_held(seats: tuple[str, ...]) -> dict[str, AiLevel]:
    """The autopilot's seats of a table seated so: each AI player's, at its level."""
    levels = {str(seat): as_level(ai_parts(user_id)[0]) for seat, user_id in enumerate(seats)
              if is_ai(user_id)}
    return {seat: level for seat, level in levels.items() if level is not None}


def start(record: TableRecord, user: User, game: Game[Any], rng: random.Random) -> TableRecord:
    """Start the game: seats in random order, a fresh seed, the engine's first state;
    the AI players' seats held by the autopilot."""
    if record.status != TableStatus.LOBBY:
        raise LobbyError("lobby.not_open")
    if user.id != record.creator_id:
        raise LobbyError("lobby.only_creator")
    if len(record.seats) < max(options_of(record).min_seats, game.min_players):
        raise LobbyError("lobby.too_few")
    seats = list(record.seats)
    rng.shuffle(seats)
    seed = rng.randrange(2**62)
    state = game.new(len(seats), seed, setup_variants(record, game))
    meta = meta_of(record)
    meta.autopilot = ai_held(tuple(seats))
    return record.model_copy(update={
        "seats": tuple(seats),
        "seed": seed,
        "state": state_dict(state),
        "status": TableStatus.RUNNING,
        "meta": meta.model_dump(mode="json"),
    })


def cancel(record: TableRecord, user: User) -> TableRecord:
    """The creator closes a table that has not started."""
    if record.status != TableStatus.LOBBY:
        raise LobbyError("lobby.not_open")
    if user.id != record.creator_id:
        raise LobbyError("lobby.only_creator")
    return record.model_copy(update={"status": TableStatus.ABORTED})


def abort(record: TableRecord, user: User, *, admin: bool = False) -> TableRecord:
    """End a table early: its creator may, or (``admin``) an admin of the table's chat."""
    if record.status.is_over:
        raise LobbyError("table.over")
    if user.id != record.creator_id and not admin:
        raise LobbyError("table.abort_not_allowed")
    return record.model_copy(update={"status": TableStatus.ABORTED})
