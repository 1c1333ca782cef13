"""The Redis outbox on a real Redis: order per chat, one message in flight per chat,
slot coalescing and records, rate limits, blocks, delays and leases.

Time is a fake ``now`` handed to ``take``/``take_many`` (epoch-sized, as in production),
never a wall-clock sleep.
"""

from __future__ import annotations

from dataclasses import replace

import pytest
from redis.asyncio import Redis

from adapters.delivery.outbox import Outbox, Taken
from adapters.delivery.rates import Limits, no_limits
from bot.ui.message import Button, Message, Outgoing, Picture, ToChat, ToUser, block

PLATFORM = "tst"  # a platform of the tests' own: nothing here is Telegram's
T0 = 1_700_000_000.0  # a realistic epoch time: the scripts must keep its precision

A, B, C = "tg:-1001", "tg:-1002", "tg:-1003"


@pytest.fixture
def outbox(redis_client: Redis, prefix: str) -> Outbox:
    """An outbox without rate limits to speak of."""
    return Outbox(redis_client, prefix, platform=PLATFORM)


def msg(chat: str, text: str, *, slot: str | None = None, renew: bool = False) -> Outgoing:
    """A plain message (or a slot update) to a group chat."""
    return Outgoing(ToChat(chat), Message(text, slot=slot, renew=renew))


def texts(batch: list[Taken]) -> list[str]:
    """The texts of a batch, in the order taken."""
    return [t.item.message.text.plain() for t in batch]


async def drain(outbox: Outbox, now: float, most: int = 16) -> list[str]:
    """Take and finish everything that can go at ``now``; the texts in delivery order."""
    sent: list[str] = []
    while batch := await outbox.take_many(now, most):
        sent += texts(batch)
        await outbox.done_many([(t, None) for t in batch])
    return sent


# ----------------------------------------------------------------- queueing and order


async def test_put_many_queues_every_item_in_order(outbox: Outbox) -> None:
    """One call queues several items; they come out in the order given."""
    ids = await outbox.put_many([msg(A, "a1"), msg(B, "b1"), msg(C, "c1")])
    assert len(set(ids)) == 3
    assert await outbox.pending() == 3
    batch = await outbox.take_many(T0, 10)
    assert texts(batch) == ["a1", "b1", "c1"]
    assert [t.id for t in batch] == ids


async def test_put_many_of_nothing_queues_nothing(outbox: Outbox) -> None:
    """An empty batch is a no-op."""
    assert await outbox.put_many([]) == []
    assert await outbox.pending() == 0
    assert await outbox.take(T0) is None


async def test_item_round_trips_through_redis(outbox: Outbox, redis_client: Redis,
                                             prefix: str) -> None:
    """Recipient, text, buttons, picture, slot and table survive the queue (taken by
    another process's outbox, which has only Redis to go by)."""
    item = Outgoing(
        ToUser("tg:42"),
        Message("<b>Your turn</b>", block([Button("Go", "g:1"), Button("No", "n")]),
                picture=Picture(png=b"\x89PNG\r\n\x1a\nfake", name="b.png"), slot="hand"),
        table="t7",
    )
    await outbox.put(item)
    taken = await Outbox(redis_client, prefix, platform=PLATFORM).take(T0)
    assert taken is not None
    assert taken.item == item and taken.item is not item
    assert taken.attempts == 0
    assert taken.kept is None
    assert taken.lkey == "chat:tg:42"


async def test_an_item_queued_here_is_taken_back_as_itself(outbox: Outbox) -> None:
    """This process's own items come back without decoding, digests and all."""
    item = msg(A, "<b>Round 2</b>", slot="table")
    await outbox.put(item)
    taken = await outbox.take(T0)
    assert taken is not None and taken.item is item
    assert len(outbox.recent) == 0  # taken once: a retry decodes


async def test_a_body_changed_in_redis_is_decoded_not_remembered(
        outbox: Outbox, redis_client: Redis, prefix: str) -> None:
    """Only the exact stored body is answered from memory: another worker's newer
    version of the slot, queued over this one, is read from Redis."""
    await outbox.put(msg(A, "version 1", slot="table"))
    other = Outbox(redis_client, prefix, platform=PLATFORM)
    await other.put(msg(A, "version 2", slot="table"))
    taken = await outbox.take(T0)
    assert taken is not None and texts([taken]) == ["version 2"]


