"""Jobs that come due: reminders, turn-clock time-outs, votes that lapse unanswered and
the autopilot's moves; and tables whose follow-ups were never confirmed delivered
(``bot.table.repair``).

Each job is claimed by exactly one worker (the store's claim), re-checks that the
prompt it was scheduled for is still the open one, and raises a once-only flag before
it is acknowledged, so a notice goes out once even if two workers race or a worker
restarts, and is sent again if the worker died before handing it over.
A job is acknowledged only after its work is done, so a worker that dies half-way
leaves it to be claimed again when its lease runs out; follow-up jobs (the next
reminder) are scheduled after the acknowledgement, which would otherwise delete them.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

from pydantic import JsonValue

from bot import metrics as figures
from bot.identity import is_ai
from bot.services import Services
from bot.storage import (
    Action,
    ActionKind,
    DueJob,
    StoreUnavailable,
    TableNotFound,
    TableRecord,
    TableStatus,
)
from bot.table.commits import Change, commit_change
from bot.table.moves import prompt_of
from bot.table.refusals import Refusal
from bot.table.repair import repair_owed
from bot.table.settings import Vote, meta_of, options_of
from bot.table.settle import THINK, autopilot_move, follow_ups, reminder_job
from bot.table.undo_trail import carry
from bot.table.vote_kinds import LAPSED, end_vote
from bot.table.vote_messages import LAPSE, vote_news
from bot.ui.message import Outgoing, ToUser

log = logging.getLogger(__name__)
FLAG_TTL = timedelta(days=30)
# While one time-out vote is open, another seat's time-out waits this long and retries.
BUSY_RETRY_S = 60.0


def _at(ts: float) -> datetime:
    return datetime.fromtimestamp(ts, UTC)


@dataclass
class JobResult:
    """What a job produced: messages, and jobs to schedule once it is acknowledged."""

    out: list[Outgoing] = field(default_factory=list)
    follow: list[tuple[str, datetime, dict[str, JsonValue]]] = field(default_factory=list)
    # A once-only flag to raise when ``out`` has been handed over (not before: a failure
    # midway must let the next claim send it again).
    flag: str | None = None
    # A table the job wrote to: its follow-ups are ``out``, so its mark is cleared then.
    owed: tuple[str, int] | None = None
    # Jobs to cancel with ``follow`` (the follow-ups of a change the job made).
    cancel: list[str] = field(default_factory=list)


Emit = Callable[[list[Outgoing]], Awaitable[None]]


async def run_due(sv: Services, limit: int = 100, emit: Emit | None = None) -> list[Outgoing]:
    """Claim and carry out every job due now; returns the messages to send.

    With ``emit``, each job's messages are handed over before the job is acknowledged
    (and not returned): if handing them over fails, the job is not acknowledged and
    runs again when its claim runs out, so nothing it had to say is lost. Should the
    storage fail midway, the jobs done so far keep their messages and the rest wait.
    """
    out: list[Outgoing] = []

    async def keep(items: list[Outgoing]) -> None:
        out.extend(items)

    hand_over = emit or keep
    try:
        for job in await sv.jobs.claim_due(_at(sv.now()), sv.worker_id, limit=limit):
            payload: dict[str, Any] = dict(job.payload)
            run = JOBS.get(str(payload.get("kind")))
            if run is None:
                log.warning("unknown job %s: %s", job.job_id, payload)
                result = JobResult()
            else:
                result = await run(sv, job, payload)
            if result.out:
                await hand_over(result.out)
            sv.fault("mid_reminder")
            if result.flag is not None:
                await sv.once.first(result.flag, FLAG_TTL)
            if result.owed is not None:
                await sv.store.settled(*result.owed)
            await sv.jobs.ack(job.job_id, sv.worker_id)
            if result.follow or result.cancel:
                await sv.jobs.change(schedule=result.follow, cancel=result.cancel)
                sv.wake_if_due(result.follow)  # due already: the next round need not wait
        await repair_owed(sv, hand_over)
    except StoreUnavailable:
        log.warning("storage unavailable while running due jobs; the rest wait for it")
    return out


def _open_seat(record: TableRecord, payload: dict[str, Any]) -> int | None:
    """The seat a job is about, if its prompt is still the one the job was set for."""
    seat = int(payload["seat"])
    meta = meta_of(record)
    if record.status != TableStatus.RUNNING or meta.opened.get(str(seat)) != payload["opened"]:
        return None
    if str(seat) in meta.autopilot:
        return None
    return seat


async def _still_open(sv: Services, payload: dict[str, Any]) -> tuple[TableRecord, int] | None:
    try:
        record = await sv.store.get(str(payload["table"]))
    except TableNotFound:
        return None
    seat = _open_seat(record, payload)
    return None if seat is None else (record, seat)


async def _remind(sv: Services, job: DueJob, payload: dict[str, Any]) -> JobResult:
    found = await _still_open(sv, payload)
    if found is None:
        return JobResult()
    record, seat = found
    n = int(payload["n"])
    options = options_of(record)
    if n > options.reminder_repeats:
        return JobResult()
    flag = f"{job.job_id}.{payload['opened']}.{n}"
    if await sv.once.raised(flag):
        return JobResult()
    result = JobResult(flag=flag)
    if n < options.reminder_repeats:
        result.follow.append((reminder_job(record.table_id, seat),
                              _at(sv.now() + options.reminder_h * 3600), {**payload, "n": n + 1}))
    prompt = prompt_of(sv.prompts(record), seat)
    if prompt is not None:
        lang = await sv.seat_lang(record, seat)
        message = sv.presenter.private_prompt(record, prompt, lang, heading="turn.reminder",
                                              now=sv.now())
        # How late reminders fire tells the operator whether the due loop keeps up.
        sv.metrics.observe(figures.REMINDER_LATENESS,
                           max(0.0, sv.now() - job.due_at.timestamp()),
                           figures.table_labels(record))
        # Stamped with the version it shows: a delivery layer never lets it replace a
        # newer prompt in the player's chat.
        result.out.append(Outgoing(ToUser(record.seats[seat]), message, record.table_id,
                                   version=record.version, key=f"remind:{flag}"))
    return result


async def _time_out(sv: Services, job: DueJob, payload: dict[str, Any]) -> JobResult:
    def open_vote(record: TableRecord) -> Change | Refusal:
        seat = _open_seat(record, payload)
        if seat is None:
            return Refusal("job.gone")
        meta = meta_of(record)
        left = meta.bank.get(str(seat), 0.0) - (sv.now() - meta.opened_at.get(str(seat), sv.now()))
        if left > 1:
            return Refusal("clock.later", {"left": left})
        # The players who decide: every other person at the table (an AI is never
        # asked). With nobody to ask (the others are all AI) there is no vote: the
        # player is waited for, reminded as usual.
        voters = [s for s, user_id in enumerate(record.seats) if s != seat and not is_ai(user_id)]
        if not voters:
            return Refusal("job.gone")
        if meta.vote is not None:
            # One vote at a time: this seat's time-out comes back after that vote.
            return Refusal("clock.later", {"left": BUSY_RETRY_S})
        meta.vote = Vote(seat=seat, opened=record.version + 1, voters=voters)
        changed = record.model_copy(update={"meta": meta.model_dump(mode="json")})
        return Change(changed, Action(key="timeout", seat=seat, kind=ActionKind.SYSTEM))

    done = await commit_change(sv, str(payload["table"]), open_vote)
    if isinstance(done, Refusal):
        return _later(sv, job.job_id, payload, done)
    committed = done.after
    return JobResult(out=vote_news(sv, committed), owed=(committed.table_id, committed.version))


async def _lapse(sv: Services, job: DueJob, payload: dict[str, Any]) -> JobResult:
    """A vote's time ran out before its ballots decided it: it ends, and says so."""
    def lapse(record: TableRecord) -> Change | Refusal:
        meta = meta_of(record)
        vote = meta.vote
        if record.status != TableStatus.RUNNING or vote is None \
                or vote.opened != payload["opened"]:
            return Refusal("job.gone")
        if vote.until > sv.now():
            return Refusal("clock.later", {"left": vote.until - sv.now()})
        end_vote(meta, LAPSED, record.version + 1)
        carry(meta, record.version)
        changed = record.model_copy(update={"meta": meta.model_dump(mode="json")})
        return Change(changed, Action(key=f"vote:{LAPSED}", seat=vote.seat,
                                      kind=ActionKind.SYSTEM))

    done = await commit_change(sv, str(payload["table"]), lapse)
    if isinstance(done, Refusal):
        return _later(sv, job.job_id, payload, done)
    committed = done.after
    return JobResult(out=vote_news(sv, committed), owed=(committed.table_id, committed.version))


