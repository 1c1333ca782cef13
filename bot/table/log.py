"""``/log [table] [n]``: a table's recent events, told again from its action log.

The table's own message keeps only a short tail of events. The action log beside the
snapshot holds every move, so the events are rebuilt by replaying the game from its
seed: nothing extra is stored per move, and a finished (archived) table can be told too.
"""

from __future__ import annotations

from typing import Any

from bot.i18n import Markup
from bot.storage import LogEntry, TableNotFound, TableRecord
from bot.table.turns import replay_with_events
from engine.core.errors import IllegalMove
from engine.core.prompts import Event
from engine.core.protocol import Game

DEFAULT_EVENTS = 15
MAX_EVENTS = 60


def replay_events(
    game: Game[Any], record: TableRecord, log: list[LogEntry]
) -> list[Event] | None:
    """Every event of the table's moves, in order (none before it started); None when
    a logged move no longer applies: a log written while the game asked its choices
    otherwise (an earlier version of the bot) cannot be replayed."""
    if record.seed is None:
        return []
    try:
        return replay_with_events(game, record, log)[1]
    except IllegalMove:
        return None


def parse_count(args: tuple[str, ...]) -> int | None:
    """How many events ``args`` ask for (the default without one); None if garbled."""
    if not args:
        return DEFAULT_EVENTS
    if len(args) == 1 and args[0].isascii() and args[0].isdigit():
        return max(1, min(int(args[0]), MAX_EVENTS))
    return None


async def load_any(store: Any, table_id: str) -> tuple[TableRecord, list[LogEntry]]:
    """A table and its action log, active or archived; ``TableNotFound`` if neither."""
    try:
        record = await store.get(table_id)
        return record, await store.action_log(table_id)
    except TableNotFound:
        record = await store.get_archived(table_id)
        return record, await store.action_log(table_id, archived=True)


def join_lines(lines: list[Markup]) -> Markup:
    """Lines as one message text."""
    return Markup("\n".join(lines))
