"""Redis goes away mid-game: players hear "storage unavailable", nothing is applied, and
play resumes where it stopped once Redis is back (same data dir)."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from redis.asyncio import Redis

from adapters.store.client import connect
from adapters.store.embedded import EmbeddedRedis
from adapters.store.testing import unique_prefix
from bot.app import Campfire
from bot.storage import StoreUnavailable, TableRecord
from bot.ui.message import Outgoing
from tests.bot.helpers import (
    ANNA,
    BORIS,
    GROUP,
    GROUP2,
    Clock,
    Harness,
    build_app,
    dm,
    plain,
    storage_on,
)


def unavailable(h: Harness, answer: str | None) -> bool:
    return plain(answer) == h.t("err.store_unavailable")


async def test_outage_answers_clearly_applies_nothing_and_play_resumes(
    lone_redis: EmbeddedRedis, lone_client: Redis, clock: Clock
) -> None:
    prefix = unique_prefix()
    h = Harness(build_app(storage_on(lone_client, prefix), clock), clock)
    table_id = await h.started(ANNA, BORIS, options=("en", "remind=1h"))
    record = await h.get(table_id)
    player = h.user_at(record, 0)
    token = h.move_tokens(h.dm_prompt(record, 0))[0]
    before = await h.snapshot(table_id)

    lone_redis.stop()
    assert not lone_redis.running
    # The timeout is a safety net only: the player must hear about it, not wait forever.
    reply = await asyncio.wait_for(h.press(player, token), 30.0)
    assert reply.alert and unavailable(h, reply.answer) and reply.out == []
    for text in (f"/move {table_id} 1", "/status", "/new stone_age", "/join", "/games"):
        reply = await h.text(player, text)
        assert unavailable(h, reply.answer), text
        assert reply.alert and reply.out == []
    clock.advance(2 * 3600)
    assert await h.app.on_due() == []  # due jobs wait for the store to come back

    lone_redis.start()  # the same data dir; the same client reconnects by itself
    await h.assert_unchanged(table_id, before)
    # The reminder held back during the outage goes out now, once.
    out = await h.due()
    assert [(o.to.user_id, plain(o.message.text).startswith("⏰ Reminder"))  # type: ignore[union-attr]
            for o in out] == [(player.id, True)]
    assert await h.due() == []
    reply = await h.press(player, token)
    assert not reply.alert, plain(reply.answer)
    after = await h.get(table_id)
    assert after.version == before.version + 1
    log = await h.store.action_log(table_id)
    assert log[:-1] == before.log and log[-1].user_id == player.id
    # And the game goes on.
    current = (await h.prompts(table_id))[0]
    user = h.user_at(after, current.seat)
    token = h.move_tokens(h.dm_prompt(after, current.seat), current)[0]
    assert not (await h.press(user, token)).alert
    assert (await h.get(table_id)).version == before.version + 2


async def test_a_new_app_over_the_restarted_data_dir_continues(
    lone_redis: EmbeddedRedis, lone_client: Redis, clock: Clock, embedded_dir: Path
) -> None:
    prefix = unique_prefix()
    h = Harness(build_app(storage_on(lone_client, prefix), clock), clock)
    table_id = await h.started(ANNA, BORIS)
    record = await h.get(table_id)
    player = h.user_at(record, 0)
    token = h.move_tokens(h.dm_prompt(record, 0))[0]
    before = await h.snapshot(table_id)

    lone_redis.stop()
    reply = await h.press(player, token, dm(player))
    assert reply.alert and unavailable(h, reply.answer)
    lone_redis = EmbeddedRedis(embedded_dir)  # a whole new process over the same data
    lone_redis.start()
    fresh = connect(lone_redis.url)
    try:
        app: Campfire = build_app(storage_on(fresh, prefix), clock, worker_id="w-restarted")
        h2 = Harness(app, clock)
        await h2.assert_unchanged(table_id, before)
        reply = await h2.press(player, token)  # the old button is still good
        assert not reply.alert, plain(reply.answer)
        assert (await h2.get(table_id)).version == before.version + 1
        reply = await h2.text(BORIS, "/status", GROUP)
        assert reply.out
    finally:
        await fresh.aclose()
        lone_redis.stop()


async def test_a_press_saved_before_the_store_failed_says_it_was_saved(
    h: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The move commits, then the storage fails while its follow-ups are worked out
    (the players' languages): the player is told the move is saved (not "nothing was
    changed"), and it is."""
    table_id = await h.started(ANNA, BORIS)
    record = await h.get(table_id)
    prompt = (await h.prompts(table_id))[0]
    token = h.move_tokens(h.dm_prompt(record, prompt.seat), prompt)[0]

    async def down(*_: object, **__: object) -> None:
        raise StoreUnavailable("read preference: storage is unavailable")

    commit = h.sv.store.commit

    async def commit_then_fail(*args: Any, **kwargs: Any) -> TableRecord:
        committed = await commit(*args, **kwargs)
        monkeypatch.setattr(h.sv.prefs, "get_pref", down)
        return committed

    monkeypatch.setattr(h.sv.store, "commit", commit_then_fail)
    reply = await h.press(h.user_at(record, prompt.seat), token)
    assert reply.alert and plain(reply.answer) == h.t("press.saved_not_shown")
    assert (await h.get(table_id)).version == record.version + 1


async def test_due_jobs_hand_over_each_jobs_messages_before_the_store_fails(
    h: Harness, clock: Clock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two reminders are due; the store fails while the second is prepared. The first
    reminder's message was handed over (its job is done); the second comes later."""
    first = await h.started(ANNA, BORIS, options=("en", "remind=1h"))
    second = await h.started(ANNA, BORIS, options=("en", "remind=1h"), chat=GROUP2)
    clock.advance(3600 + 1)
    real_get = h.store.get
    failed: list[str] = []

    async def flaky(table_id: str) -> object:
        if table_id == second and not failed:
            failed.append(table_id)
            raise StoreUnavailable("load table: storage is unavailable")
        return await real_get(table_id)

    monkeypatch.setattr(h.store, "get", flaky)
    emitted: list[Outgoing] = []

    async def emit(items: list[Outgoing]) -> None:
        emitted.extend(items)

    assert await h.app.on_due(emit=emit) == []
    assert failed == [second]
    assert [f"#{first}" in plain(o.message.text) for o in emitted] == [True]
    clock.advance(3600)  # the second job's claim runs out; it runs again
    await h.app.on_due(emit=emit)
    assert any(f"#{second}" in plain(o.message.text) for o in emitted)
