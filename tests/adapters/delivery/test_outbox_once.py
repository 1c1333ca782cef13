"""The outbox's idempotency on a real Redis: keyed items queued twice, slot items of a
version already shown, bodies taken again after no ack, and updates marked done in the
step that queues their messages.

Time is a fake ``now`` handed to ``take``; nothing sleeps.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta

import pytest
from redis.asyncio import Redis

from adapters.delivery.coalesce import item_key
from adapters.delivery.codec import content_digest
from adapters.delivery.outbox import Finish, Outbox
from adapters.delivery.updates import ClaimState, UpdateLedger
from adapters.store.due_jobs import DueJobs
from adapters.store.game_store import GameStore
from bot.storage import Action, JobChanges, Owed, OwedTable, TableRecord, UpdateTaken
from bot.ui.message import Button, Message, Outgoing, ToChat, ToUser, block

PLATFORM = "tst"  # a platform of the tests' own: nothing here is Telegram's
T0 = 1_700_000_000.0
GROUP, USER = "tg:-1001", "tg:42"


@pytest.fixture
def outbox(redis_client: Redis, prefix: str) -> Outbox:
    """An outbox without rate limits to speak of."""
    return Outbox(redis_client, prefix, platform=PLATFORM)


@pytest.fixture
def ledger(redis_client: Redis, prefix: str) -> UpdateLedger:
    """Claims and done-flags under the same prefix."""
    return UpdateLedger(redis_client, prefix, platform=PLATFORM)


def turn(text: str, version: int, *, renew: bool = True) -> Outgoing:
    """A player's private prompt (slot ``dm:t1:0``) of a table version."""
    message = Message(text, block([Button("1", f"m.t1.{version}.0")]),
                      slot="dm:t1:0", renew=renew)
    return Outgoing(ToUser(USER), message, "t1", version=version)


def table(text: str, version: int) -> Outgoing:
    """The table's own message (slot ``table:t1``) of a version."""
    return Outgoing(ToChat(GROUP), Message(text, slot="table:t1"), "t1",
                    version=version)


def note(text: str, version: int = 7) -> Outgoing:
    """A plain message of a table version ("you are next")."""
    return Outgoing(ToUser(USER), Message(text), "t1", version=version)


async def deliver_all(outbox: Outbox, now: float = T0) -> list[str]:
    """Take and acknowledge everything that can go; the texts in order."""
    sent: list[str] = []
    while batch := await outbox.take_many(now, 16):
        sent += [t.item.message.text.plain() for t in batch]
        await outbox.done_many([(t, None) for t in batch])
    return sent


# ----------------------------------------------------------------- keys


def test_keys_name_recipient_table_version_and_kind() -> None:
    assert item_key(turn("go", 5)) == f"{USER}|t1|5|slot:dm:t1:0"
    plain = item_key(note("you are next"))
    assert plain.startswith(f"{USER}|t1|7|msg:")
    assert plain == item_key(note("you are next")) != item_key(note("something else"))
    assert item_key(Outgoing(ToChat(GROUP), Message("an answer"))) == ""
    assert content_digest(turn("go", 5).message) != content_digest(turn("go", 6).message)


async def test_a_keyed_message_queued_twice_goes_out_once(outbox: Outbox) -> None:
    """Twice while waiting, and again after it was delivered: one message."""
    await outbox.put_many([note("you are next"), note("you are next")])
    assert await outbox.pending() == 1
    assert await deliver_all(outbox) == ["you are next"]
    await outbox.put(note("you are next"))
    assert await outbox.pending() == 0
    # Another version, or another text, is another message.
    await outbox.put_many([note("you are next", version=8), note("and now this")])
    assert await deliver_all(outbox) == ["you are next", "and now this"]


async def test_a_keyed_message_queued_while_in_flight_is_not_sent_again(
    outbox: Outbox
) -> None:
    await outbox.put(note("you are next"))
    taken = await outbox.take(T0)
    assert taken is not None
    await outbox.put(note("you are next"))
    await outbox.done(taken)
    assert await outbox.pending() == 0 and await deliver_all(outbox) == []


