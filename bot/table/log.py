"""``/log [table] [n]``: a table's recent events, told again from its action log.

The table's own message keeps only a short tail of events. The action log beside the
snapshot holds every move, so the events are rebuilt by replaying the game from its
seed: nothing extra is stored per move, and a finished (archived) table can be told too.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from bot.i18n import Lang, Markup
from bot.storage import LogEntry, TableNotFound, TableRecord
from bot.table.turns import ReplayBroken, replay_with_events
from engine.core.prompts import Event
from engine.core.protocol import Game
from engine.registry import get_game

if TYPE_CHECKING:
    from bot.ui.present import Presenter

DEFAULT_EVENTS = 15
MAX_EVENTS = 60


def replay_events(
    game: Game[Any], record: TableRecord, log: list[LogEntry]
) -> tuple[list[Event], bool]:
    """Every event of the table's moves, in order (none before it started), and whether
    that is all of them: a table played under an older version of the game's rules may
    log a move the engine no longer takes, and is told up to there (``ReplayBroken``)."""
    if record.seed is None:
        return [], True
    try:
        return replay_with_events(game, record, log)[1], True
    except ReplayBroken as broken:
        return broken.events, False


def story(presenter: Presenter, record: TableRecord, log: list[LogEntry],
          lang: Lang) -> tuple[list[Markup], bool]:
    """The table's whole story in ``lang``: a line for each event of its moves that
    says something, and whether that is all of it (see ``replay_events``). ``/log`` tells
    its tail, a table's page all of it."""
    events, whole = replay_events(get_game(record.game), record, log)
    return presenter.event_lines(record, lang, events), whole


def parse_count(args: tuple[str, ...]) -> int | None:
    """How many events ``args`` ask for (the default without one); None if garbled."""
    if not args:
        return DEFAULT_EVENTS
    if len(args) == 1 and args[0].isascii() and args[0].isdigit():
        return max(1, min(int(args[0]), MAX_EVENTS))
    return None


async def record_any(store: Any, table_id: str) -> tuple[TableRecord, bool]:
    """A table, active or archived, and whether it is archived; ``TableNotFound`` if
    neither."""
    try:
        return await store.get(table_id), False
    except TableNotFound:
        return await store.get_archived(table_id), True


async def load_any(store: Any, table_id: str) -> tuple[TableRecord, list[LogEntry]]:
    """A table and its action log, active or archived; ``TableNotFound`` if neither."""
    record, archived = await record_any(store, table_id)
    return record, await store.action_log(table_id, archived=archived)


def join_lines(lines: list[Markup]) -> Markup:
    """Lines as one message text."""
    return Markup("\n".join(lines))
