"""GameStore behaviour against a real Redis (embedded, or REDIS_URL)."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from redis.asyncio import Redis

from adapters.store.due_jobs import DueJobs
from adapters.store.game_store import GameStore
from adapters.store.migrations import MigrationRegistry
from bot.storage.errors import (
    CorruptRecord,
    MigrationError,
    NotArchivable,
    StaleVersion,
    TableExists,
    TableNotFound,
)
from bot.storage.records import (
    Action,
    ActionKind,
    JobChanges,
    OwedTable,
    TableRecord,
    TableStatus,
)

MakeRecord = Callable[..., TableRecord]
T0 = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)


async def snapshot_fields(redis: Redis, store: GameStore, table_id: str) -> dict[Any, Any]:
    """Raw snapshot hash, to check that failed writes changed nothing at all."""
    return dict(await redis.hgetall(store.keys.table(table_id)))


async def test_create_get_round_trip(store: GameStore, make_record: MakeRecord) -> None:
    record = make_record(state={"deck": ["b12", "c3"], "nested": {"x": [1, 2.5, None, True]}})
    created = await store.create(record)
    loaded = await store.get("a7k2")
    assert loaded == created
    assert loaded.version == 0
    assert loaded.state == {"deck": ["b12", "c3"], "nested": {"x": [1, 2.5, None, True]}}
    assert loaded.seats == ("tg:u1", "tg:u2")
    assert loaded.created_at == loaded.updated_at


async def test_create_stamps_version_zero(store: GameStore, make_record: MakeRecord) -> None:
    created = await store.create(make_record(version=17))
    assert created.version == 0
    assert (await store.get("a7k2")).version == 0


async def test_create_refuses_existing_id(store: GameStore, make_record: MakeRecord) -> None:
    await store.create(make_record(options={"first": True}))
    with pytest.raises(TableExists):
        await store.create(make_record(options={"second": True}))
    assert (await store.get("a7k2")).options == {"first": True}


async def test_create_retry_with_same_id_is_idempotent(
    store: GameStore, make_record: MakeRecord
) -> None:
    first = await store.create(make_record(), create_id="req-1")
    again = await store.create(make_record(), create_id="req-1")
    assert again == first


async def test_get_missing_table(store: GameStore) -> None:
    with pytest.raises(TableNotFound):
        await store.get("none")


async def test_new_table_ids_are_unique_and_short(store: GameStore) -> None:
    ids = await asyncio.gather(*(store.new_table_id() for _ in range(200)))
    assert len(set(ids)) == 200
    assert all(len(table_id) == 4 for table_id in ids)
    TableRecord(table_id=ids[0], game="caverna", chat_id="c", creator_id="u")  # valid id


async def test_commit_on_current_version(store: GameStore, make_record: MakeRecord) -> None:
    created = await store.create(make_record())
    changed = created.model_copy(update={"state": {"round": 2}, "status": TableStatus.RUNNING})
    committed = await store.commit("a7k2", 0, changed, Action(key="start", user_id="tg:u1"))
    assert committed.version == 1
    loaded = await store.get("a7k2")
    assert loaded == committed
    assert loaded.state == {"round": 2}
    assert loaded.status is TableStatus.RUNNING
    assert loaded.updated_at >= created.updated_at


async def test_every_commit_is_announced_on_the_tables_live_channel_and_a_stale_one_is_not(
    store: GameStore, redis_client: Redis, make_record: MakeRecord
) -> None:
    """What a live page listens to: each commit's new version, from inside the commit."""
    created = await store.create(make_record())
    pubsub = redis_client.pubsub()
    await pubsub.subscribe(store.keys.live("a7k2"))
    await pubsub.get_message(timeout=1.0)  # the subscription's confirmation
    await store.commit("a7k2", 0, created.model_copy(update={"state": {"n": 1}}), Action(key="a"))
    with pytest.raises(StaleVersion):
        await store.commit("a7k2", 0, created, Action(key="late"))
    one = await store.get("a7k2")
    await store.commit("a7k2", 1, one.model_copy(update={"state": {"n": 2}}), Action(key="b"))
    heard = []
    for _ in range(3):
        message = await pubsub.get_message(ignore_subscribe_messages=True, timeout=1.0)
        if message is not None:
            heard.append(message["data"])
    await pubsub.aclose()
    assert heard == ["1", "2"]