async def test_take_many_takes_at_most_one_item_per_chat(outbox: Outbox) -> None:
    """A batch holds one message per chat, the oldest of each."""
    await outbox.put_many([msg(A, "a1"), msg(A, "a2"), msg(B, "b1"), msg(A, "a3"),
                           msg(B, "b2")])
    batch = await outbox.take_many(T0, 10)
    assert texts(batch) == ["a1", "b1"]


async def test_take_many_respects_most(outbox: Outbox) -> None:
    """No more than ``most`` items per batch; the rest stay for the next one."""
    await outbox.put_many([msg(A, "a1"), msg(B, "b1"), msg(C, "c1")])
    assert texts(await outbox.take_many(T0, 2)) == ["a1", "b1"]
    assert texts(await outbox.take_many(T0, 2)) == ["c1"]


async def test_chat_with_message_in_flight_waits_until_done(outbox: Outbox) -> None:
    """A chat's next message is not taken while its previous one is in flight, and
    comes out right after ``done_many``; other chats are not held up meanwhile."""
    await outbox.put_many([msg(A, "a1"), msg(A, "a2"), msg(A, "a3"), msg(B, "b1"),
                           msg(B, "b2")])
    first = await outbox.take_many(T0, 10)
    assert texts(first) == ["a1", "b1"]
    assert await outbox.take_many(T0, 10) == []  # both chats busy

    a1 = next(t for t in first if t.item.message.text.plain() == "a1")
    b1 = next(t for t in first if t.item.message.text.plain() == "b1")
    await outbox.done_many([(a1, None)])
    second = await outbox.take_many(T0, 10)
    assert texts(second) == ["a2"]  # b2 still waits for b1

    await outbox.done_many([(b1, None), (second[0], None)])
    assert texts(await outbox.take_many(T0, 10)) == ["a3", "b2"]


async def test_busy_chat_does_not_hold_up_other_chats(outbox: Outbox) -> None:
    """Items queued behind a busy chat's backlog still go out."""
    await outbox.put_many([msg(A, f"a{i}") for i in range(1, 6)])
    taken = await outbox.take(T0)
    assert taken is not None and taken.item.message.text.plain() == "a1"
    await outbox.put(msg(B, "b1"))
    assert texts(await outbox.take_many(T0, 10)) == ["b1"]


async def test_a_backlog_longer_than_one_scan_does_not_starve_other_chats(
    outbox: Outbox
) -> None:
    """More of a busy chat's messages than one take looks at: they are parked aside, so
    the next take reaches the other chat; the backlog then leaves in order."""
    backlog = 250  # more than take's scan of 200
    await outbox.put_many([msg(A, f"a{i}") for i in range(backlog)] + [msg(B, "b1")])
    first = await outbox.take_many(T0, 16)
    assert texts(first) == ["a0"]
    second = await outbox.take_many(T0, 16)
    assert texts(second) == ["b1"]
    await outbox.done_many([(t, None) for t in first + second])
    assert await drain(outbox, T0) == [f"a{i}" for i in range(1, backlog)]


async def test_passed_over_message_keeps_its_place_in_line(outbox: Outbox) -> None:
    """A message passed over because its chat was busy stays ahead of messages queued
    after it, for other chats too."""
    await outbox.put_many([msg(A, "a1"), msg(A, "a2"), msg(B, "b1"), msg(C, "c1")])
    a1 = await outbox.take(T0)
    assert a1 is not None and a1.item.message.text.plain() == "a1"
    b1 = await outbox.take(T0)  # passes over a2
    assert b1 is not None and b1.item.message.text.plain() == "b1"
    await outbox.done_many([(a1, None), (b1, None)])
    assert texts(await outbox.take_many(T0, 1)) == ["a2"]


async def test_messages_to_one_chat_come_out_in_the_order_queued(outbox: Outbox) -> None:
    """Draining interleaved chats keeps every chat's own order."""
    items = [msg(chat, f"{chat}#{i}") for i in range(6) for chat in (A, B, C)]
    await outbox.put_many(items[:9])
    await outbox.put_many(items[9:])
    sent = await drain(outbox, T0, most=2)
    for chat in (A, B, C):
        assert [s for s in sent if s.startswith(chat + "#")] == [f"{chat}#{i}" for i in range(6)]
    assert await outbox.pending() == 0


