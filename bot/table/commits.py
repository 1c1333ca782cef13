"""The one commit loop: every change to a table — a move, a lobby verb, a ballot, a
time-out, a seat taken back from the autopilot, a chat that changed its id — is decided
on the table as read and committed only if the table is still at that version.

A change is a function of the table (``Changer``): it returns the changed record with
its log entry, or the ``Refusal`` to give. When another write got there first, the
table is read again and the change decided again, so concurrent writers never lose one
another's changes and a refusal is always judged on the table as stored.
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Callable
from dataclasses import dataclass

from pydantic import BaseModel

from bot import metrics as figures
from bot.services import Services
from bot.storage import (
    Action,
    ScriptPart,
    StaleVersion,
    StoreUnavailable,
    TableNotFound,
    TableRecord,
)
from bot.table.refusals import Refusal
from engine.core.prompts import Prompt

log = logging.getLogger(__name__)
COMMIT_ATTEMPTS = 8


@dataclass(frozen=True, slots=True)
class Change:
    """A table changed in memory, ready to commit: the new record and its log entry.
    A move also gives the prompts and the state it leads to, kept as that version's
    once saved (``Services.remember``), so its messages need not parse it again."""

    record: TableRecord
    action: Action
    prompts: list[Prompt] | None = None
    state: BaseModel | None = None


@dataclass(frozen=True, slots=True)
class Committed:
    """A change saved: the table before and after it."""

    before: TableRecord
    after: TableRecord


Changer = Callable[[TableRecord], "Change | Refusal"]


class CommitLost(StoreUnavailable):
    """The storage failed while a change was being saved: whether it was is unknown (an
    outage, so callers that do not ask propagate it like any other)."""

    def __init__(self, table_id: str, commit_id: str) -> None:
        """The table and the id its commit would be found under."""
        super().__init__(f"table {table_id}: commit {commit_id} unconfirmed")
        self.table_id = table_id
        self.commit_id = commit_id


async def commit_change(
    sv: Services, table_id: str, change: Changer, *,
    seen: TableRecord | None = None, guard: ScriptPart | None = None,
) -> Committed | Refusal:
    """Decide ``change`` on the table and commit it, deciding again after a lost race.

    The first attempt decides on ``seen`` when given (the table as the caller last saw
    it: no round trip), which the commit's version check catches if it is out of date;
    a refusal decided on it is judged again on the stored table before it is returned.
    ``guard`` goes into the commit (``GameStorePort.commit``). An outage during the
    commit raises ``CommitLost``; the table gone is ``press.no_table``, a table that
    keeps changing under the change ``press.busy``.
    """
    record = seen
    fresh = False
    for _ in range(COMMIT_ATTEMPTS):
        if record is None:
            try:
                record = await sv.store.get(table_id)
            except TableNotFound:
                return Refusal("press.no_table")
            fresh = True
        changed = change(record)
        if isinstance(changed, Refusal):
            if not fresh:
                record = None
                continue
            return changed
        commit_id = uuid.uuid4().hex
        try:
            committed = await sv.store.commit(table_id, record.version, changed.record,
                                              changed.action, commit_id=commit_id, guard=guard)
        except (StaleVersion, TableNotFound):
            # Another write got there first (or the table was archived meanwhile): read
            # it as stored, and decide again.
            record = None
            continue
        except StoreUnavailable:
            log.warning("table %s: storage failed during a commit", table_id)
            raise CommitLost(table_id, commit_id) from None
        if changed.prompts is not None and changed.state is not None:
            sv.remember(committed, changed.prompts, changed.state)
        sv.metrics.count(figures.COMMITS, figures.table_labels(committed))
        return Committed(record, committed)
    return Refusal("press.busy")
