"""The shared sender on a real outbox (Redis), the courier and an in-memory platform, on
a manual clock: per-chat order, idempotency, coalescing, bounded retries, a failing item
that holds nobody for long, the picture's text fallback, the platform's waits."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from dataclasses import dataclass

import pytest
from redis.asyncio import Redis

from adapters.delivery.courier import Courier
from adapters.delivery.outbox import Outbox
from adapters.delivery.platform import FailureKind
from adapters.delivery.rates import platform_windows
from adapters.delivery.sender import GIVE_UP_ATTEMPTS, Sender
from bot.ui.message import Button, Message, Outgoing, Picture, ToChat, ToUser, block
from tests.adapters.delivery.manual_clock import T0, Clock
from tests.adapters.delivery.memory_platform import Boom, MemoryPlatform

A, B = "mem:group-a", "mem:group-b"
USER = "mem:user-1"
PNG = Picture(png=b"\x89PNG fake", name="board.png")


@dataclass(frozen=True)
class Patience:
    """The sender's policy in these tests."""

    hold_chat_s: float = 2.0
    picture_attempts: int = 3
    picture_retry_s: float = 1.0
    picture_pause_s: float = 30.0


@pytest.fixture
def platform() -> MemoryPlatform:
    return MemoryPlatform()


@pytest.fixture
def hints() -> list[Outgoing]:
    """The private messages the sender found undeliverable."""
    return []


@pytest.fixture
def sender(redis_client: Redis, prefix: str, platform: MemoryPlatform, clock: Clock,
           hints: list[Outgoing]) -> Sender:
    outbox = Outbox(redis_client, prefix, platform=platform.name,
                    limits=platform_windows(platform))

    async def unreachable(item: Outgoing) -> Outgoing | None:
        hints.append(item)
        return Outgoing(ToChat(A), Message(f"open a chat with me, {item.table}"))

    return Sender(outbox, Courier(platform), platform, Patience(), unreachable, clock)


def say(chat: str, text: str, **kw: object) -> Outgoing:
    """A plain message."""
    return Outgoing(ToChat(chat), Message(text, **kw))  # type: ignore[arg-type]


async def settle(sender: Sender, clock: Clock, *, until: float | None = None) -> None:
    """Send everything, moving the clock to each wake-up (not past ``until``)."""
    for _ in range(2000):
        if await sender.step():
            continue
        wake = await sender.outbox.next_wake()
        if wake is None or (until is not None and wake > until):
            return
        clock.now = max(clock.now, wake)
    raise AssertionError("the outbox never settled")


async def drained(sender: Sender, clock: Clock) -> None:
    """Send everything (``settle``): afterwards nothing is left in the outbox."""
    await settle(sender, clock)
    assert await sender.outbox.pending() == 0


async def test_a_chats_messages_arrive_in_the_order_queued(
    sender: Sender, platform: MemoryPlatform, clock: Clock
) -> None:
    await sender.outbox.put_many([say(A, "a1"), say(B, "b1"), say(A, "a2"), say(A, "a3"),
                                  say(B, "b2")])
    await settle(sender, clock)
    assert platform.sent(A) == ["a1", "a2", "a3"]
    assert platform.sent(B) == ["b1", "b2"]


async def test_a_keyed_message_queued_again_after_delivery_is_not_sent_again(
    sender: Sender, platform: MemoryPlatform, clock: Clock
) -> None:
    """The core's repair re-derives a delivered message: it is dropped, by its key."""
    turn = Outgoing(ToUser(USER), Message("your turn"), table="t1", version=4, key="turn")
    await sender.outbox.put(turn)
    await settle(sender, clock)
    await sender.outbox.put(turn)
    await drained(sender, clock)
    assert platform.sent() == ["your turn"]


