"""Redis game store: snapshots with versions, action logs, indexes, archive, due jobs.

Typical use::

    async with open_storage() as storage:          # REDIS_URL or embedded ./data/
        table = await storage.games.get("a7k2")
        await storage.games.commit("a7k2", table.version, changed, Action(key="hunt", ...))
"""

from adapters.store.config import Storage, StoreSettings, open_storage
from adapters.store.due_jobs import DueJobs
from adapters.store.embedded import EmbeddedRedis
from adapters.store.game_store import GameStore
from adapters.store.keys import Keys
from adapters.store.migrations import Migration, MigrationRegistry
from adapters.store.once import OnceFlags
from adapters.store.persistence import Persistence, VolatileRedis
from adapters.store.prefs import Prefs
from bot.storage.errors import (
    CorruptRecord,
    DataDirInUse,
    EmbeddedServerError,
    MigrationError,
    NotArchivable,
    StaleVersion,
    StoreError,
    StoreUnavailable,
    TableExists,
    TableNotFound,
)
from bot.storage.records import (
    Action,
    ActionKind,
    DueJob,
    LogEntry,
    TableRecord,
    TableStatus,
)

__all__ = [
    "Action",
    "ActionKind",
    "CorruptRecord",
    "DataDirInUse",
    "DueJob",
    "DueJobs",
    "EmbeddedRedis",
    "EmbeddedServerError",
    "GameStore",
    "Keys",
    "LogEntry",
    "Migration",
    "MigrationError",
    "MigrationRegistry",
    "NotArchivable",
    "OnceFlags",
    "Persistence",
    "Prefs",
    "StaleVersion",
    "Storage",
    "StoreError",
    "StoreSettings",
    "StoreUnavailable",
    "TableExists",
    "TableNotFound",
    "TableRecord",
    "TableStatus",
    "VolatileRedis",
    "open_storage",
]
