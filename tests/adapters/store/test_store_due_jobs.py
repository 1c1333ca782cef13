"""DueJobs: scheduled jobs are claimed once across workers and survive a worker crash."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta

import pytest
from redis.asyncio import Redis

from adapters.store.client import connect
from adapters.store.due_jobs import DueJobs

T0 = datetime(2030, 1, 1, 12, 0, tzinfo=UTC)


async def test_only_due_jobs_are_claimed(jobs: DueJobs) -> None:
    await jobs.schedule("remind:a7k2:u1", T0, {"table": "a7k2", "user": "tg:u1"})
    await jobs.schedule("remind:b3b3:u2", T0 + timedelta(hours=1), {"table": "b3b3"})
    claimed = await jobs.claim_due(T0, "w1")
    assert [(j.job_id, j.payload, j.due_at, j.attempts) for j in claimed] == [
        ("remind:a7k2:u1", {"table": "a7k2", "user": "tg:u1"}, T0, 1)
    ]
    assert await jobs.claim_due(T0 + timedelta(minutes=1), "w2") == []


async def test_concurrent_workers_claim_each_job_exactly_once(
    redis_url: str, prefix: str, jobs: DueJobs
) -> None:
    for n in range(100):
        await jobs.schedule(f"job{n}", T0 - timedelta(seconds=n), {"n": n})
    clients = [connect(redis_url) for _ in range(5)]
    try:
        workers = [DueJobs(client, prefix=prefix) for client in clients]

        async def drain(worker: DueJobs, name: str) -> list[str]:
            got: list[str] = []
            while batch := await worker.claim_due(T0, name, limit=7):
                got += [job.job_id for job in batch]
            return got

        results = await asyncio.gather(*(drain(w, f"w{i}") for i, w in enumerate(workers)))
    finally:
        for client in clients:
            await client.aclose()
    claimed = [job for batch in results for job in batch]
    assert sorted(claimed) == sorted(f"job{n}" for n in range(100))  # none twice, none lost


async def test_ack_removes_job(jobs: DueJobs) -> None:
    await jobs.schedule("j", T0)
    [job] = await jobs.claim_due(T0, "w1")
    assert await jobs.ack(job.job_id, "w1")
    assert await jobs.claim_due(T0 + timedelta(days=1), "w2") == []
    assert await jobs.next_due_at() is None


async def test_unacked_job_returns_after_lease(jobs: DueJobs) -> None:
    await jobs.schedule("j", T0, {"x": 1})
    await jobs.claim_due(T0, "crashed-worker")
    assert await jobs.claim_due(T0 + jobs.lease - timedelta(seconds=1), "w2") == []
    [again] = await jobs.claim_due(T0 + jobs.lease, "w2")
    assert (again.job_id, again.payload, again.attempts) == ("j", {"x": 1}, 2)
    # The first worker lost its claim; only the new owner may ack.
    assert not await jobs.ack("j", "crashed-worker")
    assert await jobs.ack("j", "w2")


async def test_reschedule_replaces_and_cancel_removes(jobs: DueJobs) -> None:
    await jobs.schedule("j", T0, {"v": 1})
    await jobs.schedule("j", T0 + timedelta(hours=2), {"v": 2})
    assert await jobs.next_due_at() == T0 + timedelta(hours=2)
    assert await jobs.claim_due(T0 + timedelta(hours=1), "w") == []
    [job] = await jobs.claim_due(T0 + timedelta(hours=2), "w")
    assert job.payload == {"v": 2}
    assert await jobs.cancel("j")
    assert not await jobs.cancel("j")
    assert await jobs.claim_due(T0 + timedelta(days=9), "w") == []


async def test_naive_times_are_refused(jobs: DueJobs, redis_client: Redis) -> None:
    with pytest.raises(ValueError, match="timezone"):
        await jobs.schedule("j", datetime(2030, 1, 1))
    with pytest.raises(ValueError, match="bad job id"):
        await jobs.schedule("has space", T0)


async def test_change_cancels_and_schedules_in_one_step(
    jobs: DueJobs, redis_client: Redis
) -> None:
    await jobs.schedule("old", T0, {"v": 0})
    await jobs.schedule("again", T0, {"v": 0})
    await jobs.claim_due(T0, "w1")  # "again" is claimed: rescheduling drops the claim
    later = T0 + timedelta(hours=1, microseconds=250)
    await jobs.change(schedule=[("again", later, {"v": 1}), ("new", T0, {"v": 2, "s": "x y"})],
                      cancel=["old", "again", "never-there"])
    assert await jobs.payloads(["old", "again", "new"]) == {
        "old": None, "again": {"v": 1}, "new": {"v": 2, "s": "x y"}}
    # Stored exactly as ``schedule`` stores a job: same fields, same due time and score.
    assert await redis_client.hgetall(jobs.keys.job("again")) == {
        "payload": '{"v": 1}', "due": later.isoformat()}
    assert await redis_client.zscore(jobs.keys.job_queue(), "again") == later.timestamp()
    claimed = await jobs.claim_due(later, "w2")
    assert sorted((j.job_id, j.due_at, j.attempts) for j in claimed) == [
        ("again", later, 1), ("new", T0, 1)]
    await jobs.change(cancel=["again", "new"])
    assert await jobs.next_due_at() is None


async def test_change_refuses_bad_ids_before_writing(jobs: DueJobs) -> None:
    with pytest.raises(ValueError, match="bad job id"):
        await jobs.change(schedule=[("ok", T0, {}), ("has space", T0, {})])
    assert await jobs.payloads(["ok"]) == {"ok": None}
