"""Errors the store raises; the bot maps each one to an answer for the player."""

from __future__ import annotations


class StoreError(Exception):
    """Base class of every error raised by the game store."""


class StoreUnavailable(StoreError):
    """Redis could not be reached (or refused writes); the operation was not applied.

    One subtle case: a timeout *after* a commit was sent leaves its outcome unknown.
    Committing again with the same ``commit_id`` is safe: the store recognises its
    own earlier write and returns it instead of applying the move twice.
    """


class TableNotFound(StoreError):
    """No active table has this id (it never existed or has been archived)."""

    def __init__(self, table_id: str) -> None:
        """Remember which table was asked for."""
        super().__init__(f"table {table_id!r} not found")
        self.table_id = table_id


class TableExists(StoreError):
    """A table with this id already exists (active or archived)."""

    def __init__(self, table_id: str) -> None:
        """Remember which table id collided."""
        super().__init__(f"table {table_id!r} already exists")
        self.table_id = table_id


class StaleVersion(StoreError):
    """The table moved on since it was read; nothing was written."""

    def __init__(self, table_id: str, expected: int, actual: int) -> None:
        """Keep both versions so the caller can tell the player what happened."""
        super().__init__(
            f"table {table_id!r} is at version {actual}, the write expected {expected}"
        )
        self.table_id = table_id
        self.expected = expected
        self.actual = actual


class UpdateTaken(StoreError):
    """A write carried a guard (``GameStorePort.commit``) and the platform update it
    answers turned out to be another worker's, or already handled: nothing was written.
    The adapter that made the guard decides what follows (it waits for that worker)."""

    def __init__(self, done: bool, left_s: float) -> None:
        """``done``: the update was handled; else ``left_s`` is how long the other
        worker's claim still runs."""
        super().__init__("the update was handled already" if done
                         else f"another worker holds the update for {left_s:.1f} s")
        self.done = done
        self.left_s = left_s


class NotArchivable(StoreError):
    """Only finished or aborted tables may be archived."""

    def __init__(self, table_id: str, status: str) -> None:
        """Keep the status that blocked archiving."""
        super().__init__(f"table {table_id!r} is {status}; only finished/aborted tables archive")
        self.table_id = table_id
        self.status = status


class MigrationError(StoreError):
    """A stored snapshot could not be brought to the schema this code understands."""


class CorruptRecord(StoreError):
    """A stored value does not parse as a record; it is left untouched for inspection."""


class EmbeddedServerError(StoreError):
    """The embedded Redis server could not be started or stopped."""


class DataDirInUse(EmbeddedServerError):
    """Another live process already runs the embedded Redis of this data directory."""