async def test_second_outbox_sees_the_chat_in_flight(redis_client: Redis, prefix: str) -> None:
    """Another sender (another Outbox on the same keys) does not take a chat's next
    message while the first sender has one in flight."""
    one = Outbox(redis_client, prefix, platform=PLATFORM)
    two = Outbox(redis_client, prefix, platform=PLATFORM)
    await one.put_many([msg(A, "a1"), msg(A, "a2"), msg(B, "b1")])
    first = await one.take(T0)
    assert first is not None and first.item.message.text.plain() == "a1"
    assert texts(await two.take_many(T0, 10)) == ["b1"]
    await one.done(first)
    assert texts(await two.take_many(T0, 10)) == ["a2"]


async def test_pending_counts_undelivered_items(outbox: Outbox) -> None:
    """Items count until done, whether waiting, in flight or delayed."""
    await outbox.put_many([msg(A, "a1"), msg(B, "b1"), msg(C, "c1")])
    batch = await outbox.take_many(T0, 2)
    assert await outbox.pending() == 3
    await outbox.delay(batch[1], T0 + 5, T0)
    assert await outbox.pending() == 3
    await outbox.done(batch[0])
    assert await outbox.pending() == 2


# ----------------------------------------------------------------- slots


async def test_slot_updates_coalesce_into_the_latest(outbox: Outbox) -> None:
    """Two updates of a slot before a take make one item with the latest body."""
    first = await outbox.put(msg(A, "v1", slot="board"))
    second = await outbox.put(msg(A, "v2", slot="board"))
    assert first == second
    assert await outbox.pending() == 1
    batch = await outbox.take_many(T0, 10)
    assert texts(batch) == ["v2"]
    await outbox.done(batch[0])
    assert await outbox.pending() == 0
    assert await outbox.take(T0) is None


async def test_slots_are_per_chat_and_per_name(outbox: Outbox) -> None:
    """The same slot name in another chat, or another slot in the same chat, is its
    own item."""
    await outbox.put_many([msg(A, "a-board", slot="board"), msg(B, "b-board", slot="board"),
                           msg(A, "a-hand", slot="hand")])
    assert await outbox.pending() == 3


async def test_coalesced_slot_keeps_its_first_place_in_line(outbox: Outbox) -> None:
    """An update of a waiting slot does not move it behind messages queued since."""
    await outbox.put(msg(A, "v1", slot="board"))
    await outbox.put(msg(A, "note"))
    await outbox.put(msg(A, "v2", slot="board"))
    assert await drain(outbox, T0) == ["v2", "note"]


async def test_coalesced_slot_keeps_its_place_when_released_after_a_wait(
    outbox: Outbox
) -> None:
    """Released together after a block, a coalesced slot still goes before a message
    queued after its first version."""
    await outbox.block("chat:" + A, T0 + 5, T0)
    await outbox.put(msg(A, "v1", slot="board"))
    await outbox.put(msg(A, "note"))
    await outbox.put(msg(A, "v2", slot="board"))
    assert await drain(outbox, T0) == []
    assert await drain(outbox, T0 + 5.01) == ["v2", "note"]


async def test_slot_updated_in_flight_is_sent_again_after_done(outbox: Outbox) -> None:
    """An update that arrives while the slot's item is in flight is not lost: ``done``
    puts the item back and it goes out again with the new body."""
    await outbox.put(msg(A, "v1", slot="board"))
    taken = await outbox.take(T0)
    assert taken is not None and taken.item.message.text.plain() == "v1"
    await outbox.put(msg(A, "v2", slot="board"))
    assert await outbox.take(T0) is None  # the chat is still busy with v1
    await outbox.done(taken)
    assert await outbox.pending() == 1
    again = await outbox.take(T0)
    assert again is not None
    assert again.id == taken.id
    assert again.item.message.text.plain() == "v2"
    await outbox.done(again)
    assert await outbox.pending() == 0


async def test_renew_sticks_through_a_later_plain_edit(outbox: Outbox) -> None:
    """A request for a fresh message survives a plain update replacing the body before
    the take, and is honoured once."""
    await outbox.put(msg(A, "turn", slot="board", renew=True))
    await outbox.put(msg(A, "turn, edited", slot="board"))
    taken = await outbox.take(T0)
    assert taken is not None
    assert taken.item.message.text.plain() == "turn, edited"
    assert taken.item.message.renew is True
    await outbox.done(taken)

    await outbox.put(msg(A, "plain edit", slot="board"))
    later = await outbox.take(T0)
    assert later is not None and later.item.message.renew is False