async def test_messages_without_a_version_are_never_merged(outbox: Outbox) -> None:
    answer = Outgoing(ToChat(GROUP), Message("no tables here"))
    await outbox.put_many([answer, answer])
    assert await deliver_all(outbox) == ["no tables here", "no tables here"]


# ----------------------------------------------------------------- slots


async def test_what_a_repair_re_derives_for_a_slot_is_not_shown_twice(outbox: Outbox) -> None:
    """The turn (a fresh message) and the table at version 5 went out; the same again —
    the core repairing the table after a crash — is dropped, and so is an edit of
    version 5. A newer version goes."""
    await outbox.put_many([table("table v5", 5), turn("your turn", 5)])
    assert await deliver_all(outbox) == ["table v5", "your turn"]
    await outbox.put_many([table("table v5", 5), turn("your turn", 5),
                           turn("your turn, continued", 5, renew=False)])
    assert await outbox.pending() == 0
    await outbox.put_many([table("table v6", 6), turn("your turn again", 6)])
    assert await deliver_all(outbox) == ["table v6", "your turn again"]


async def test_a_reminder_of_the_version_shown_is_a_new_message_each_time(
    outbox: Outbox
) -> None:
    """A different fresh message of the version the slot shows (a reminder) goes, and
    goes again (the second reminder reads like the first)."""
    await outbox.put(turn("your turn", 5))
    assert await deliver_all(outbox) == ["your turn"]
    for _ in range(2):
        await outbox.put(turn("reminder", 5))
        batch = await outbox.take_many(T0, 16)
        assert [(t.item.message.text.plain(), t.item.message.renew) for t in batch] == [
            ("reminder", True)]
        await outbox.done_many([(t, None) for t in batch])


async def test_a_fresh_message_someone_asked_for_goes_even_if_it_repeats(
    outbox: Outbox, ledger: UpdateLedger
) -> None:
    """/status typed twice: each answer is a new message, though they read alike."""
    status = Outgoing(ToChat(GROUP), Message("table v5", slot="table:t1",
                                             renew=True), "t1", version=5)
    for update_id in (1, 2):
        _, _, claim = await ledger.claim(update_id, "w1:a")
        assert await outbox.finish_update(claim, [status])
        assert await deliver_all(outbox) == ["table v5"]
    # The same from a repair is a repeat.
    await outbox.put(status)
    assert await outbox.pending() == 0


async def test_a_repeat_queued_while_the_slot_is_in_flight_is_dropped_at_the_ack(
    outbox: Outbox
) -> None:
    await outbox.put(turn("your turn", 5))
    taken = await outbox.take(T0)
    assert taken is not None
    await outbox.put(turn("your turn", 5))  # the repair, while the first is on its way
    await outbox.done(taken)
    assert await outbox.pending() == 0 and await deliver_all(outbox) == []


async def test_a_newer_version_queued_while_in_flight_still_goes(outbox: Outbox) -> None:
    await outbox.put(turn("your turn", 5))
    taken = await outbox.take(T0)
    assert taken is not None
    await outbox.put(turn("done, waiting", 6, renew=False))
    await outbox.done(taken)
    again = await outbox.take(T0)
    assert again is not None and again.item.message.text.plain() == "done, waiting"
    assert not again.retried  # a new body: nobody tried to send it yet


# ----------------------------------------------------------------- attempts


async def test_a_body_taken_again_without_an_ack_is_a_retry(outbox: Outbox) -> None:
    """The sender died between Telegram's answer and the ack: when the lease runs out
    the item comes back marked as retried (it may have arrived already)."""
    await outbox.put(turn("your turn", 5))
    first = await outbox.take(T0, lease_s=1.0)
    assert first is not None and not first.retried
    again = await outbox.take(T0 + 2.0)
    assert again is not None and again.id == first.id and again.retried
    # Versions travel with the item: the ack records what the slot now shows.
    assert again.item.version == 5
    await outbox.done(again)
    await outbox.put(turn("your turn", 5))
    assert await outbox.pending() == 0


