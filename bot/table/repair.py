"""Re-deriving what a table owes, for a table whose follow-ups were never confirmed.

Every write marks its table as owing follow-ups (``GameStore`` does it in the same
atomic step); the worker that wrote clears the mark once it has handed the messages
over. If it crashed first, any worker later claims the table and calls ``repair``:
everything owed is a function of the table as it stands, so nothing needs to have been
remembered — the autopilot plays the seats it holds, the table's message is sent again,
each open decision is sent to its player again, each open decision has its reminder
and clock jobs, and a finished table is archived. Messages of older versions that a
newer one supersedes are not owed any more.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from bot.services import Services
from bot.storage import OwedTable, TableNotFound, TableRecord, TableStatus
from bot.table.settings import meta_of
from bot.table.settle import (
    ARCHIVE_AFTER_FINISH,
    RESULT_KEY,
    Schedule,
    autopilot,
    prompt_key,
    seat_job_ids,
    seat_jobs,
    table_message,
)
from bot.ui.message import Message, Outgoing, ToChat, ToUser
from bot.ui.present import dm_slot
from engine.registry import get_game

HandOver = Callable[[list[Outgoing]], Awaitable[None]]


async def _jobs(sv: Services, record: TableRecord) -> None:
    """Every open decision has its jobs (for the prompt now open); no other seat has any."""
    meta = meta_of(record)
    asked = {p.seat for p in sv.prompts(record)} if record.status == TableStatus.RUNNING else set()
    wanted: Schedule = []
    cancel: list[str] = []
    for seat in range(len(record.seats)):
        ids = seat_job_ids(record, seat)
        key = str(seat)
        if seat not in asked or key in meta.autopilot or key not in meta.opened:
            cancel += ids
            continue
        current = await sv.jobs.payloads(ids)
        for job_id, due, payload in seat_jobs(sv, record, seat):
            held = current.get(job_id)
            if held is None or held.get("opened") != payload["opened"]:
                wanted.append((job_id, due, payload))
    await sv.jobs.change(schedule=wanted, cancel=cancel)


async def repair(sv: Services, owed: OwedTable, *, prompts: bool = True) -> tuple[
        list[Outgoing], int]:
    """Carry out what ``owed``'s table owes; the messages to send and the version they
    bring the table to (the one whose mark they clear). ``prompts`` sends each open
    decision to its player again (off for a look that owes nothing, like ``/status``)."""
    try:
        if owed.archived:
            record = await sv.store.get_archived(owed.table_id)
        else:
            record = await sv.store.get(owed.table_id)
    except TableNotFound:
        return [], owed.version
    if record.status == TableStatus.RUNNING:
        record = await autopilot(sv, record)
    out = [Outgoing(ToChat(record.chat_id), await table_message(sv, record),
                    version=record.version)]
    meta = meta_of(record)
    if prompts and record.status == TableStatus.RUNNING:
        for prompt in sv.prompts(record):
            if str(prompt.seat) in meta.autopilot:
                continue
            lang = await sv.seat_lang(record, prompt.seat)
            # As the move sent it: a turn that began at this version is a new message
            # (it notifies), a turn that only went on is an edit. Keyed like the first,
            # so a delivery layer that sent it already does not send it twice.
            key = str(prompt.seat)
            began = meta.began.get(key) == meta.opened.get(key)
            heading = "turn.your_turn" if began else "turn.continue"
            message = sv.presenter.private_prompt(record, prompt, lang, heading=heading,
                                                  now=sv.now())
            out.append(Outgoing(ToUser(record.seats[prompt.seat]), message, record.table_id,
                                version=record.version, key=prompt_key(record, prompt.seat)))
    if prompts and record.status == TableStatus.FINISHED:
        # The players' own results, keyed like the ones the final move sent, so that a
        # delivery layer that already sent them does not send them twice.
        state = sv.view_state(record)
        game = get_game(record.game)
        for seat in range(len(record.seats)):
            lang = await sv.seat_lang(record, seat)
            text = sv.presenter.personal_result(record, game, state, seat, lang)
            out.append(Outgoing(ToUser(record.seats[seat]),
                                Message(text=text, slot=dm_slot(record, seat), renew=True),
                                record.table_id, version=record.version, key=RESULT_KEY))
    await _jobs(sv, record)
    if record.status.is_over and not owed.archived and ARCHIVE_AFTER_FINISH:
        await sv.store.archive(record.table_id)
    return out, record.version


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