async def test_slot_updated_in_flight_keeps_its_place_ahead_of_later_messages(
    outbox: Outbox
) -> None:
    """The newer version of a slot in flight goes out before messages queued after the
    slot first was, and before other chats' backlog."""
    await outbox.put(msg(A, "table v1", slot="table"))
    taken = await outbox.take(T0)
    assert taken is not None
    await outbox.put_many([msg(B, f"b{i}") for i in range(20)])
    await outbox.put_many([msg(A, "table v2", slot="table"), msg(A, "announce")])
    await outbox.done(taken)
    first = await outbox.take_many(T0, 1)
    assert texts(first) == ["table v2"]
    await outbox.done_many([(t, None) for t in first])
    assert [t for t in await drain(outbox, T0) if t.startswith(("a", "t"))] == ["announce"]


async def test_a_slot_never_goes_back_to_an_older_table_version(outbox: Outbox) -> None:
    """Two workers queue versions 6 and 5 of a table in that order: version 5 (renew
    flag and all) is dropped, before and after 6 was sent; unversioned items pass."""
    def v(text: str, version: int, renew: bool = False) -> Outgoing:
        return replace(msg(A, text, slot="table", renew=renew), version=version)

    await outbox.put_many([v("v6", 6), v("v5", 5, renew=True)])
    [taken] = await outbox.take_many(T0, 4)
    assert taken.item.message.text.plain() == "v6" and not taken.item.message.renew
    await outbox.done(taken)
    await outbox.put(v("v5 again", 5))
    assert await outbox.take_many(T0, 4) == []
    await outbox.put_many([v("status", 0), v("v7", 7)])
    assert texts(await outbox.take_many(T0, 4)) == ["v7"]


async def test_renew_arriving_in_flight_is_kept_for_the_resend(outbox: Outbox) -> None:
    """A renew queued while a plain version is in flight applies to the resend."""
    await outbox.put(msg(A, "v1", slot="board"))
    taken = await outbox.take(T0)
    assert taken is not None and taken.item.message.renew is False
    await outbox.put(msg(A, "v2", slot="board", renew=True))
    await outbox.done(taken)
    again = await outbox.take(T0)
    assert again is not None
    assert again.item.message.text.plain() == "v2"
    assert again.item.message.renew is True


async def test_renew_honoured_in_flight_is_not_repeated(outbox: Outbox) -> None:
    """A renew that the in-flight send honoured does not stick to a plain update queued
    meanwhile."""
    await outbox.put(msg(A, "v1", slot="board", renew=True))
    taken = await outbox.take(T0)
    assert taken is not None and taken.item.message.renew is True
    await outbox.put(msg(A, "v2", slot="board"))
    await outbox.done(taken)
    again = await outbox.take(T0)
    assert again is not None
    assert again.item.message.text.plain() == "v2"
    assert again.item.message.renew is False


async def test_done_stores_slot_record_and_next_take_hands_it_over(
    outbox: Outbox, redis_client: Redis, prefix: str
) -> None:
    """``done(taken, kept)`` writes the record to ``<prefix><platform>slots``; the slot's next
    item carries it as ``kept``; a plain ``done`` leaves it alone."""
    record = '{"id": 17, "photo": false}'
    await outbox.put(msg(A, "v1", slot="board"))
    first = await outbox.take(T0)
    assert first is not None and first.kept is None
    await outbox.done(first, record)
    assert await redis_client.hget(prefix + PLATFORM + "slots", f"{A}|board") == record

    await outbox.put(msg(A, "v2", slot="board"))
    second = await outbox.take(T0)
    assert second is not None and second.kept == record
    await outbox.done(second)  # nothing new to keep
    assert await redis_client.hget(prefix + PLATFORM + "slots", f"{A}|board") == record

    await outbox.put(msg(B, "other chat", slot="board"))
    other = await outbox.take(T0)
    assert other is not None and other.kept is None


async def test_done_many_stores_each_slot_record(outbox: Outbox, redis_client: Redis,
                                                 prefix: str) -> None:
    """One ``done_many`` stores the records of every slot in the batch; plain messages
    store none."""
    await outbox.put_many([msg(A, "a", slot="board"), msg(B, "b", slot="board"),
                           msg(C, "c")])
    batch = await outbox.take_many(T0, 10)
    await outbox.done_many([(t, f'{{"id": {i}}}') for i, t in enumerate(batch)])
    assert await redis_client.hgetall(prefix + PLATFORM + "slots") == {f"{A}|board": '{"id": 0}',
                                                         f"{B}|board": '{"id": 1}'}
    assert await outbox.pending() == 0