async def test_telegram_asking_to_wait_is_not_an_attempt(outbox: Outbox) -> None:
    """A 429 means Telegram did nothing: the next try is not a retry."""
    await outbox.put(turn("your turn", 5))
    first = await outbox.take(T0)
    assert first is not None
    await outbox.delay(first, T0 + 3, T0, unsent=True)
    again = await outbox.take(T0 + 3)
    assert again is not None and not again.retried
    await outbox.delay(again, T0 + 9, T0 + 3, failed=True, hold=True)  # a lost answer
    third = await outbox.take(T0 + 9)
    assert third is not None and third.retried


# ----------------------------------------------------------------- updates


async def test_an_update_is_done_only_with_its_messages(
    outbox: Outbox, ledger: UpdateLedger
) -> None:
    state, _, claim = await ledger.claim(70, "w1:a")
    assert state is ClaimState.MINE
    assert not await ledger.done(70)
    again, left, _ = await ledger.claim(70, "w2:b")
    assert again is ClaimState.HELD and 0 < left <= ledger.claim_ttl.total_seconds()
    assert await outbox.finish_update(claim, [note("you are next")])
    assert await ledger.done(70) and await ledger.held(70) is None
    assert await outbox.pending() == 1
    assert (await ledger.claim(70, "w2:b"))[0] is ClaimState.DONE


async def test_a_late_worker_queues_nothing_for_an_update_done_elsewhere(
    outbox: Outbox, ledger: UpdateLedger
) -> None:
    """Two workers ended up handling one update (the first stalled past its claim):
    the first to queue wins; the other's messages are dropped."""
    _, _, slow = await ledger.claim(71, "w1:a")
    await ledger.release(slow)  # as if its claim had run out
    _, _, fast = await ledger.claim(71, "w2:b")
    assert await outbox.finish_update(fast, [note("from the fast one")])
    assert not await outbox.finish_update(slow, [note("from the slow one")])
    assert await deliver_all(outbox) == ["from the fast one"]


async def test_a_release_gives_back_only_ones_own_claim(ledger: UpdateLedger) -> None:
    _, _, mine = await ledger.claim(72, "w1:a")
    await ledger.release(mine)
    _, _, theirs = await ledger.claim(72, "w2:b")
    await ledger.release(mine)  # too late: it is theirs now
    assert await ledger.held(72) == "w2:b"
    await ledger.release(theirs)
    assert await ledger.held(72) is None


async def test_an_update_marked_by_an_earlier_version_counts_as_done(
    redis_client: Redis, prefix: str, ledger: UpdateLedger
) -> None:
    """Before claims the flag was a once-flag raised at the start: a rolling upgrade
    does not handle those updates again."""
    await redis_client.set(prefix + f"once:{PLATFORM}:update:73", "1")
    assert (await ledger.claim(73, "w1:a"))[0] is ClaimState.DONE


async def test_a_core_key_makes_a_changed_text_the_same_message(outbox: Outbox) -> None:
    """A turn's prompt re-derived after a crash reads differently (the clock ran on),
    but the core's key says it is the prompt already delivered: it is not sent again.
    Without the key, the new text would go out as a second message."""
    first = turn("your turn ⏳ 5 h", 5)
    await outbox.put(replace(first, key="prompt:0:5"))
    assert await deliver_all(outbox) == ["your turn ⏳ 5 h"]
    await outbox.put(replace(turn("your turn ⏳ 4 h", 5), key="prompt:0:5"))
    assert await deliver_all(outbox) == []
    await outbox.put(turn("your turn ⏳ 3 h", 5))
    assert await deliver_all(outbox) == ["your turn ⏳ 3 h"]