async def test_edits_of_one_slot_coalesce_into_the_newest(
    sender: Sender, platform: MemoryPlatform, clock: Clock
) -> None:
    """Three versions queued before the sender looks: one message, showing the last; a
    later version edits that message, and one that changes nothing makes no call."""
    for v in (1, 2, 3):
        await sender.outbox.put(Outgoing(ToChat(A), Message(f"table v{v}", slot="table"),
                                         table="t1", version=v))
    await settle(sender, clock)
    assert platform.sent() == ["table v3"]
    await sender.outbox.put(Outgoing(ToChat(A), Message("table v4", slot="table"),
                                     table="t1", version=4))
    await settle(sender, clock)
    assert platform.calls("edit") == ["table v4"]
    await sender.outbox.put(say(A, "table v4", slot="table"))
    await settle(sender, clock)
    assert len(platform.log) == 2  # the unchanged edit was not made


async def test_a_renewed_slot_is_a_new_message_and_the_old_one_loses_its_buttons(
    sender: Sender, platform: MemoryPlatform, clock: Clock
) -> None:
    choices = block([Button("Go", "go")])
    await sender.outbox.put(say(A, "turn 1", choices=choices, slot="dm"))
    await settle(sender, clock)
    await sender.outbox.put(say(A, "turn 2", choices=choices, slot="dm", renew=True))
    await settle(sender, clock)
    assert platform.sent() == ["turn 1", "turn 2"]
    assert platform.calls("strip") == ["turn 1"]


async def test_a_failing_item_holds_its_chat_briefly_and_other_chats_not_at_all(
    sender: Sender, platform: MemoryPlatform, clock: Clock
) -> None:
    """A's first message keeps failing: B's messages go at once; A's next one waits only
    while the failing one is young (``hold_chat_s``), then goes past it."""
    platform.fail("stuck", *(Boom(FailureKind.TRANSIENT) for _ in range(10)))
    await sender.outbox.put_many([say(A, "stuck"), say(A, "a2"), say(B, "b1"), say(B, "b2")])
    await sender.step()
    await sender.step()
    assert platform.sent() == ["b1", "b2"]
    await settle(sender, clock, until=T0 + 1.0)
    assert platform.sent(A) == []  # a2 waits behind the young failure (order kept)
    # Pauses 0.5, 1, 2 s: after 3.5 s of failing (more than hold_chat_s) the chat goes on.
    await settle(sender, clock, until=T0 + 4.0)
    assert platform.sent(A) == ["a2"]  # stuck is still failing; a2 did not wait for it
    await settle(sender, clock)
    assert platform.sent(A) == ["a2", "stuck"]


async def test_retries_are_bounded(
    sender: Sender, platform: MemoryPlatform, clock: Clock, caplog: pytest.LogCaptureFixture
) -> None:
    """An item that always fails is given up after ``GIVE_UP_ATTEMPTS`` retries, and the
    failure is logged when it starts and when it ends, not at every try."""
    platform.fail("doomed", *(Boom(FailureKind.TRANSIENT) for _ in range(200)))
    await sender.outbox.put(say(A, "doomed"))
    with caplog.at_level(logging.WARNING, logger="adapters.delivery.sender"):
        await settle(sender, clock)
    assert len(platform.failures["doomed"]) == 200 - (GIVE_UP_ATTEMPTS + 1)
    assert await sender.outbox.pending() == 0
    lines = [r.getMessage() for r in caplog.records]
    assert len(lines) == 3  # failed; still fails (the chat goes on); given up
    assert "given up" in lines[-1]


async def test_a_permanent_refusal_is_dropped_and_the_chat_goes_on(
    sender: Sender, platform: MemoryPlatform, clock: Clock
) -> None:
    platform.fail("bad", Boom(FailureKind.PERMANENT, "400"))
    await sender.outbox.put_many([say(A, "bad"), say(A, "good")])
    await drained(sender, clock)
    assert platform.sent() == ["good"]