# ----------------------------------------------------------------- rate limits


def per_chat(per: int, window: float) -> Limits:
    """``per`` messages per ``window`` seconds in each chat."""
    def limits(item: Outgoing) -> tuple[str, int, float]:
        return no_limits(item)[0], per, window
    return limits


async def test_chat_rate_limit_holds_the_rest_until_the_window_passes(
    redis_client: Redis, prefix: str
) -> None:
    """With 2 per 10 s, two go now, the next two once the window has passed, in order;
    another chat is not affected."""
    outbox = Outbox(redis_client, prefix, platform=PLATFORM, limits=per_chat(2, 10.0))
    await outbox.put_many([msg(A, f"a{i}") for i in range(1, 6)] + [msg(B, "b1")])
    assert await drain(outbox, T0) == ["a1", "b1", "a2"]
    assert await drain(outbox, T0 + 5) == []
    assert await drain(outbox, T0 + 10.01) == ["a3", "a4"]
    assert await drain(outbox, T0 + 15) == []
    assert await drain(outbox, T0 + 20.02) == ["a5"]
    assert await outbox.pending() == 0


async def test_rate_limited_chat_keeps_order_with_messages_queued_later(
    redis_client: Redis, prefix: str
) -> None:
    """Messages queued while the chat waits for its window go after those already
    waiting."""
    outbox = Outbox(redis_client, prefix, platform=PLATFORM, limits=per_chat(1, 10.0))
    await outbox.put_many([msg(A, "a1"), msg(A, "a2")])
    assert await drain(outbox, T0) == ["a1"]
    await outbox.put(msg(A, "a3"))
    assert await drain(outbox, T0 + 3) == []
    assert await drain(outbox, T0 + 10.01) == ["a2"]
    assert await drain(outbox, T0 + 20.02) == ["a3"]


async def test_a_slot_sent_twice_at_one_instant_counts_twice(
    redis_client: Redis, prefix: str
) -> None:
    """Each send counts in the window, also a slot's next version taken at the same
    ``now`` as its last (the clock's resolution, or a test's clock standing still): a
    window of 2 lets the slot's first two versions go, not a third."""
    outbox = Outbox(redis_client, prefix, platform=PLATFORM, limits=per_chat(2, 10.0),
                    global_per_second=2)
    for version in ("v1", "v2", "v3"):
        await outbox.put(msg(A, version, slot="table"))
        assert await drain(outbox, T0) == ([] if version == "v3" else [version])
    assert await drain(outbox, T0 + 10.01) == ["v3"]


async def test_global_limit_caps_the_bot_as_a_whole(redis_client: Redis, prefix: str) -> None:
    """With 2 a second overall, a batch for four chats sends two; the others follow
    after the second has passed, in order."""
    outbox = Outbox(redis_client, prefix, platform=PLATFORM, global_per_second=2)
    await outbox.put_many([msg(A, "a"), msg(B, "b"), msg(C, "c"), msg("tg:-1004", "d")])
    assert texts(await outbox.take_many(T0, 10)) == ["a", "b"]
    assert await outbox.take_many(T0 + 0.5, 10) == []
    assert texts(await outbox.take_many(T0 + 1.01, 10)) == ["c", "d"]


# ----------------------------------------------------------------- blocks, delays, leases


async def test_block_holds_a_chat_until_the_given_time(outbox: Outbox) -> None:
    """A blocked chat's messages wait (in order); other chats go on."""
    await outbox.block("chat:" + A, T0 + 5, T0)
    await outbox.put_many([msg(A, "a1"), msg(B, "b1"), msg(A, "a2")])
    assert await drain(outbox, T0) == ["b1"]
    assert await drain(outbox, T0 + 4.9) == []
    assert await drain(outbox, T0 + 5.01) == ["a1", "a2"]


async def test_delay_with_hold_keeps_the_chat_for_the_delayed_item(outbox: Outbox) -> None:
    """A held item comes back first at ``until``; the chat's later messages wait for it,
    other chats do not."""
    await outbox.put_many([msg(A, "a1"), msg(A, "a2"), msg(A, "a3")])
    taken = await outbox.take(T0)
    assert taken is not None and taken.item.message.text.plain() == "a1"
    await outbox.delay(taken, T0 + 10, T0, hold=True)
    await outbox.put(msg(B, "b1"))
    assert await drain(outbox, T0) == ["b1"]
    assert await drain(outbox, T0 + 9.9) == []
    assert await drain(outbox, T0 + 10.01) == ["a1", "a2", "a3"]