async def test_the_step_that_queues_an_updates_messages_settles_its_table(
    outbox: Outbox, ledger: UpdateLedger, redis_client: Redis, prefix: str
) -> None:
    """Queued, done and settled together (the table's mark cleared, its job changes
    made); a late worker's copy of the update settles nothing and schedules nothing."""
    store = GameStore(redis_client, prefix=prefix, owed_grace=timedelta(0))
    jobs = DueJobs(redis_client, prefix=prefix)
    created = await store.create(TableRecord(
        table_id="t1", game="stone_age", chat_id=GROUP, creator_id=USER, seats=(USER,)))
    moved = await store.commit("t1", created.version, created, Action(key="k", user_id=USER))
    due = datetime.fromtimestamp(T0, UTC)
    owed = Owed("t1", moved.version, JobChanges(schedule=(("rem.t1.0", due, {"n": 1}),)))
    _, _, slow = await ledger.claim(73, "w1:a")
    await ledger.release(slow)
    _, _, fast = await ledger.claim(73, "w2:b")
    assert await outbox.finish_update(fast, [note("moved")], store.settle_part(owed))
    assert await ledger.done(73)
    assert await store.claim_owed() == []
    assert await jobs.payloads(["rem.t1.0"]) == {"rem.t1.0": {"n": 1}}
    # The late copy's table is owed again (a newer move); its queuing must not clear it.
    again = await store.commit("t1", moved.version, moved, Action(key="k2", user_id=USER))
    late = Owed("t1", again.version, JobChanges(cancel=("rem.t1.0",)))
    assert not await outbox.finish_update(slow, [note("late")], store.settle_part(late))
    assert await store.claim_owed() == [OwedTable("t1", again.version, False)]
    assert await jobs.payloads(["rem.t1.0"]) == {"rem.t1.0": {"n": 1}}
    assert await deliver_all(outbox) == ["moved"]


# ----------------------------------------------------- updates claimed by their first write


async def test_an_unclaimed_update_is_claimed_by_the_step_that_queues_its_answer(
    outbox: Outbox, ledger: UpdateLedger
) -> None:
    """A refused move press answers without a commit: the queuing takes its claim,
    and finds the update another worker's (HELD) or done (DONE) without queuing."""
    free = ledger.unclaimed(80, "w1:a")
    assert not free.taken
    assert await outbox.finish_update(free, [note("refused")]) is Finish.QUEUED
    assert await ledger.done(80) and await ledger.held(80) is None
    assert await outbox.finish_update(ledger.unclaimed(80, "w2:b"), [note("again")]) \
        is Finish.DONE
    _, _, theirs = await ledger.claim(81, "w2:b")
    assert await outbox.finish_update(ledger.unclaimed(81, "w1:a"), [note("mine?")]) \
        is Finish.HELD
    assert not await ledger.done(81) and await ledger.held(81) == "w2:b"
    assert await outbox.finish_update(theirs, [note("theirs")])
    assert await deliver_all(outbox) == ["refused", "theirs"]


async def test_a_moves_commit_claims_its_update_in_the_same_step(
    outbox: Outbox, ledger: UpdateLedger, redis_client: Redis, prefix: str
) -> None:
    """With a guard, the commit takes the update's claim; it writes nothing when the
    update is another worker's or done, and the claim it took is finished as usual."""
    store = GameStore(redis_client, prefix=prefix)
    created = await store.create(TableRecord(
        table_id="t1", game="stone_age", chat_id=GROUP, creator_id=USER, seats=(USER,)))
    _, _, theirs = await ledger.claim(82, "w2:b")
    with pytest.raises(UpdateTaken) as held:
        await store.commit("t1", created.version, created, Action(key="k", user_id=USER),
                           guard=ledger.unclaimed(82, "w1:a").guard)
    assert not held.value.done and 0 < held.value.left_s <= ledger.claim_ttl.total_seconds()
    assert (await store.get("t1")).version == created.version
    assert await store.action_log("t1") == []
    await outbox.finish_update(theirs, [])
    with pytest.raises(UpdateTaken) as done:
        await store.commit("t1", created.version, created, Action(key="k", user_id=USER),
                           guard=ledger.unclaimed(82, "w1:a").guard)
    assert done.value.done
    mine = ledger.unclaimed(83, "w1:a")
    moved = await store.commit("t1", created.version, created,
                               Action(key="k", user_id=USER), guard=mine.guard)
    assert await ledger.held(83) == "w1:a"
    # A second commit of the same handling (a retry after a lost race) is still its own.
    again = await store.commit("t1", moved.version, moved, Action(key="k2", user_id=USER),
                               guard=mine.guard)
    assert again.version == created.version + 2
    assert await outbox.finish_update(mine, [note("moved")]) is Finish.QUEUED
    assert await ledger.done(83) and await ledger.held(83) is None