async def test_a_bug_while_delivering_is_retried(
    sender: Sender, platform: MemoryPlatform, clock: Clock
) -> None:
    platform.fail("flaky", ValueError("bug"))  # type: ignore[arg-type]
    await sender.outbox.put(say(A, "flaky"))
    await settle(sender, clock)
    assert platform.sent() == ["flaky"]


async def test_a_refused_picture_goes_as_text_at_once_and_follows_later(
    sender: Sender, platform: MemoryPlatform, clock: Clock
) -> None:
    """The text (with its buttons) goes now; the chat takes no pictures for a pause;
    the picture follows after it, on its own."""
    platform.fail_pictures = FailureKind.PERMANENT
    await sender.outbox.put_many([say(A, "map", picture=PNG), say(A, "after")])
    await settle(sender, clock, until=T0 + 1)
    assert platform.sent(A) == ["map", "after"]
    assert [m.picture for m in platform.messages.values()] == [False, False]
    platform.fail_pictures = None
    clock.now = T0 + Patience.picture_pause_s + 1
    await settle(sender, clock)
    assert platform.calls("picture") == ["map"]


async def test_a_picture_that_keeps_failing_stops_holding_the_text_after_a_few_tries(
    sender: Sender, platform: MemoryPlatform, clock: Clock
) -> None:
    platform.fail_pictures = FailureKind.TRANSIENT
    await sender.outbox.put(say(A, "map", picture=PNG))
    await settle(sender, clock, until=T0 + 10)
    assert platform.sent() == ["map"] and not platform.messages["1"].picture
    assert clock.now - T0 < 10  # seconds, not minutes
    # The picture keeps failing: after its tries it is dropped, nothing keeps waiting.
    for _ in range(Patience.picture_attempts + 1):
        clock.now += Patience.picture_pause_s + 1
        await settle(sender, clock)
    assert platform.calls("picture") == []
    assert await sender.outbox.following() == 0


async def test_a_slot_picture_follows_into_the_slot(
    sender: Sender, platform: MemoryPlatform, clock: Clock
) -> None:
    """A table's picture that failed comes back as the slot's own message (a picture
    message replacing the text one, which loses its buttons)."""
    platform.fail_pictures = FailureKind.PERMANENT
    choices = block([Button("Go", "go")])
    await sender.outbox.put(Outgoing(ToChat(A), Message("table", choices, picture=PNG,
                                                        slot="table"), "t1", version=1))
    await settle(sender, clock)
    platform.fail_pictures = None
    clock.now = T0 + Patience.picture_pause_s + 1
    await settle(sender, clock)
    assert platform.sent() == ["table", "table"]
    assert [m.picture for m in platform.messages.values()] == [False, True]
    assert platform.calls("strip") == ["table"]


async def test_the_platforms_wait_holds_the_whole_chat(
    sender: Sender, platform: MemoryPlatform, clock: Clock
) -> None:
    platform.fail("a1", Boom(FailureKind.RETRY_AFTER, "429", retry_after_s=5.0))
    await sender.outbox.put_many([say(A, "a1"), say(A, "a2"), say(B, "b1")])
    await settle(sender, clock, until=T0 + 4)
    assert platform.sent() == ["b1"]
    await settle(sender, clock)
    assert platform.sent(A) == ["a1", "a2"]
    assert clock.now >= T0 + 5


async def test_an_unreachable_user_is_asked_in_the_group(
    sender: Sender, platform: MemoryPlatform, clock: Clock, hints: list[Outgoing]
) -> None:
    platform.fail("psst", Boom(FailureKind.UNREACHABLE, "403"))
    await sender.outbox.put(Outgoing(ToUser(USER), Message("psst"), table="t9"))
    await settle(sender, clock)
    assert [h.message.text.plain() for h in hints] == ["psst"]
    assert platform.sent(A) == ["open a chat with me, t9"]


class ClosedLines:
    """A ``Reach`` that remembers refusals in a set."""

    def __init__(self) -> None:
        self.users: set[str] = set()

    async def dm_closed(self, user_id: str) -> bool:
        return user_id in self.users

    async def dm_refused(self, user_id: str) -> None:
        self.users.add(user_id)