async def test_delay_without_hold_frees_the_chat(outbox: Outbox) -> None:
    """Without ``hold`` (and without a block) the chat's next message may go meanwhile;
    the delayed one comes back at ``until``."""
    await outbox.put_many([msg(A, "a1"), msg(A, "a2")])
    taken = await outbox.take(T0)
    assert taken is not None
    await outbox.delay(taken, T0 + 10, T0)
    assert await drain(outbox, T0) == ["a2"]
    assert await drain(outbox, T0 + 10.01) == ["a1"]


async def test_delay_failed_counts_attempts(outbox: Outbox) -> None:
    """``failed=True`` adds an attempt each time; a plain delay does not."""
    await outbox.put(msg(A, "a1"))
    taken = await outbox.take(T0)
    assert taken is not None and taken.attempts == 0
    await outbox.delay(taken, T0 + 1, T0, failed=True)
    taken = await outbox.take(T0 + 1.01)
    assert taken is not None and taken.attempts == 1
    await outbox.delay(taken, T0 + 2, T0 + 1.01, failed=True)
    taken = await outbox.take(T0 + 2.01)
    assert taken is not None and taken.attempts == 2
    await outbox.delay(taken, T0 + 3, T0 + 2.01)
    taken = await outbox.take(T0 + 3.01)
    assert taken is not None and taken.attempts == 2


async def test_delayed_items_released_together_leave_in_queue_order(outbox: Outbox) -> None:
    """Items delayed to the same moment, even in reverse order, leave in the order they
    were queued."""
    await outbox.put_many([msg(A, "a"), msg(B, "b"), msg(C, "c")])
    batch = await outbox.take_many(T0, 10)
    for taken in reversed(batch):
        await outbox.delay(taken, T0 + 5, T0)
    assert texts(await outbox.take_many(T0 + 5.01, 10)) == ["a", "b", "c"]


async def test_order_after_a_wait_survives_the_counter_passing_100000(
    outbox: Outbox, redis_client: Redis, prefix: str
) -> None:
    """Two messages of a blocked chat queued either side of message number 100000 still
    leave in the order queued."""
    await redis_client.set(prefix + PLATFORM + "out:seq", 99_998)  # a bot that has sent a while
    await outbox.block("chat:" + A, T0 + 5, T0)
    await outbox.put_many([msg(A, "a1"), msg(A, "a2")])  # places 99999 and 100000
    assert await drain(outbox, T0) == []
    assert await drain(outbox, T0 + 5.2) == ["a1", "a2"]


async def test_expired_lease_gives_the_item_back(outbox: Outbox) -> None:
    """An item whose sender never finished comes back once its lease has run out; until
    then the chat stays busy."""
    await outbox.put_many([msg(A, "a1"), msg(A, "a2")])
    taken = await outbox.take(T0, lease_s=1.0)
    assert taken is not None
    assert await outbox.take(T0 + 0.5) is None
    again = await outbox.take(T0 + 1.5)
    assert again is not None
    assert again.id == taken.id
    assert again.item.message.text.plain() == "a1"
    await outbox.done(again)
    following = await outbox.take(T0 + 1.5)
    assert following is not None and following.item.message.text.plain() == "a2"


# ----------------------------------------------------------------- keys per platform


async def test_each_platform_has_its_own_queue_and_telegram_keeps_its_keys(
    redis_client: Redis, prefix: str
) -> None:
    """Two platforms' outboxes never see each other's items; Telegram's (``tg``) lives
    under the keys it used before the layer was shared, so queued items and slot records
    survive the upgrade."""
    telegram = Outbox(redis_client, prefix, platform="tg")
    other = Outbox(redis_client, prefix, platform="dc")
    await telegram.put(msg(A, "for telegram", slot="board"))
    assert await other.take(T0) is None
    taken = await telegram.take(T0)
    assert taken is not None
    await telegram.done(taken, '{"id": "7"}')
    assert await redis_client.hget(prefix + "tgslots", f"{A}|board") == '{"id": "7"}'
    assert await redis_client.exists(prefix + "tgout:seq") == 1
    assert await redis_client.exists(prefix + "dcout:seq") == 0