async def test_stale_commit_changes_nothing(
    store: GameStore, redis_client: Redis, make_record: MakeRecord
) -> None:
    created = await store.create(make_record())
    await store.commit("a7k2", 0, created.model_copy(update={"state": {"n": 1}}), Action(key="a"))
    before = await snapshot_fields(redis_client, store, "a7k2")
    log_before = await store.action_log("a7k2")

    with pytest.raises(StaleVersion) as caught:
        await store.commit(
            "a7k2",
            0,
            created.model_copy(update={"state": {"n": 99}, "seats": ("tg:u9",)}),
            Action(key="late"),
        )
    assert (caught.value.expected, caught.value.actual) == (0, 1)
    assert await snapshot_fields(redis_client, store, "a7k2") == before
    assert await store.action_log("a7k2") == log_before
    assert await store.tables_of_user("tg:u9") == []


async def test_commit_from_the_future_is_stale(store: GameStore, make_record: MakeRecord) -> None:
    created = await store.create(make_record())
    with pytest.raises(StaleVersion):
        await store.commit("a7k2", 5, created, Action(key="x"))
    assert (await store.get("a7k2")).version == 0


async def test_commit_missing_table(store: GameStore, make_record: MakeRecord) -> None:
    with pytest.raises(TableNotFound):
        await store.commit("a7k2", 0, make_record(), Action(key="x"))


async def test_commit_rejects_record_of_other_table(
    store: GameStore, make_record: MakeRecord
) -> None:
    await store.create(make_record())
    with pytest.raises(ValueError, match="not 'a7k2'"):
        await store.commit("a7k2", 0, make_record(table_id="zzzz"), Action(key="x"))


async def test_fifty_concurrent_commits_exactly_one_wins(
    store: GameStore, make_record: MakeRecord
) -> None:
    created = await store.create(make_record())
    attempts = [
        store.commit(
            "a7k2",
            0,
            created.model_copy(update={"state": {"winner": n}}),
            Action(key=f"press:{n}", user_id=f"tg:p{n}"),
        )
        for n in range(50)
    ]
    results = await asyncio.gather(*attempts, return_exceptions=True)
    wins = [r for r in results if isinstance(r, TableRecord)]
    stale = [r for r in results if isinstance(r, StaleVersion)]
    assert len(wins) == 1
    assert len(stale) == 49
    loaded = await store.get("a7k2")
    assert loaded.version == 1
    assert loaded.state == wins[0].state
    log = await store.action_log("a7k2")
    assert [entry.key for entry in log] == [f"press:{wins[0].state['winner']}"]


async def test_retried_commit_with_same_id_applies_once(
    store: GameStore, make_record: MakeRecord
) -> None:
    created = await store.create(make_record())
    changed = created.model_copy(update={"state": {"n": 1}})
    first = await store.commit("a7k2", 0, changed, Action(key="a"), commit_id="upd-7")
    # Same request again (e.g. a retry after a lost reply): success, not applied twice.
    again = await store.commit("a7k2", 0, changed, Action(key="a"), commit_id="upd-7")
    assert again == first
    assert len(await store.action_log("a7k2")) == 1
    # A different request on the old version is still stale.
    with pytest.raises(StaleVersion):
        await store.commit("a7k2", 0, changed, Action(key="a"), commit_id="upd-8")


async def test_action_log_is_append_only_and_ordered(
    store: GameStore, make_record: MakeRecord
) -> None:
    record = await store.create(make_record())
    keys = ["join", "start", "hunt", "place:forest:3", "feed"]
    for n, key in enumerate(keys):
        record = await store.commit(
            "a7k2",
            record.version,
            record.model_copy(update={"state": {"step": n}}),
            Action(key=key, user_id="tg:u1", seat=0, kind=ActionKind.MOVE),
        )
        log = await store.action_log("a7k2")
        # Earlier entries never change as new ones are appended.
        assert [entry.key for entry in log] == keys[: n + 1]
    log = await store.action_log("a7k2")
    assert [entry.version for entry in log] == [1, 2, 3, 4, 5]
    assert all(entry.user_id == "tg:u1" and entry.seat == 0 for entry in log)
    assert [entry.at for entry in log] == sorted(entry.at for entry in log)


async def test_action_log_of_unknown_table_is_empty(store: GameStore) -> None:
    assert await store.action_log("none") == []


