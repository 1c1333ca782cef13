"""GameStore: snapshots, action logs and indexes of tables in Redis, with optimistic writes."""

from __future__ import annotations

import json
import uuid
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

from pydantic import ValidationError
from redis.asyncio import Redis

from adapters.store import scripts
from adapters.store.client import unavailable_on_outage
from adapters.store.due_jobs import for_script
from adapters.store.ids import encode_table_id
from adapters.store.keys import DEFAULT_PREFIX, Keys
from adapters.store.migrations import MigrationRegistry
from bot.storage.errors import (
    CorruptRecord,
    NotArchivable,
    StaleVersion,
    TableExists,
    TableNotFound,
    UpdateTaken,
)
from bot.storage.ports import ScriptPart
from bot.storage.records import (
    NO_JOBS,
    Action,
    JobChanges,
    LogEntry,
    Owed,
    OwedTable,
    TableRecord,
    utc_now,
)
from bot.storage.results import KeptResult

DEFAULT_ARCHIVE_RETENTION = timedelta(days=90)
# How long the worker that wrote a table has to deliver its follow-ups and say so before
# another worker repairs them; and how long such a repair holds its claim.
DEFAULT_OWED_GRACE = timedelta(seconds=60)
DEFAULT_OWED_LEASE = timedelta(seconds=60)
# Tables whose last snapshot a store remembers (see ``GameStore.get``): the ones in play.
KNOWN_TABLES = 2048


