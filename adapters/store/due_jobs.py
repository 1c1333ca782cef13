"""Due jobs (e.g. reminders) in Redis: schedule, then claim each due job in exactly one worker.

A claim moves the job's score from its due time to a lease expiry, atomically, so
concurrent ``claim_due`` calls in several processes never hand out the same job.
``ack`` after doing the work deletes the job; a worker that dies before ``ack`` lets
the lease run out and the job is claimed again (``attempts`` counts the claims).
So a job runs once per successful worker, and is never dropped by a crash.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

from pydantic import JsonValue
from redis.asyncio import Redis

from adapters.store import scripts
from adapters.store.client import unavailable_on_outage
from adapters.store.keys import DEFAULT_PREFIX, Keys
from bot.storage.records import DueJob

DEFAULT_LEASE = timedelta(minutes=5)
_JOB_ID = re.compile(r"^[^\s{}]{1,200}$")


class DueJobs:
    """A sorted-set job queue with claim-once semantics across processes."""

    def __init__(
        self, redis: Redis, *, prefix: str = DEFAULT_PREFIX, lease: timedelta = DEFAULT_LEASE
    ) -> None:
        """Use ``redis`` (``decode_responses=True``); claimed jobs stay leased for ``lease``."""
        self._redis = redis
        self.keys = Keys(prefix)
        self.lease = lease
        self._claim_script = redis.register_script(scripts.CLAIM_DUE)
        self._ack_script = redis.register_script(scripts.ACK)
        self._change_script = redis.register_script(scripts.CHANGE_JOBS)

    async def schedule(
        self, job_id: str, due_at: datetime, payload: Mapping[str, JsonValue] | None = None
    ) -> None:
        """Schedule (or reschedule, replacing payload and any claim) job ``job_id``."""
        if not _JOB_ID.match(job_id):
            raise ValueError(f"bad job id {job_id!r}")
        body = json.dumps(dict(payload or {}))
        with unavailable_on_outage("schedule job"):
            async with self._redis.pipeline(transaction=True) as pipe:
                pipe.zadd(self.keys.job_queue(), {job_id: _score(due_at)})
                pipe.delete(self.keys.job(job_id))
                pipe.hset(
                    self.keys.job(job_id),
                    mapping={"payload": body, "due": due_at.astimezone(UTC).isoformat()},
                )
                await pipe.execute()

    async def change(
        self,
        schedule: Sequence[tuple[str, datetime, Mapping[str, JsonValue]]] = (),
        cancel: Sequence[str] = (),
    ) -> None:
        """Schedule and cancel several jobs in one transaction (one round trip)."""
        if not schedule and not cancel:
            return
        # One script rather than a MULTI/EXEC pipeline: as atomic, and one command to
        # encode and one reply to parse instead of a dozen.
        keys, args = for_script(self.keys, schedule, cancel)
        with unavailable_on_outage("change jobs"):
            await self._change_script(keys=keys, args=args)

    async def payloads(self, job_ids: Sequence[str]) -> dict[str, dict[str, JsonValue] | None]:
        """The payload of each job that is scheduled (None for those that are not)."""
        if not job_ids:
            return {}
        with unavailable_on_outage("read jobs"):
            async with self._redis.pipeline(transaction=False) as pipe:
                for job_id in job_ids:
                    pipe.hget(self.keys.job(job_id), "payload")
                raw = await pipe.execute()
        return {job_id: (json.loads(body) if body else None)
                for job_id, body in zip(job_ids, raw, strict=True)}

    async def cancel(self, job_id: str) -> bool:
        """Remove a job, claimed or not; True if it existed."""
        with unavailable_on_outage("cancel job"):
            async with self._redis.pipeline(transaction=True) as pipe:
                pipe.zrem(self.keys.job_queue(), job_id)
                pipe.delete(self.keys.job(job_id))
                removed, _ = await pipe.execute()
        return bool(removed)

    async def claim_due(self, now: datetime, worker_id: str, *, limit: int = 100) -> list[DueJob]:
        """Claim up to ``limit`` jobs due at ``now`` (or whose lease ran out) for ``worker_id``."""
        with unavailable_on_outage("claim due jobs"):
            rows: list[list[Any]] = await self._claim_script(
                keys=[self.keys.job_queue()],
                args=[
                    repr(_score(now)),
                    repr(_score(now + self.lease)),
                    worker_id,
                    str(limit),
                    self.keys.prefix,
                ],
            )
        return [
            DueJob(
                job_id=job_id,
                payload=json.loads(payload),
                due_at=datetime.fromisoformat(due),
                attempts=int(attempts),
            )
            for job_id, payload, due, attempts in rows
        ]

    async def ack(self, job_id: str, worker_id: str) -> bool:
        """Mark a claimed job done; False if the claim was lost (lease expired and re-claimed)."""
        with unavailable_on_outage("ack job"):
            done = await self._ack_script(
                keys=[self.keys.job_queue(), self.keys.job(job_id)], args=[job_id, worker_id]
            )
        return bool(done)

    async def next_due_at(self) -> datetime | None:
        """Earliest due time (or lease expiry) in the queue, so a worker knows how long to sleep."""
        with unavailable_on_outage("peek job queue"):
            first: list[Any] = await self._redis.zrange(
                self.keys.job_queue(), 0, 0, withscores=True
            )
        if not first:
            return None
        return datetime.fromtimestamp(float(first[0][1]), UTC)


def for_script(
    keys: Keys,
    schedule: Sequence[tuple[str, datetime, Mapping[str, JsonValue]]],
    cancel: Sequence[str],
) -> tuple[list[str], list[str | int]]:
    """The keys and arguments of ``scripts.JOB_CHANGES`` for these changes; raises
    ``ValueError`` for a job id that is not one."""
    for job_id, _, _ in schedule:
        if not _JOB_ID.match(job_id):
            raise ValueError(f"bad job id {job_id!r}")
    script_keys = [keys.job_queue(), *(keys.job(job_id) for job_id in cancel)]
    args: list[str | int] = [len(cancel), *cancel]
    for job_id, due_at, payload in schedule:
        script_keys.append(keys.job(job_id))
        args += [job_id, repr(_score(due_at)), json.dumps(dict(payload)),
                 due_at.astimezone(UTC).isoformat()]
    return script_keys, args


def _score(moment: datetime) -> float:
    if moment.tzinfo is None:
        raise ValueError("job times must be timezone-aware")
    return moment.timestamp()