async def test_indexes_per_chat_and_user(store: GameStore, make_record: MakeRecord) -> None:
    await store.create(make_record("t001", chat_id="tg:c1", creator_id="tg:a", seats=("tg:a",)))
    await store.create(
        make_record("t002", chat_id="tg:c1", creator_id="tg:b", seats=("tg:b", "tg:a"))
    )
    await store.create(make_record("t003", chat_id="dc:c2", creator_id="dc:z", seats=("dc:z",)))

    assert [t.table_id for t in await store.tables_in_chat("tg:c1")] == ["t001", "t002"]
    assert [t.table_id for t in await store.tables_in_chat("dc:c2")] == ["t003"]
    assert await store.tables_in_chat("tg:other") == []
    assert [t.table_id for t in await store.tables_of_user("tg:a")] == ["t001", "t002"]
    assert [t.table_id for t in await store.tables_of_user("tg:b")] == ["t002"]
    assert [t.table_id for t in await store.tables_of_user("dc:z")] == ["t003"]


async def test_commit_moves_user_index_with_seats(
    store: GameStore, make_record: MakeRecord
) -> None:
    record = await store.create(make_record(creator_id="tg:host", seats=("tg:host", "tg:left")))
    changed = record.model_copy(update={"seats": ("tg:host", "tg:joined")})
    await store.commit("a7k2", 0, changed, Action(key="swap", kind=ActionKind.LOBBY))
    assert await store.tables_of_user("tg:left") == []
    assert [t.table_id for t in await store.tables_of_user("tg:joined")] == ["a7k2"]
    assert [t.table_id for t in await store.tables_of_user("tg:host")] == ["a7k2"]


async def test_commit_moves_chat_index_with_chat(store: GameStore, make_record: MakeRecord) -> None:
    record = await store.create(make_record(chat_id="tg:old"))
    moved = record.model_copy(update={"chat_id": "tg:new"})
    await store.commit("a7k2", 0, moved, Action(key="move-chat", kind=ActionKind.SYSTEM))
    assert await store.tables_in_chat("tg:old") == []
    assert [t.table_id for t in await store.tables_in_chat("tg:new")] == ["a7k2"]


async def test_archive_moves_table_and_log_with_retention(
    store: GameStore, redis_client: Redis, make_record: MakeRecord
) -> None:
    record = await store.create(make_record())
    record = await store.commit(
        "a7k2", 0, record.model_copy(update={"status": TableStatus.FINISHED}), Action(key="end")
    )
    await store.archive("a7k2", retention=timedelta(days=3))

    with pytest.raises(TableNotFound):
        await store.get("a7k2")
    assert await store.tables_in_chat("tg:-1001") == []
    assert await store.tables_of_user("tg:u1") == []
    assert await store.tables_of_user("tg:u2") == []
    assert await store.action_log("a7k2") == []
    assert await store.get_archived("a7k2") == record
    assert [e.key for e in await store.action_log("a7k2", archived=True)] == ["end"]
    for key in (store.keys.table("a7k2", archived=True), store.keys.log("a7k2", archived=True)):
        ttl = await redis_client.ttl(key)
        assert 3 * 86400 - 60 < ttl <= 3 * 86400
    # An archived id is never handed out again.
    with pytest.raises(TableExists):
        await store.create(make_record())
    # Archiving twice (a retry) is harmless.
    await store.archive("a7k2")


async def test_archive_uses_configured_default_retention(
    redis_client: Redis, prefix: str, make_record: MakeRecord
) -> None:
    store = GameStore(redis_client, prefix=prefix, archive_retention=timedelta(hours=2))
    await store.create(make_record(status=TableStatus.ABORTED))
    await store.archive("a7k2")
    ttl = await redis_client.ttl(store.keys.table("a7k2", archived=True))
    assert 7200 - 60 < ttl <= 7200


async def test_archived_table_expires(
    store: GameStore, redis_client: Redis, make_record: MakeRecord
) -> None:
    await store.create(make_record(status=TableStatus.FINISHED))
    await store.archive("a7k2", retention=timedelta(seconds=1))
    key = store.keys.table("a7k2", archived=True)
    await redis_client.pexpire(key, 1)
    # Wait for the expiry itself (each look expires a key past its time), 10 s at most.
    for _ in range(10_000):
        if not await redis_client.exists(key):
            break
        await asyncio.sleep(0.001)
    with pytest.raises(TableNotFound):
        await store.get_archived("a7k2")