async def test_after_a_refusal_only_what_the_user_asks_for_is_tried(
    sender: Sender, platform: MemoryPlatform, clock: Clock, hints: list[Outgoing]
) -> None:
    reach = ClosedLines()
    sender.reach = reach
    platform.fail("psst", Boom(FailureKind.UNREACHABLE, "403"))
    await sender.outbox.put(Outgoing(ToUser(USER), Message("psst"), table="t9"))
    await settle(sender, clock)
    assert reach.users == {USER}
    for text, asked in (("your turn", False), ("your board", True), ("a reminder", False)):
        await sender.outbox.put(Outgoing(ToUser(USER), Message(text), table="t9", asked=asked))
    await settle(sender, clock)
    tried = [text for _, _, text in platform.log]
    assert "your turn" not in tried and "a reminder" not in tried
    assert "your board" in platform.sent()
    assert [h.message.text.plain() for h in hints] == ["psst"]  # asked once, in the group


async def test_a_moved_chat_gets_the_item_at_its_new_id(
    redis_client: Redis, prefix: str, platform: MemoryPlatform, clock: Clock
) -> None:
    moves: list[tuple[str, str]] = []

    async def moved(old: str, new: str) -> None:
        moves.append((old, new))

    outbox = Outbox(redis_client, prefix, platform=platform.name)
    sender = Sender(outbox, Courier(platform), platform, Patience(), clock=clock,
                    moved=moved)
    platform.fail("hello", Boom(FailureKind.MOVED, "400", moved_to=B))
    await outbox.put(say(A, "hello"))
    await settle(sender, clock)
    assert platform.sent(B) == ["hello"] and moves == [(A, B)]


async def test_a_failing_item_holds_only_the_messages_of_its_own_table(
    sender: Sender, platform: MemoryPlatform, clock: Clock
) -> None:
    """Table t1's message keeps failing in chat A: t1's next message waits behind it
    (their order matters), but t2's messages and an answer about no table go on at
    once; once the failure ends, t1's messages follow in their order."""
    platform.fail("t1 first", Boom(FailureKind.TRANSIENT), Boom(FailureKind.TRANSIENT))

    def about(table: str | None, text: str) -> Outgoing:
        return Outgoing(ToChat(A), Message(text), table=table)

    await sender.outbox.put_many([about("t1", "t1 first"), about("t1", "t1 second"),
                                  about("t2", "t2 first"), about(None, "an answer"),
                                  about("t2", "t2 second")])
    await settle(sender, clock, until=T0)
    assert platform.sent(A) == ["t2 first", "an answer", "t2 second"]
    await settle(sender, clock)
    assert platform.sent(A)[3:] == ["t1 first", "t1 second"]
    assert clock.now - T0 == pytest.approx(0.5 + 1.0)  # two pauses, no more


async def test_an_item_queued_here_wakes_the_resting_loop_at_once(
    sender: Sender, platform: MemoryPlatform
) -> None:
    """With nothing to send the loop rests its idle pause, but an item queued through
    the same outbox wakes it: it goes out long before the pause (an hour here) is up."""
    stop = asyncio.Event()
    pauses: list[float] = []

    async def pause(stop: asyncio.Event, seconds: float) -> None:
        pauses.append(seconds)
        await asyncio.sleep(seconds)  # the real pause's length: only a nudge cuts it

    sender.pause = pause
    loop = asyncio.create_task(sender.run(stop, idle_s=3600.0))
    for _ in range(200):
        if pauses:
            break
        await asyncio.sleep(0.01)
    assert pauses == [3600.0]  # resting, nothing queued yet
    await sender.outbox.put(say(A, "a1"))
    for _ in range(500):
        if platform.sent(A):
            break
        await asyncio.sleep(0.01)
    assert platform.sent(A) == ["a1"]
    stop.set()
    loop.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await loop
