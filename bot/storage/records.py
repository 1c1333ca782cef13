"""Pydantic models at the storage boundary: what a table and a log entry look like on disk.

The engine state inside a record is opaque here: the store keeps it as a JSON-able
dict and never looks inside. Only the game's engine reads it (games are discovered, not
registered: ``engine/<game>/game.py`` with its manifest in ``bot/games/<game>/``), and
on load a migration from the ``MigrationRegistry`` handed to the store
(``adapters/store/migrations.py``; no game has one yet) may rewrite it.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from enum import StrEnum
from typing import Annotated

from pydantic import AwareDatetime, BaseModel, ConfigDict, Field, JsonValue, StringConstraints

from bot.identity import is_ai

#: Short lowercase id shown to players ("a7k2"); see ``ids.py``.
TableId = Annotated[str, StringConstraints(pattern=r"^[0-9a-z]{1,16}$")]
#: Chat and user ids come from the adapters, namespaced by platform ("tg:-1001", "dc:42")
#: so that Telegram and Discord ids never collide. They become part of Redis keys, hence
#: no whitespace and no braces (braces would act as cluster hash tags).
ExternalId = Annotated[str, StringConstraints(min_length=1, max_length=128, pattern=r"^[^\s{}]+$")]
GameName = Annotated[str, StringConstraints(pattern=r"^[a-z][a-z0-9_]{0,31}$")]


def utc_now() -> datetime:
    """Return the current time as an aware UTC datetime (the store's default clock)."""
    return datetime.now(UTC)


class TableStatus(StrEnum):
    """Life cycle of a table: lobby -> running -> finished, or aborted at any point."""

    LOBBY = "lobby"
    RUNNING = "running"
    FINISHED = "finished"
    ABORTED = "aborted"

    @property
    def is_over(self) -> bool:
        """True for statuses after which the table may be archived."""
        return self in (TableStatus.FINISHED, TableStatus.ABORTED)


class TableRecord(BaseModel):
    """Snapshot of one table: everything needed to show it and to continue play.

    ``version`` counts the commits applied so far and is owned by the store: whatever
    the caller puts there is replaced by the version the store actually writes.
    ``schema_version`` is the schema of ``state`` (and of the record) for this game;
    migrations raise it on load. ``seed`` with ``seats``, ``options`` and the ``move``
    entries of the action log replays the game from scratch.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    table_id: TableId
    game: GameName
    chat_id: ExternalId
    creator_id: ExternalId
    seats: tuple[ExternalId, ...] = ()
    options: dict[str, JsonValue] = Field(default_factory=dict)
    status: TableStatus = TableStatus.LOBBY
    schema_version: int = Field(default=1, ge=1)
    version: int = Field(default=0, ge=0)
    seed: int | None = None
    state: dict[str, JsonValue] = Field(default_factory=dict)
    #: Bot bookkeeping that is not game state (e.g. ids of messages to edit).
    meta: dict[str, JsonValue] = Field(default_factory=dict)
    created_at: AwareDatetime = Field(default_factory=utc_now)
    updated_at: AwareDatetime = Field(default_factory=utc_now)

    def user_ids(self) -> list[str]:
        """Users whose "my tables" list shows this table: the creator and every seat
        held by a person (an AI player has no list of its own)."""
        return sorted({self.creator_id, *(s for s in self.seats if not is_ai(s))})


class ActionKind(StrEnum):
    """What an action-log entry records; ``move`` entries are replayed by the engine,
    and an ``undo`` entry takes back the last moves still standing (its key says how
    many: ``undo`` one, ``undo:3`` three)."""

    MOVE = "move"
    LOBBY = "lobby"
    SYSTEM = "system"
    UNDO = "undo"


class Action(BaseModel):
    """One change a user (or the system) made to a table, as passed to ``commit``."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    #: The option key chosen ("hunt", "place:forest:3") or a lobby verb ("join", "start").
    key: str = Field(min_length=1, max_length=200)
    user_id: ExternalId | None = None
    seat: int | None = Field(default=None, ge=0)
    kind: ActionKind = ActionKind.MOVE
    at: AwareDatetime = Field(default_factory=utc_now)
    #: The button token the move came by, if it came by one: a redelivered press finds
    #: its own move in the log and is answered with the table, not "out of date".
    via: str | None = Field(default=None, max_length=64)


class LogEntry(Action):
    """An action as stored in the log: stamped with the table version it produced, and
    the id of the commit that wrote it (so a writer whose reply was lost can tell)."""

    version: int = Field(ge=1)
    commit_id: str | None = None


class DueJob(BaseModel):
    """A claimed job: what to do, when it was due and how many times it was claimed."""

    model_config = ConfigDict(frozen=True)

    job_id: str
    due_at: AwareDatetime
    payload: dict[str, JsonValue]
    attempts: int


@dataclass(frozen=True, slots=True)
class JobChanges:
    """Due jobs to schedule — (job id, due time, payload) — and job ids to cancel."""

    schedule: tuple[tuple[str, datetime, dict[str, JsonValue]], ...] = ()
    cancel: tuple[str, ...] = ()


NO_JOBS = JobChanges()


@dataclass(frozen=True, slots=True)
class Owed:
    """What a change of a table owes besides its messages: once they are handed over,
    the table's mark for ``version`` is cleared and ``jobs`` (its reminders and clocks)
    are changed, both in one write (``GameStorePort.settled``)."""

    table_id: str
    version: int
    jobs: JobChanges = NO_JOBS


@dataclass(frozen=True, slots=True)
class OwedTable:
    """A table whose follow-ups for ``version`` were never confirmed delivered."""

    table_id: str
    version: int
    archived: bool