async def test_running_table_is_not_archived(
    store: GameStore, redis_client: Redis, make_record: MakeRecord
) -> None:
    await store.create(make_record(status=TableStatus.RUNNING))
    before = await snapshot_fields(redis_client, store, "a7k2")
    with pytest.raises(NotArchivable):
        await store.archive("a7k2")
    assert await snapshot_fields(redis_client, store, "a7k2") == before
    assert [t.table_id for t in await store.tables_in_chat("tg:-1001")] == ["a7k2"]


async def test_archive_missing_table(store: GameStore) -> None:
    with pytest.raises(TableNotFound):
        await store.archive("none")


async def test_migration_applied_on_load(
    redis_client: Redis, prefix: str, make_record: MakeRecord
) -> None:
    old_store = GameStore(redis_client, prefix=prefix)
    await old_store.create(make_record(schema_version=1, state={"food": 5}))

    migrations = MigrationRegistry()

    @migrations.register("stone_age", 1)
    def food_to_dict(data: dict[str, Any]) -> dict[str, Any]:
        data["state"] = {"resources": {"food": data["state"]["food"]}}
        return data

    @migrations.register("stone_age", 2)
    def add_round(data: dict[str, Any]) -> dict[str, Any]:
        data["state"]["round"] = 1
        return data

    new_store = GameStore(redis_client, prefix=prefix, migrations=migrations)
    loaded = await new_store.get("a7k2")
    assert loaded.schema_version == 3
    assert loaded.state == {"resources": {"food": 5}, "round": 1}
    assert [t.state for t in await new_store.tables_in_chat("tg:-1001")] == [loaded.state]
    # Loading does not write; the next commit stores the upgraded snapshot.
    assert (await old_store.get("a7k2")).schema_version == 1
    await new_store.commit("a7k2", loaded.version, loaded, Action(key="noop"))
    assert (await old_store.get("a7k2")).schema_version == 3


async def test_commit_refuses_snapshot_at_old_schema(
    redis_client: Redis, prefix: str, make_record: MakeRecord
) -> None:
    migrations = MigrationRegistry(current={"stone_age": 2})
    store = GameStore(redis_client, prefix=prefix, migrations=migrations)
    with pytest.raises(ValueError, match="schema 1"):
        await store.create(make_record(schema_version=1))


async def test_snapshot_newer_than_code_is_refused(
    redis_client: Redis, prefix: str, make_record: MakeRecord
) -> None:
    await GameStore(redis_client, prefix=prefix).create(make_record(schema_version=4))
    migrations = MigrationRegistry(current={"stone_age": 3})
    store = GameStore(redis_client, prefix=prefix, migrations=migrations)
    with pytest.raises(MigrationError, match="schema 4"):
        await store.get("a7k2")


async def test_corrupt_snapshot_is_reported(
    store: GameStore, redis_client: Redis, make_record: MakeRecord
) -> None:
    await store.create(make_record())
    await redis_client.hset(store.keys.table("a7k2"), "record", "{not json")
    with pytest.raises(CorruptRecord):
        await store.get("a7k2")


async def test_loose_snapshot_reads_as_before(
    store: GameStore, redis_client: Redis, make_record: MakeRecord
) -> None:
    # A snapshot written by hand with loose types (a string schema, a float version):
    # the quick strict reading refuses it and the lenient one decides, as it always did.
    created = await store.create(make_record(state={"round": 1}))
    loose = created.model_dump(mode="json") | {"version": 0.0}
    await redis_client.hset(store.keys.table("a7k2"), "record", json.dumps(loose))
    assert await store.get("a7k2") == created
    await redis_client.hset(store.keys.table("a7k2"), "record",
                            json.dumps(loose | {"schema_version": "1"}))
    with pytest.raises(MigrationError):
        await store.get("a7k2")


async def test_snapshot_at_old_schema_is_still_migrated(
    redis_client: Redis, prefix: str, make_record: MakeRecord
) -> None:
    # Well-formed but one schema behind: the upgrade runs (no quick reading skips it).
    await GameStore(redis_client, prefix=prefix).create(make_record(state={"n": 1}))
    migrations = MigrationRegistry()
    migrations[("stone_age", 1)] = lambda data: data | {"state": {"n": data["state"]["n"] + 1}}
    store = GameStore(redis_client, prefix=prefix, migrations=migrations)
    loaded = await store.get("a7k2")
    assert (loaded.schema_version, loaded.state) == (2, {"n": 2})


