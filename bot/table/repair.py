"""Re-deriving what a table owes, for a table whose follow-ups were never confirmed.

Every write marks its table as owing follow-ups (``GameStore`` does it in the same
atomic step); the worker that wrote clears the mark once it has handed the messages
over. If it crashed first, any worker later claims the table and calls ``repair``:
everything owed is a function of the table as it stands, so nothing needs to have been
remembered (``bot.table.settle.follow_ups``, the same derivation a move's own
follow-ups use) — the autopilot plays the seats it holds, the table's message is sent again,
each open decision is sent to its player again, each open decision has its reminder
and clock jobs, and a finished table is archived. Messages of older versions that a
newer one supersedes are not owed any more.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from bot.services import Services
from bot.storage import OwedTable, TableNotFound
from bot.table.settle import follow_ups
from bot.ui.message import Outgoing

HandOver = Callable[[list[Outgoing]], Awaitable[None]]


async def repair(sv: Services, owed: OwedTable, *, prompts: bool = True) -> tuple[
        list[Outgoing], int]:
    """Carry out what ``owed``'s table owes (``follow_ups`` of the table as it stands);
    the messages to send and the version they bring the table to (the one whose mark
    they clear). ``prompts`` sends each open decision to its player again (off for a
    look that owes nothing, like ``/status``)."""
    try:
        if owed.archived:
            record = await sv.store.get_archived(owed.table_id)
        else:
            record = await sv.store.get(owed.table_id)
    except TableNotFound:
        return [], owed.version
    done = await follow_ups(sv, record, None, prompts=prompts)
    return done.out, done.record.version


async def repair_owed(sv: Services, hand_over: HandOver, *, limit: int = 50) -> int:
    """Claim the tables whose follow-ups are overdue and repair each; returns how many.

    Each table's messages are handed over before its mark is cleared, so a crash here
    too leaves the mark for the next claim."""
    claimed = await sv.store.claim_owed(limit=limit)
    for owed in claimed:
        out, version = await repair(sv, owed)
        if out:
            await hand_over(out)
        await sv.store.settled(owed.table_id, version)
    return len(claimed)