class GameStore:
    """All persistence of tables, on one ``redis.asyncio`` client.

    Every write is a single Lua script, so it is atomic (snapshot, log and indexes
    change together or not at all) and optimistic (``commit`` applies only on the
    version the caller read). Connection trouble surfaces as ``StoreUnavailable``
    and means nothing was applied.
    """

    def __init__(
        self,
        redis: Redis,
        *,
        prefix: str = DEFAULT_PREFIX,
        migrations: MigrationRegistry | None = None,
        archive_retention: timedelta = DEFAULT_ARCHIVE_RETENTION,
        clock: Callable[[], datetime] = utc_now,
        owed_grace: timedelta = DEFAULT_OWED_GRACE,
        owed_lease: timedelta = DEFAULT_OWED_LEASE,
    ) -> None:
        """Wrap ``redis`` (created with ``decode_responses=True``) under key ``prefix``."""
        if archive_retention.total_seconds() < 1:
            raise ValueError("archive retention must be at least one second")
        self._redis = redis
        self.keys = Keys(prefix)
        self.migrations = migrations or MigrationRegistry()
        self.archive_retention = archive_retention
        self._clock = clock
        self._create_script = redis.register_script(scripts.CREATE)
        self._commit_script = redis.register_script(scripts.COMMIT)
        self._archive_script = redis.register_script(scripts.ARCHIVE)
        self._settled_script = redis.register_script(scripts.SETTLED)
        self._claim_owed_script = redis.register_script(scripts.CLAIM_OWED)
        self.owed_grace = owed_grace
        self.owed_lease = owed_lease
        # Per table, the last snapshot this store wrote or read, as text and as record.
        # A read that finds the very same text returns the same record instead of
        # parsing it again: the press after a move reads what that move wrote.
        self._known: dict[str, tuple[str, TableRecord]] = {}

    async def ping(self) -> None:
        """Raise ``StoreUnavailable`` unless Redis answers (for health checks)."""
        with unavailable_on_outage("ping"):
            await self._redis.ping()

    async def new_table_id(self) -> str:
        """Allocate a fresh short table id; unique across processes, never reused."""
        with unavailable_on_outage("allocate table id"):
            n = await self._redis.incr(self.keys.table_seq())
        return encode_table_id(int(n) - 1)

    async def create(self, record: TableRecord, *, create_id: str | None = None) -> TableRecord:
        """Store a new table at version 0 and index it by chat and users.

        The store stamps ``version`` (0) and both timestamps and returns the stored
        record. ``create_id`` makes a retried create (after a lost reply) succeed
        instead of raising ``TableExists``. Raises ``TableExists`` when the id is taken.
        """
        self._check_schema(record)
        now = self._clock()
        stored = record.model_copy(update={"version": 0, "created_at": now, "updated_at": now})
        users = stored.user_ids()
        with unavailable_on_outage("create table"):
            outcome = await self._create_script(
                keys=[
                    self.keys.table(stored.table_id),
                    self.keys.table(stored.table_id, archived=True),
                    self.keys.chat_index(stored.chat_id),
                    self.keys.owed(),
                ],
                args=[
                    stored.table_id,
                    stored.model_dump_json(),
                    stored.status.value,
                    stored.chat_id,
                    json.dumps(users),
                    repr(now.timestamp()),
                    self.keys.prefix,
                    create_id or uuid.uuid4().hex,
                    self._owed_due(),
                ],
            )
        if outcome == "exists":
            raise TableExists(stored.table_id)
        if outcome == "duplicate":
            return await self.get(stored.table_id)
        return stored

    async def get(self, table_id: str) -> TableRecord:
        """Load an active table, upgraded by the migration hook to the current schema.

        The upgrade is not written back: reads stay side-effect free, and the next
        commit persists the upgraded snapshot anyway.
        """
        with unavailable_on_outage("load table"):
            raw = await self._redis.hget(self.keys.table(table_id), "record")
        if raw is None:
            raise TableNotFound(table_id)
        known = self._known.get(table_id)
        if known is not None and known[0] == raw and self._current(known[1]):
            return known[1]  # still what a parse would give
        record = self._parse(raw, table_id)
        if isinstance(raw, str):
            self._remember(table_id, raw, record)
        return record

    def last_seen(self, table_id: str) -> TableRecord | None:
        """The record this store last wrote or read for ``table_id`` (None: none, or one
        at an older schema). No round trip; possibly out of date (another worker's
        write), which the commit's version check catches."""
        known = self._known.get(table_id)
        if known is None or not self._current(known[1]):
            return None
        return known[1]

    def _remember(self, table_id: str, raw: str, record: TableRecord) -> None:
        if len(self._known) >= KNOWN_TABLES and table_id not in self._known:
            self._known.clear()
        self._known[table_id] = (raw, record)

    async def commit(
        self,
        table_id: str,
        expected_version: int,
        record: TableRecord,
        action: Action,
        *,
        commit_id: str | None = None,
        guard: ScriptPart | None = None,
    ) -> TableRecord:
        """Replace the snapshot and append ``action`` to the log, if still at ``expected_version``.

        Snapshot (at ``expected_version + 1``), log entry and index changes (seats that
        joined or left) are written by one script: all or nothing. Raises
        ``StaleVersion`` when another write got there first (nothing is written),
        ``TableNotFound`` when the table is gone. ``commit_id`` (random by default)
        lets a retry of a commit whose reply was lost return the stored result
        instead of failing as stale; pass your own to make your own retries safe.

        ``guard``, if given, is a platform update's claim (``UpdateClaim.guard``): the
        commit also claims that update, and writes nothing (``UpdateTaken``) if it is
        another worker's or was handled.
        """
        if record.table_id != table_id:
            raise ValueError(f"record is for table {record.table_id!r}, not {table_id!r}")
        self._check_schema(record)
        new_version = expected_version + 1
        stored = record.model_copy(update={"version": new_version, "updated_at": self._clock()})
        commit_id = commit_id or uuid.uuid4().hex
        entry = LogEntry(version=new_version, commit_id=commit_id, **action.model_dump())
        snapshot = stored.model_dump_json()
        keys = [self.keys.table(table_id), self.keys.log(table_id), self.keys.owed()]
        args: list[str | int] = [
            str(expected_version), snapshot, stored.status.value, stored.chat_id,
            json.dumps(stored.user_ids()), entry.model_dump_json(), commit_id,
            self.keys.prefix, table_id, self._owed_due(),
        ]
        if guard is not None:
            guard_keys, guard_args = guard
            keys += guard_keys
            args += guard_args
        with unavailable_on_outage("commit"):
            reply = await self._commit_script(keys=keys, args=args)
        outcome = reply[0]
        if outcome == "taken":
            raise UpdateTaken(reply[1] == "done", int(reply[2]) / 1000)
        if outcome == "missing":
            raise TableNotFound(table_id)
        if outcome == "stale":
            raise StaleVersion(table_id, expected_version, int(reply[1]))
        if outcome == "duplicate":
            return self._parse(reply[1], table_id)
        self._remember(table_id, snapshot, stored)
        return stored

    def _owed_due(self) -> str:
        return repr((self._clock() + self.owed_grace).timestamp())

    async def settled(self, table_id: str, version: int,
                      jobs: JobChanges | None = None) -> bool:
        """The follow-ups of ``version`` were delivered: stop owing them (a newer
        version's stay owed), and make ``jobs`` — the version's reminder and clock
        changes — in the same script. True if nothing is owed any more."""
        keys, args = self.settle_part(Owed(table_id, version, jobs or NO_JOBS))
        with unavailable_on_outage("settle table"):
            done = await self._settled_script(keys=keys, args=args)
        return bool(done)

    def settle_part(self, owed: Owed) -> ScriptPart:
        """The keys and arguments of ``scripts.SETTLE_TABLE`` for ``owed``: what another
        script runs to settle the table in its own step (``Outbox.finish_update``).
        Raises ``ValueError`` for a job id that is not one, before anything is written."""
        job_keys, job_args = for_script(self.keys, owed.jobs.schedule, owed.jobs.cancel)
        keys = [self.keys.table(owed.table_id), self.keys.table(owed.table_id, archived=True),
                self.keys.owed(), *job_keys]
        return keys, [str(owed.version), owed.table_id, *job_args]

    async def claim_owed(self, *, limit: int = 50) -> list[OwedTable]:
        """Tables whose follow-ups are overdue, each leased to the caller for a while."""
        now = self._clock()
        with unavailable_on_outage("claim owed tables"):
            rows = await self._claim_owed_script(
                keys=[self.keys.owed()],
                args=[repr(now.timestamp()), repr((now + self.owed_lease).timestamp()),
                      str(limit), self.keys.prefix],
            )
        return [OwedTable(str(r[0]), int(r[1]), bool(int(r[2]))) for r in rows]

    async def committed(self, table_id: str, commit_id: str, *, recent: int = 50) -> bool:
        """Did the commit ``commit_id`` go through (among the table's last ``recent``)?
        For a writer whose reply was lost in an outage: it asks before it answers."""
        with unavailable_on_outage("look for a commit"):
            async with self._redis.pipeline(transaction=False) as pipe:
                pipe.hget(self.keys.table(table_id), "commit_id")
                pipe.lrange(self.keys.log(table_id), -recent, -1)
                pipe.lrange(self.keys.log(table_id, archived=True), -recent, -1)
                latest, active, archived = await pipe.execute()
        if latest == commit_id:
            return True
        return any(f'"commit_id":"{commit_id}"' in raw for raw in [*active, *archived])

    async def log_entry(self, table_id: str, version: int) -> LogEntry | None:
        """The log entry that produced ``version`` of an active table, if any."""
        if version < 1:
            return None
        with unavailable_on_outage("read log entry"):
            raw = await self._redis.lindex(self.keys.log(table_id), version - 1)
        if raw is None:
            return None
        entry = LogEntry.model_validate_json(raw)
        return entry if entry.version == version else None

    async def action_log(self, table_id: str, *, archived: bool = False) -> list[LogEntry]:
        """Every logged action of a table, oldest first (empty if there are none)."""
        key = self.keys.log(table_id, archived=archived)
        with unavailable_on_outage("read action log"):
            raw_entries = await self._redis.lrange(key, 0, -1)
        try:
            return [LogEntry.model_validate_json(raw) for raw in raw_entries]
        except ValidationError as exc:
            raise CorruptRecord(f"action log of {table_id!r} does not parse") from exc

    async def tables_in_chat(self, chat_id: str) -> list[TableRecord]:
        """Active (not archived) tables of a chat, oldest first."""
        return await self._indexed(self.keys.chat_index(chat_id))

    async def tables_of_user(self, user_id: str) -> list[TableRecord]:
        """Active tables a user created or sits at, oldest first."""
        return await self._indexed(self.keys.user_index(user_id))

    async def archive(self, table_id: str, *, retention: timedelta | None = None,
                      result: KeptResult | None = None) -> None:
        """Move a finished or aborted table and its log to the archive, expiring after retention.

        The table leaves the chat and user indexes, and ``result`` is kept for good, in
        the same atomic step. Archiving an already archived table is a no-op (so a retry
        after a lost reply is safe, and a result is kept once). Raises ``NotArchivable``
        for lobby/running tables, ``TableNotFound`` otherwise.
        """
        ttl = retention or self.archive_retention
        if ttl.total_seconds() < 1:
            raise ValueError("archive retention must be at least one second")
        with unavailable_on_outage("archive table"):
            reply = await self._archive_script(
                keys=[
                    self.keys.table(table_id),
                    self.keys.log(table_id),
                    self.keys.table(table_id, archived=True),
                    self.keys.log(table_id, archived=True),
                ],
                args=[
                    str(int(ttl.total_seconds())),
                    self.keys.prefix,
                    table_id,
                    self._clock().isoformat(),
                    result.model_dump_json() if result else "",
                    *(sorted({s.user_id for s in result.seats if s.ai_level is None})
                      if result else ()),
                ],
            )
        if reply[0] == "missing":
            raise TableNotFound(table_id)
        if reply[0] == "active":
            raise NotArchivable(table_id, reply[1])

    async def get_archived(self, table_id: str) -> TableRecord:
        """Load an archived table (migrated like ``get``); ``TableNotFound`` once expired."""
        with unavailable_on_outage("load archived table"):
            raw = await self._redis.hget(self.keys.table(table_id, archived=True), "record")
        if raw is None:
            raise TableNotFound(table_id)
        return self._parse(raw, table_id)

    async def _indexed(self, index_key: str) -> list[TableRecord]:
        with unavailable_on_outage("list tables"):
            members = await self._redis.zrange(index_key, 0, -1)
            table_ids = [_text(member) for member in members]
            if not table_ids:
                return []
            async with self._redis.pipeline(transaction=False) as pipe:
                for table_id in table_ids:
                    pipe.hget(self.keys.table(table_id), "record")
                raws: list[str | bytes | None] = await pipe.execute()
        # Indexes change in the same scripts as snapshots, so a miss only happens
        # when a table is archived between the two reads above: skip it.
        return [
            self._parse(raw, table_id)
            for table_id, raw in zip(table_ids, raws, strict=True)
            if raw is not None
        ]

    def _current(self, record: TableRecord) -> bool:
        """Whether the record is at the schema the migrations want now (an upgrade
        would hand it back unchanged)."""
        current = self.migrations.current_schema(record.game)
        return current is None or current == record.schema_version

    def _parse(self, raw: str | bytes, table_id: str) -> TableRecord:
        # The common case first: a well-formed snapshot at the current schema, which
        # the upgrade would hand back unchanged. Parsing the JSON straight into the
        # model skips building Python dicts that are then validated again; strict mode
        # accepts only exactly what the lenient path would accept unchanged, so
        # anything else (old schema, odd types, corruption) takes the path below and
        # reads or fails exactly as it always did.
        try:
            record = TableRecord.model_validate_json(raw, strict=True)
        except ValidationError:
            pass
        else:
            if self._current(record):
                return record
        try:
            data: Any = json.loads(raw)
        except json.JSONDecodeError as exc:
            raise CorruptRecord(f"snapshot of {table_id!r} is not JSON") from exc
        if not isinstance(data, dict):
            raise CorruptRecord(f"snapshot of {table_id!r} is not a JSON object")
        upgraded = self.migrations.upgrade(data)
        try:
            return TableRecord.model_validate(upgraded)
        except ValidationError as exc:
            raise CorruptRecord(f"snapshot of {table_id!r} does not parse") from exc

    def _check_schema(self, record: TableRecord) -> None:
        # Writing a snapshot at another schema than the one this code migrates to
        # would make the next load skip (or repeat) migrations.
        current = self.migrations.current_schema(record.game)
        if current is not None and record.schema_version != current:
            raise ValueError(
                f"{record.game} record has schema {record.schema_version}, current is {current}"
            )


def _text(value: object) -> str:
    # The client decodes replies, but redis-py's types still allow bytes.
    if isinstance(value, bytes):
        return value.decode()
    if isinstance(value, str):
        return value
    raise CorruptRecord(f"unexpected reply from Redis: {value!r}")