async def test_reads_after_own_writes_match_a_fresh_reader(
    store: GameStore, redis_client: Redis, prefix: str, make_record: MakeRecord
) -> None:
    # This store remembers what it wrote; another store parses the text from scratch.
    # Both read the same, and a change by anyone else is seen at once.
    created = await store.create(make_record())
    running = created.model_copy(update={"state": {"round": 2, "food": [1.5, 2]},
                                         "meta": {"names": {"tg:u1": "Ann"}},
                                         "status": TableStatus.RUNNING})
    committed = await store.commit("a7k2", 0, running, Action(key="start", user_id="tg:u1"))
    fresh = GameStore(redis_client, prefix=prefix)
    assert await store.get("a7k2") == committed == await fresh.get("a7k2")
    mine, theirs = await store.get("a7k2"), await fresh.get("a7k2")
    assert mine.model_dump_json() == theirs.model_dump_json()
    elsewhere = committed.model_copy(update={"state": {"round": 3}, "version": 1})
    await redis_client.hset(store.keys.table("a7k2"), "record", elsewhere.model_dump_json())
    assert (await store.get("a7k2")).state == {"round": 3}
    await fresh.commit("a7k2", 1, elsewhere, Action(key="move", user_id="tg:u2"))
    assert (await store.get("a7k2")).version == 2


async def test_a_migration_added_later_applies_to_a_table_read_before(
    redis_client: Redis, prefix: str, make_record: MakeRecord
) -> None:
    migrations = MigrationRegistry()
    store = GameStore(redis_client, prefix=prefix, migrations=migrations)
    await store.create(make_record(state={"n": 1}))
    assert (await store.get("a7k2")).schema_version == 1
    migrations[("stone_age", 1)] = lambda data: data | {"state": {"n": 2}}
    loaded = await store.get("a7k2")
    assert (loaded.schema_version, loaded.state) == (2, {"n": 2})


async def test_settled_clears_the_mark_and_changes_jobs_in_one_write(
    store: GameStore, jobs: DueJobs, make_record: MakeRecord
) -> None:
    store.owed_grace = timedelta(0)  # what is owed is overdue at once: claim_owed sees it
    created = await store.create(make_record())
    v1 = await store.commit("a7k2", created.version, created, Action(key="x", user_id="tg:u1"))
    await jobs.schedule("rem.a7k2.0", T0, {"opened": 0})
    due = T0 + timedelta(hours=6)
    change = JobChanges(schedule=(("rem.a7k2.1", due, {"opened": v1.version}),),
                        cancel=("rem.a7k2.0",))
    assert await store.settled("a7k2", v1.version, change)
    assert await jobs.payloads(["rem.a7k2.0", "rem.a7k2.1"]) == {
        "rem.a7k2.0": None, "rem.a7k2.1": {"opened": v1.version}}
    assert await jobs.next_due_at() == due
    assert await store.claim_owed() == []


async def test_settled_of_an_older_version_changes_its_jobs_but_keeps_the_newer_mark(
    store: GameStore, jobs: DueJobs, make_record: MakeRecord
) -> None:
    # A newer commit only changes the jobs of the seats it changed: the older version's
    # own changes must still be made, while its newer follow-ups stay owed.
    store.owed_grace = timedelta(0)
    created = await store.create(make_record())
    v1 = await store.commit("a7k2", created.version, created, Action(key="x", user_id="tg:u1"))
    v2 = await store.commit("a7k2", v1.version, v1, Action(key="y", user_id="tg:u2"))
    change = JobChanges(schedule=(("rem.a7k2.1", T0, {"opened": v1.version}),))
    assert not await store.settled("a7k2", v1.version, change)
    assert await jobs.payloads(["rem.a7k2.1"]) == {"rem.a7k2.1": {"opened": v1.version}}
    assert await store.claim_owed() == [OwedTable("a7k2", v2.version, False)]


async def test_settled_refuses_a_bad_job_id_before_writing(
    store: GameStore, make_record: MakeRecord
) -> None:
    store.owed_grace = timedelta(0)
    created = await store.create(make_record())
    v1 = await store.commit("a7k2", created.version, created, Action(key="x", user_id="tg:u1"))
    with pytest.raises(ValueError, match="bad job id"):
        await store.settled("a7k2", v1.version,
                            JobChanges(schedule=(("has space", T0, {}),)))
    assert await store.claim_owed() == [OwedTable("a7k2", v1.version, False)]
