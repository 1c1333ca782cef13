"""The storage operations the bot calls; ``adapters/store`` implements them on Redis."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime, timedelta
from typing import Protocol

from pydantic import JsonValue

from bot.storage.records import Action, DueJob, JobChanges, LogEntry, OwedTable, TableRecord
from bot.storage.results import KeptRating, KeptResult, RatingKey, Ratings, RatingStep

# A piece of a store write that the core carries without reading it: the keys and the
# arguments of one step of the store's script. A platform adapter hands the core one
# as a move's guard (the claim on the platform update that carried the press), and the
# store runs it in the same step as the commit.
ScriptPart = tuple[list[str], list[str | int]]


class GameStorePort(Protocol):
    """Snapshots with optimistic versions, action logs and indexes."""

    async def new_table_id(self) -> str:
        """A fresh short table id, never reused."""
        ...

    async def create(self, record: TableRecord, *, create_id: str | None = None) -> TableRecord:
        """Store a new table at version 0."""
        ...

    async def get(self, table_id: str) -> TableRecord:
        """The current snapshot (``TableNotFound`` if there is none)."""
        ...

    async def commit(
        self,
        table_id: str,
        expected_version: int,
        record: TableRecord,
        action: Action,
        *,
        commit_id: str | None = None,
        guard: ScriptPart | None = None,
    ) -> TableRecord:
        """Write ``record`` at ``expected_version + 1`` or raise ``StaleVersion``.

        ``guard`` is what a platform adapter handed the core for this write (``Ctx``),
        not read by the core: the store checks it in the same step, and raises
        ``UpdateTaken`` (writing nothing) when it fails."""
        ...

    async def action_log(self, table_id: str, *, archived: bool = False) -> list[LogEntry]:
        """Every action applied to the table, oldest first."""
        ...

    async def committed(self, table_id: str, commit_id: str, *, recent: int = 50) -> bool:
        """Did the commit ``commit_id`` go through?"""
        ...

    async def log_entry(self, table_id: str, version: int) -> LogEntry | None:
        """The log entry that produced ``version``, if the table is active and has it."""
        ...

    async def tables_in_chat(self, chat_id: str) -> list[TableRecord]:
        """Active tables of a chat, oldest first."""
        ...

    async def tables_of_user(self, user_id: str) -> list[TableRecord]:
        """Active tables a user created or sits at, oldest first."""
        ...

    async def archive(self, table_id: str, *, retention: timedelta | None = None,
                      result: KeptResult | None = None) -> None:
        """Move a finished or aborted table out of the active indexes, keeping ``result``
        for good in the same step (only the first time: an archived table stays as it
        is)."""
        ...

    async def get_archived(self, table_id: str) -> TableRecord:
        """An archived table (``TableNotFound`` once it expired)."""
        ...

    def last_seen(self, table_id: str) -> TableRecord | None:
        """The table as this store last wrote or read it, without asking the storage
        (None if it has not). It may be out of date: only for a write whose commit
        checks the version it was decided on (``commit`` raises ``StaleVersion``)."""
        ...

    async def settled(self, table_id: str, version: int,
                      jobs: JobChanges | None = None) -> bool:
        """Every follow-up of ``version`` was delivered; nothing of it is owed any more.
        ``jobs`` (the change's reminders and clocks) are changed in the same write."""
        ...

    async def claim_owed(self, *, limit: int = 50) -> list[OwedTable]:
        """Tables whose follow-ups are overdue, leased to the caller for a repair."""
        ...


class JobQueuePort(Protocol):
    """Jobs due at a time, each claimed by one worker."""

    async def schedule(
        self, job_id: str, due_at: datetime, payload: Mapping[str, JsonValue] | None = None
    ) -> None:
        """Schedule or reschedule ``job_id``."""
        ...

    async def cancel(self, job_id: str) -> bool:
        """Remove a job; True if it existed."""
        ...

    async def change(
        self,
        schedule: Sequence[tuple[str, datetime, Mapping[str, JsonValue]]] = (),
        cancel: Sequence[str] = (),
    ) -> None:
        """Schedule and cancel several jobs at once."""
        ...

    async def claim_due(self, now: datetime, worker_id: str, *, limit: int = 100) -> list[DueJob]:
        """Claim the jobs due at ``now`` for this worker."""
        ...

    async def payloads(self, job_ids: Sequence[str]) -> dict[str, dict[str, JsonValue] | None]:
        """The payload of each job that is scheduled (None for those that are not)."""
        ...

    async def ack(self, job_id: str, worker_id: str) -> bool:
        """Mark a claimed job done."""
        ...


class OncePort(Protocol):
    """A flag that can be raised once, across every worker."""

    async def first(self, key: str, ttl: timedelta) -> bool:
        """True for the first caller with ``key`` (within ``ttl``), False for all others."""
        ...

    async def raised(self, key: str) -> bool:
        """Is the flag ``key`` up (without raising it)?"""
        ...


class PrefsPort(Protocol):
    """Small settings of chats and users (their language)."""

    async def get_pref(self, key: str) -> str | None:
        """The stored value, or None."""
        ...

    async def set_pref(self, key: str, value: str) -> None:
        """Store a value."""
        ...


class StatsPort(Protocol):
    """The results kept for good and the ratings derived from them. A result is written
    by ``GameStorePort.archive``, in the step that archives its table."""

    async def results_after(self, seq: int, *, limit: int = 100) -> list[tuple[int, KeptResult]]:
        """Kept results numbered after ``seq``, in the order they were kept."""
        ...

    async def results_of_user(self, user_id: str) -> list[KeptResult]:
        """Every kept result the user played in, oldest first."""
        ...

    async def rating_cursor(self) -> int:
        """The number of the last kept result the ratings include."""
        ...

    async def ratings_at(self, keys: Iterable[RatingKey]) -> dict[RatingKey, KeptRating]:
        """The ratings of ``keys`` that exist."""
        ...

    async def leaderboard(self, game: str, scope: str) -> dict[str, KeptRating]:
        """Every rating of ``game`` in ``scope``, by player."""
        ...

    async def history(self, game: str, player: str) -> list[RatingStep]:
        """A player's rating after each of their rated games of ``game``, oldest first."""
        ...

    async def add_ratings(self, cursor: int, ratings: Ratings,
                          keys: Iterable[RatingKey]) -> bool:
        """Write ``ratings``'s figures of ``keys`` and its history steps, and move the
        cursor from ``cursor`` to ``ratings.cursor``, in one step; False (nothing
        written) when the cursor had moved meanwhile."""
        ...

    async def replace_ratings(self, ratings: Ratings) -> None:
        """Every rating and history replaced by ``ratings`` (a rebuild), in one step."""
        ...
