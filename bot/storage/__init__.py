"""What the bot needs from storage: record types, errors and the ports it calls.

The Redis implementation lives in ``adapters/store``; the bot only sees these types,
so imports keep pointing inward (adapters -> bot -> engine).
"""

from bot.storage.errors import (
    StaleVersion,
    StoreError,
    StoreUnavailable,
    TableExists,
    TableNotFound,
    UpdateTaken,
)
from bot.storage.ports import (
    GameStorePort,
    JobQueuePort,
    OncePort,
    PrefsPort,
    ScriptPart,
    StatsPort,
)
from bot.storage.records import (
    Action,
    ActionKind,
    DueJob,
    JobChanges,
    LogEntry,
    Owed,
    OwedTable,
    TableRecord,
    TableStatus,
)

__all__ = [
    "Action",
    "ActionKind",
    "DueJob",
    "GameStorePort",
    "JobChanges",
    "JobQueuePort",
    "LogEntry",
    "OncePort",
    "Owed",
    "OwedTable",
    "PrefsPort",
    "ScriptPart",
    "StaleVersion",
    "StatsPort",
    "StoreError",
    "StoreUnavailable",
    "TableExists",
    "TableNotFound",
    "TableRecord",
    "TableStatus",
    "UpdateTaken",
]
