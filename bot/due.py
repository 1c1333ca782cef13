"""Jobs that come due: reminders and turn-clock time-outs.

Each job is claimed by exactly one worker (the store's claim), re-checks that the
prompt it was scheduled for is still the open one, and raises a once-only flag before
it sends, so a notice goes out once even if two workers race or a worker restarts.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from bot.flow import clock_job, reminder_job
from bot.services import Services
from bot.storage import Action, ActionKind, StaleVersion, TableNotFound, TableStatus
from bot.table_settings import Vote, meta_of, options_of
from bot.ui import Outgoing, ToChat, ToUser
from bot.votes import vote_message

FLAG_TTL = timedelta(days=30)


def _at(ts: float) -> datetime:
    return datetime.fromtimestamp(ts, UTC)


async def run_due(sv: Services, limit: int = 100) -> list[Outgoing]:
    """Claim and carry out every job due now; returns the messages to send."""
    out: list[Outgoing] = []
    for job in await sv.jobs.claim_due(_at(sv.now()), sv.worker_id, limit=limit):
        payload = job.payload
        await sv.jobs.ack(job.job_id, sv.worker_id)
        if payload.get("kind") == "remind":
            out += await _remind(sv, job.job_id, payload)
        elif payload.get("kind") == "clock":
            out += await _time_out(sv, payload)
    return out


async def _still_open(sv: Services, payload: dict[str, Any]) -> tuple[Any, int] | None:
    try:
        record = await sv.store.get(str(payload["table"]))
    except TableNotFound:
        return None
    seat = int(payload["seat"])
    meta = meta_of(record)
    if record.status != TableStatus.RUNNING or meta.opened.get(str(seat)) != payload["opened"]:
        return None
    if str(seat) in meta.autopilot:
        return None
    return record, seat


async def _remind(sv: Services, job_id: str, payload: dict[str, Any]) -> list[Outgoing]:
    found = await _still_open(sv, payload)
    if found is None:
        return []
    record, seat = found
    n = int(payload["n"])
    if not await sv.once.first(f"{job_id}.{payload['opened']}.{n}", FLAG_TTL):
        return []
    options = options_of(record)
    if n < options.reminder_repeats:
        await sv.jobs.schedule(
            reminder_job(record.table_id, seat),
            _at(sv.now() + options.reminder_h * 3600),
            {**payload, "n": n + 1},
        )
    prompt = next((p for p in sv.prompts(record) if p.seat == seat), None)
    if prompt is None:
        return []
    lang = await sv.seat_lang(record, seat)
    message = sv.presenter.private_prompt(record, prompt, lang, heading="turn.reminder")
    return [Outgoing(ToUser(record.seats[seat]), message, record.table_id)]


async def _time_out(sv: Services, payload: dict[str, Any]) -> list[Outgoing]:
    for _ in range(4):
        found = await _still_open(sv, payload)
        if found is None:
            return []
        record, seat = found
        meta = meta_of(record)
        left = meta.bank.get(str(seat), 0.0) - (sv.now() - meta.opened_at.get(str(seat), sv.now()))
        if left > 1:
            await sv.jobs.schedule(clock_job(record.table_id, seat), _at(sv.now() + left), payload)
            return []
        if meta.vote is not None:
            return []
        meta.vote = Vote(seat=seat)
        changed = record.model_copy(update={"meta": meta.model_dump(mode="json")})
        try:
            committed = await sv.store.commit(
                record.table_id, record.version, changed,
                Action(key="timeout", seat=seat, kind=ActionKind.SYSTEM),
            )
        except StaleVersion:
            continue
        lang = sv.table_lang(committed)
        name = meta.names.get(committed.seats[seat], "?")
        message = vote_message(sv, committed.table_id, committed.version, name, lang)
        return [Outgoing(ToChat(committed.chat_id), message)]
    return []