async def _think(sv: Services, job: DueJob, payload: dict[str, Any]) -> JobResult:
    """The autopilot's next move at a table (``settle.autopilot_move``), and what that
    move owes in turn: its messages, and its jobs — the next move's among them, so a
    run of AI turns goes one move per job, each shown as it is made."""
    try:
        record = await sv.store.get(str(payload["table"]))
    except TableNotFound:
        return JobResult()
    after = await autopilot_move(sv, record)
    if after.version == record.version:
        return JobResult()  # nothing held is open any more: someone else moved
    settled = await follow_ups(sv, after, record)
    return JobResult(out=settled.out, owed=(after.table_id, after.version),
                     follow=list(settled.jobs.schedule), cancel=list(settled.jobs.cancel))


def _later(sv: Services, job_id: str, payload: dict[str, Any], refused: Refusal) -> JobResult:
    """A job that did nothing now: again when its refusal says (``left`` seconds), or
    never (what it was for is gone)."""
    left = refused.args.get("left")
    if not isinstance(left, float | int):
        return JobResult()
    return JobResult(follow=[(job_id, _at(sv.now() + left), payload)])


# What a job does, by its payload's kind: given the job as claimed and its payload (a copy).
Job = Callable[[Services, DueJob, dict[str, Any]], Awaitable[JobResult]]
JOBS: dict[str, Job] = {
    "remind": _remind,
    "clock": _time_out,
    LAPSE: _lapse,
    THINK: _think,
}
