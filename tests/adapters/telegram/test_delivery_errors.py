"""Telegram's errors through the shared sender (adapters/telegram/delivery.py's
``TelegramPlatform.classify`` with adapters/delivery/sender.py), on a real outbox
(Redis), a fake delivery and a manual clock: batches, and what each kind of Telegram
error does to the item and to its chat."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from dataclasses import replace
from datetime import timedelta
from typing import cast

import pytest
from redis.asyncio import Redis
from telegram import Bot
from telegram.error import (
    BadRequest,
    ChatMigrated,
    Forbidden,
    NetworkError,
    RetryAfter,
    TelegramError,
)

from adapters.delivery.outbox import LEASE_S, Outbox, Taken
from adapters.delivery.platform import FailedCall
from adapters.delivery.rates import platform_windows
from adapters.delivery.sender import (
    GIVE_UP_ATTEMPTS,
    MAX_BACKOFF_S,
    MAX_IDLE_AFTER_FAILURE_S,
    Sender,
    pause_unless_stopped,
    waited_s,
)
from adapters.telegram.delivery import (
    PICTURE_METHODS,
    TelegramPlatform,
    limit_key,
    retry_seconds,
)
from adapters.telegram.settings import TelegramSettings
from bot.ui.message import Message, Outgoing, Picture, ToChat, ToUser
from tests.adapters.delivery.manual_clock import T0, Clock

A, B, C = "tg:-1001", "tg:-1002", "tg:-1003"
USER = "tg:42"

#: Telegram's real windows are a minute per group: out of the way here.
SETTINGS = TelegramSettings(token="1:test", group_per_window=1000, group_window_s=1.0,
                            private_per_window=1000, private_window_s=1.0,
                            global_per_second=1000)
#: Telegram as the sender sees it; no call is made through it here (``FakeDelivery``).
PLATFORM = TelegramPlatform.from_settings(cast(Bot, None), SETTINGS)


class Pauses:
    """The sender loop's ``pause``: records each wait and returns at once; sets the loop's
    ``stop`` once ``until()`` holds (checked at every pause)."""

    def __init__(self, stop: asyncio.Event, until: Callable[[], bool]) -> None:
        self.stop = stop
        self.until = until
        self.waits: list[float] = []

    async def __call__(self, _stop: asyncio.Event, seconds: float) -> None:
        self.waits.append(seconds)
        if self.until():
            self.stop.set()


class FakeDelivery:
    """Records what it is asked to deliver; raises the errors queued for a text (or for
    its picture: ``fail_picture``), returns the slot record set for it, and can wait
    until ``expect`` deliveries run at once."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, str | None]] = []
        self.quiet: list[bool] = []  # per call: asked to send without a notification
        self.as_text: list[bool] = []  # per call: asked to leave the picture out
        self.destinations: list[tuple[str, str]] = []  # (text, chat or user id)
        self.errors: dict[str, list[BaseException]] = {}
        self.picture_errors: dict[str, list[BaseException]] = {}
        self.records: dict[str, str] = {}
        self.followed: list[tuple[str, str | None]] = []  # pictures that followed: (text, kept)
        self.expect = 0
        self._started = 0
        self._all_in = asyncio.Event()

    def fail(self, text: str, *errors: BaseException) -> None:
        """The next deliveries of ``text`` raise ``errors``, one each."""
        self.errors.setdefault(text, []).extend(errors)

    def fail_picture(self, text: str, *errors: BaseException) -> None:
        """The next deliveries of ``text`` with its picture (a message's, or following
        it) raise ``errors``, one each; as text it goes."""
        self.picture_errors.setdefault(text, []).extend(errors)

    async def deliver(
        self, item: Outgoing, kept: str | None = None, *, quiet: bool = False,
        as_text: bool = False,
    ) -> str | None:
        text = item.message.text.plain()
        self.calls.append((text, kept))
        self.quiet.append(quiet)
        self.as_text.append(as_text)
        self.destinations.append(
            (text, item.to.chat_id if isinstance(item.to, ToChat) else item.to.user_id))
        if self.expect:
            self._started += 1
            if self._started >= self.expect:
                self._all_in.set()
            # Safety net only: every delivery of the step has started long before.
            await asyncio.wait_for(self._all_in.wait(), 10.0)
        pending = self.picture_errors.get(text)
        if pending and item.message.picture is not None and not as_text:
            raise pending.pop(0)
        pending = self.errors.get(text)
        if pending:
            raise pending.pop(0)
        return self.records.get(text)

    async def follow(self, item: Outgoing, kept: str | None = None) -> str | None:
        text = item.message.text.plain()
        self.followed.append((text, kept))
        pending = self.picture_errors.get(text)
        if pending:
            raise pending.pop(0)
        return self.records.get(text + " (picture)")

    @property
    def texts(self) -> list[str]:
        """Texts in the order their deliveries started."""
        return [text for text, _ in self.calls]


class Unreachable:
    """The ``unreachable`` callback: records the items, answers with ``hint``."""

    def __init__(self, hint: Outgoing | None) -> None:
        self.hint = hint
        self.items: list[Outgoing] = []

    async def __call__(self, item: Outgoing) -> Outgoing | None:
        self.items.append(item)
        return self.hint


def msg(chat: str, text: str, *, slot: str | None = None) -> Outgoing:
    """A message to a group chat."""
    return Outgoing(ToChat(chat), Message(text, slot=slot))


@pytest.fixture
def outbox(redis_client: Redis, prefix: str) -> Outbox:
    """The outbox with Telegram's limit keys (generous windows)."""
    return Outbox(redis_client, prefix, platform="tg", limits=platform_windows(PLATFORM),
                  global_per_second=1000)


@pytest.fixture
def delivery() -> FakeDelivery:
    """The fake delivery."""
    return FakeDelivery()


@pytest.fixture
def hint() -> Outgoing:
    """What ``unreachable`` asks to send for an undeliverable private message."""
    return msg(A, "please open a chat with me")


@pytest.fixture
def unreachable(hint: Outgoing) -> Unreachable:
    """An ``unreachable`` that answers with ``hint``."""
    return Unreachable(hint)


@pytest.fixture
def sender(outbox: Outbox, delivery: FakeDelivery, unreachable: Unreachable,
           clock: Clock) -> Sender:
    """The sender under test."""
    return Sender(outbox, delivery, PLATFORM, SETTINGS, unreachable, clock)


async def run_steps(sender: Sender) -> int:
    """Step until nothing can go at the current time; how many steps sent something."""
    steps = 0
    while await sender.step():
        steps += 1
    return steps


# ----------------------------------------------------------------- batches


async def test_step_with_nothing_to_send_returns_false(sender: Sender,
                                                       delivery: FakeDelivery) -> None:
    """An empty outbox: no delivery, False."""
    assert await sender.step() is False
    assert delivery.calls == []


async def test_step_delivers_to_several_chats_at_once(
    sender: Sender, outbox: Outbox, delivery: FakeDelivery
) -> None:
    """One step sends a message to each chat concurrently (each delivery waits until all
    three have started), and a chat's second message waits for the next step."""
    await outbox.put_many([msg(A, "a1"), msg(A, "a2"), msg(B, "b1"), msg(C, "c1")])
    delivery.expect = 3
    assert await sender.step() is True
    assert sorted(delivery.texts) == ["a1", "b1", "c1"]
    assert await outbox.pending() == 1
    delivery.expect = 0
    assert await sender.step() is True
    assert delivery.texts[-1] == "a2"
    assert await outbox.pending() == 0


async def test_step_honours_batch_size(outbox: Outbox, delivery: FakeDelivery,
                                       unreachable: Unreachable, clock: Clock) -> None:
    """``batch`` caps how many chats one step serves."""
    sender = Sender(outbox, delivery, PLATFORM, SETTINGS, unreachable, clock, batch=2)
    await outbox.put_many([msg(A, "a"), msg(B, "b"), msg(C, "c")])
    await sender.step()
    assert delivery.texts == ["a", "b"]
    await sender.step()
    assert delivery.texts == ["a", "b", "c"]


async def test_slot_record_returned_by_delivery_is_handed_to_the_next_update(
    sender: Sender, outbox: Outbox, delivery: FakeDelivery
) -> None:
    """What ``deliver`` returns is stored as the slot's record and comes back as
    ``kept`` with the slot's next update."""
    delivery.records["v1"] = '{"id": 5}'
    await outbox.put(msg(A, "v1", slot="board"))
    await run_steps(sender)
    await outbox.put(msg(A, "v2", slot="board"))
    await run_steps(sender)
    assert delivery.calls == [("v1", None), ("v2", '{"id": 5}')]


# ----------------------------------------------------------------- errors


@pytest.mark.filterwarnings("ignore::telegram.warnings.PTBDeprecationWarning")
async def test_retry_after_blocks_the_chat_and_resends_first(
    sender: Sender, outbox: Outbox, delivery: FakeDelivery, clock: Clock
) -> None:
    """RetryAfter holds the whole chat for the wait Telegram asked for; other chats go
    on; afterwards the refused message goes first, then the chat's later ones."""
    delivery.fail("a1", RetryAfter(5))
    await outbox.put_many([msg(A, "a1"), msg(A, "a2"), msg(B, "b1")])
    await run_steps(sender)
    assert delivery.texts == ["a1", "b1"]

    clock.now = T0 + 1
    await outbox.put(msg(A, "a3"))
    assert await run_steps(sender) == 0
    clock.now = T0 + 4.9
    assert await run_steps(sender) == 0

    clock.now = T0 + 5.1
    await run_steps(sender)
    assert delivery.texts == ["a1", "b1", "a1", "a2", "a3"]
    assert await outbox.pending() == 0


async def test_network_error_retries_later_without_overtaking(
    sender: Sender, outbox: Outbox, delivery: FakeDelivery, clock: Clock
) -> None:
    """A network failure retries after a pause; the chat's later messages wait for it,
    other chats' messages do not."""
    delivery.fail("a1", NetworkError("connection reset"))
    await outbox.put_many([msg(A, "a1"), msg(A, "a2")])
    await run_steps(sender)
    assert delivery.texts == ["a1"]

    clock.now = T0 + 0.2
    await outbox.put(msg(B, "b1"))
    await run_steps(sender)
    assert delivery.texts == ["a1", "b1"]

    clock.now = T0 + 0.6  # the first pause is half a second
    await run_steps(sender)
    assert delivery.texts == ["a1", "b1", "a1", "a2"]
    assert await outbox.pending() == 0


@pytest.mark.filterwarnings("ignore::telegram.warnings.PTBDeprecationWarning")
async def test_only_a_try_that_may_have_arrived_is_repeated_quietly(
    sender: Sender, outbox: Outbox, delivery: FakeDelivery, clock: Clock
) -> None:
    """After a lost answer (a network error: Telegram may have the message) the next try
    asks for no notification; after Telegram's "wait" (it did nothing) it does not."""
    delivery.fail("lost", NetworkError("read timed out"))
    delivery.fail("wait", RetryAfter(1))
    await outbox.put_many([msg(A, "lost"), msg(B, "wait")])
    await run_steps(sender)
    clock.now = T0 + 2
    await run_steps(sender)
    assert list(zip(delivery.texts, delivery.quiet, strict=True)) == [
        ("lost", False), ("wait", False), ("lost", True), ("wait", False)]
    assert await outbox.pending() == 0


async def test_an_item_whose_ack_never_came_is_repeated_quietly(
    sender: Sender, outbox: Outbox, delivery: FakeDelivery, clock: Clock,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The sender died after Telegram accepted the batch, before the ack: once the
    lease runs out the items go again, quietly, and then never again."""
    await outbox.put_many([msg(A, "a1"), msg(B, "b1")])
    done_many = outbox.done_many
    deaths = [RuntimeError("killed")]

    async def dying(finished: list[tuple[Taken, str | None]]) -> None:
        if deaths:
            raise deaths.pop()
        await done_many(finished)

    monkeypatch.setattr(outbox, "done_many", dying)
    with pytest.raises(RuntimeError):
        await sender.step()
    assert await run_steps(sender) == 0  # leased to the dead sender
    clock.now = T0 + LEASE_S + 1
    await run_steps(sender)
    clock.now += LEASE_S + 1
    await run_steps(sender)
    assert list(zip(delivery.texts, delivery.quiet, strict=True)) == [
        ("a1", False), ("b1", False), ("a1", True), ("b1", True)]
    assert await outbox.pending() == 0


async def test_network_error_pause_grows_with_attempts(
    sender: Sender, outbox: Outbox, delivery: FakeDelivery, clock: Clock
) -> None:
    """The second failure waits twice as long as the first."""
    delivery.fail("a1", NetworkError("down"), NetworkError("down"))
    await outbox.put(msg(A, "a1"))
    await run_steps(sender)
    clock.now = T0 + 0.6
    await run_steps(sender)
    assert delivery.texts == ["a1", "a1"]
    clock.now = T0 + 1.5  # 0.6 + 1.0 not reached yet
    await run_steps(sender)
    assert delivery.texts == ["a1", "a1"]
    clock.now = T0 + 1.7
    await run_steps(sender)
    assert delivery.texts == ["a1", "a1", "a1"]
    assert await outbox.pending() == 0


async def test_network_error_gives_up_after_many_attempts(
    sender: Sender, outbox: Outbox, delivery: FakeDelivery, clock: Clock
) -> None:
    """A message that keeps failing is dropped after ``GIVE_UP_ATTEMPTS`` retries."""
    delivery.fail("a1", *(NetworkError("down") for _ in range(GIVE_UP_ATTEMPTS + 5)))
    await outbox.put(msg(A, "a1"))
    for _ in range(GIVE_UP_ATTEMPTS + 5):
        await sender.step()
        if not await outbox.pending():
            break
        clock.now += 61  # past the longest pause
    assert await outbox.pending() == 0
    assert len(delivery.calls) == GIVE_UP_ATTEMPTS + 1


async def test_bad_request_drops_the_item(
    sender: Sender, outbox: Outbox, delivery: FakeDelivery
) -> None:
    """A request Telegram rejects for good is not retried; the chat moves on."""
    delivery.fail("a1", BadRequest("can't parse entities"))
    await outbox.put_many([msg(A, "a1"), msg(A, "a2")])
    await run_steps(sender)
    assert delivery.texts == ["a1", "a2"]
    assert await outbox.pending() == 0


async def test_forbidden_private_message_is_dropped_and_hint_queued(
    sender: Sender, outbox: Outbox, delivery: FakeDelivery, unreachable: Unreachable,
    hint: Outgoing,
) -> None:
    """A private message to a user who never opened the bot is dropped, and the hint
    ``unreachable`` returns is queued and delivered."""
    private = Outgoing(ToUser(USER), Message("your hand"), table="t1")
    delivery.fail("your hand", Forbidden("bot can't initiate conversation with a user"))
    await outbox.put(private)
    assert await sender.step() is True
    assert unreachable.items == [private]
    assert await outbox.pending() == 1
    await run_steps(sender)
    assert delivery.texts == ["your hand", hint.message.text.plain()]
    assert await outbox.pending() == 0


async def test_chat_not_found_for_a_user_is_treated_like_forbidden(
    sender: Sender, outbox: Outbox, delivery: FakeDelivery, unreachable: Unreachable,
    hint: Outgoing,
) -> None:
    private = Outgoing(ToUser(USER), Message("your hand"), table="t1")
    delivery.fail("your hand", BadRequest("Chat not found"))
    await outbox.put(private)
    await run_steps(sender)
    assert unreachable.items == [private]
    assert delivery.texts == ["your hand", hint.message.text.plain()]
    assert await outbox.pending() == 0


async def test_forbidden_private_message_without_hint_queues_nothing(
    outbox: Outbox, delivery: FakeDelivery, clock: Clock
) -> None:
    """When ``unreachable`` has nothing to say, the message is just dropped."""
    none = Unreachable(None)
    sender = Sender(outbox, delivery, PLATFORM, SETTINGS, none, clock)
    delivery.fail("dm", Forbidden("bot was blocked by the user"))
    await outbox.put(Outgoing(ToUser(USER), Message("dm")))
    await run_steps(sender)
    assert len(none.items) == 1
    assert await outbox.pending() == 0
    assert delivery.texts == ["dm"]


async def test_forbidden_in_a_group_drops_without_hint(
    sender: Sender, outbox: Outbox, delivery: FakeDelivery, unreachable: Unreachable
) -> None:
    """Forbidden in a group (the bot was removed): dropped, nobody to hint."""
    delivery.fail("a1", Forbidden("bot was kicked from the group chat"))
    await outbox.put(msg(A, "a1"))
    await run_steps(sender)
    assert unreachable.items == []
    assert await outbox.pending() == 0


async def test_unexpected_error_does_not_stop_the_rest_of_the_batch(
    sender: Sender, outbox: Outbox, delivery: FakeDelivery, clock: Clock
) -> None:
    """One delivery raising something unexpected: the others are done; the failing one
    is tried again after a pause, and its chat waits for it meanwhile."""
    delivery.fail("a1", ValueError("bug"))
    await outbox.put_many([msg(A, "a1"), msg(B, "b1"), msg(C, "c1"), msg(A, "a2")])
    assert await sender.step() is True
    assert sorted(delivery.texts) == ["a1", "b1", "c1"]
    assert await outbox.pending() == 2  # a1 (waiting to be retried) and a2
    assert await sender.step() is False  # chat A is still a1's

    clock.now = T0 + 0.6  # the first pause is half a second
    await run_steps(sender)
    assert delivery.texts[3:] == ["a1", "a2"]
    assert await outbox.pending() == 0


async def test_a_delivery_bug_holds_its_chat_a_while_then_is_given_up(
    sender: Sender, outbox: Outbox, delivery: FakeDelivery, clock: Clock
) -> None:
    """A message that keeps failing holds its chat's later messages back (they keep
    their order) for ``hold_chat_s``; at its first failure past that the chat's next
    message goes, and the failing one is retried on its own until it is given up."""
    cycles = GIVE_UP_ATTEMPTS + 1
    delivery.fail("a1", *(ValueError("bug") for _ in range(cycles)))
    await outbox.put_many([msg(A, "a1"), msg(A, "a2")])
    a2_at: float | None = None
    while True:
        await run_steps(sender)
        if a2_at is None and "a2" in delivery.texts:
            a2_at = clock.now
        if not await outbox.pending():
            break
        wake = await outbox.next_wake()
        assert wake is not None, "something waits, so something is put aside"
        clock.now = wake  # each retry exactly when it is due
    assert delivery.texts.count("a1") == cycles and a2_at is not None
    failures = delivery.texts.index("a2")  # a1's failures before a2 went
    # a2 went at a1's first failure after hold_chat_s of waiting, at the same moment.
    assert waited_s(failures - 2) < SETTINGS.hold_chat_s <= waited_s(failures - 1)
    assert a2_at - T0 == pytest.approx(waited_s(failures - 1))


async def test_a_group_that_moved_gets_the_message_at_its_new_id(
    outbox: Outbox, delivery: FakeDelivery, unreachable: Unreachable, clock: Clock
) -> None:
    """Telegram answers that the group is now a supergroup with another id: the message
    goes there, the tables are told, and the chat's next message is not held up."""
    moves: list[tuple[str, str]] = []

    async def moved(old: str, new: str) -> None:
        moves.append((old, new))

    sender = Sender(outbox, delivery, PLATFORM, SETTINGS, unreachable, clock,
                    moved=moved)
    delivery.fail("a1", ChatMigrated(-100999))
    await outbox.put_many([msg(A, "a1"), msg(A, "a2")])
    await run_steps(sender)
    assert moves == [(A, "tg:-100999")]
    assert delivery.destinations == [("a1", A), ("a2", A), ("a1", "tg:-100999")] or \
        delivery.destinations == [("a1", A), ("a1", "tg:-100999"), ("a2", A)]
    assert await outbox.pending() == 0


def fail_taking(monkeypatch: pytest.MonkeyPatch, outbox: Outbox,
                failures: list[Exception]) -> None:
    """``outbox.take_many`` raises each of ``failures`` in turn, then works again."""
    original = outbox.take_many

    async def failing(now: float, most: int, lease_s: float = LEASE_S,
                      scan: int = 200) -> list[Taken]:
        if failures:
            raise failures.pop()
        return await original(now, most, lease_s, scan)

    monkeypatch.setattr(outbox, "take_many", failing)

async def test_run_sends_until_stopped_and_survives_a_failing_step(
    outbox: Outbox, delivery: FakeDelivery, unreachable: Unreachable, clock: Clock,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``run`` keeps going after a step raises (waiting twice the idle pause), delivers
    what is queued, waits the idle pause once there is nothing to do, and returns once
    ``stop`` is set."""
    failures: list[Exception] = [ConnectionError("redis hiccup")]
    fail_taking(monkeypatch, outbox, failures)
    await outbox.put_many([msg(A, "a1"), msg(B, "b1")])
    stop = asyncio.Event()
    pauses = Pauses(stop, until=lambda: len(delivery.calls) == 2)
    sender = Sender(outbox, delivery, PLATFORM, SETTINGS, unreachable, clock,
                    pause=pauses)
    await asyncio.wait_for(sender.run(stop, idle_s=0.005), 10.0)  # a safety net only
    assert failures == []
    assert sorted(delivery.texts) == ["a1", "b1"]
    # failed step: 2 x idle; the step that sent both: no pause; then idle with nothing to do
    assert pauses.waits == [0.01, 0.005]


async def test_a_lasting_outage_slows_the_loop_and_is_logged_now_and_then(
    outbox: Outbox, delivery: FakeDelivery, unreachable: Unreachable, clock: Clock,
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture,
) -> None:
    """With Redis gone the loop waits twice as long after each failure (up to
    ``MAX_IDLE_AFTER_FAILURE_S``) instead of spinning, and logs a traceback for the
    first failure and every hundredth only."""
    attempts = 0

    async def down(now: float, most: int, lease_s: float = LEASE_S,
                   scan: int = 200) -> list[Taken]:
        nonlocal attempts
        attempts += 1
        raise ConnectionError("redis is down")

    monkeypatch.setattr(outbox, "take_many", down)
    stop = asyncio.Event()
    pauses = Pauses(stop, until=lambda: attempts == 250)
    sender = Sender(outbox, delivery, PLATFORM, SETTINGS, unreachable, clock,
                    pause=pauses)
    await asyncio.wait_for(sender.run(stop, idle_s=0.01), 10.0)  # a safety net only
    assert attempts == len(pauses.waits) == 250
    assert pauses.waits[:9] == [0.02, 0.04, 0.08, 0.16, 0.32, 0.64, 1.28, 2.56,
                                MAX_IDLE_AFTER_FAILURE_S]
    assert set(pauses.waits[8:]) == {MAX_IDLE_AFTER_FAILURE_S}
    logged = [r.getMessage() for r in caplog.records if "sender step failed" in r.getMessage()]
    assert logged == [f"sender step failed ({n} in a row)" for n in (1, 100, 200)]


async def test_the_loop_is_back_to_the_idle_pause_after_an_outage(
    outbox: Outbox, delivery: FakeDelivery, unreachable: Unreachable, clock: Clock,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Once a step works again, the loop waits the plain idle pause."""
    fail_taking(monkeypatch, outbox, [ConnectionError("down")] * 3)
    stop = asyncio.Event()
    pauses = Pauses(stop, until=lambda: len(pauses.waits) == 5)
    sender = Sender(outbox, delivery, PLATFORM, SETTINGS, unreachable, clock,
                    pause=pauses)
    await asyncio.wait_for(sender.run(stop, idle_s=0.01), 10.0)  # a safety net only
    assert pauses.waits == [0.02, 0.04, 0.08, 0.01, 0.01]


async def test_the_default_pause_returns_when_stopped() -> None:
    """The real pause waits for ``stop`` rather than the whole time."""
    stop = asyncio.Event()
    stop.set()
    await asyncio.wait_for(pause_unless_stopped(stop, 3600.0), 10.0)


@pytest.mark.filterwarnings("ignore::telegram.warnings.PTBDeprecationWarning")
def test_retry_seconds_reads_either_form(monkeypatch: pytest.MonkeyPatch) -> None:
    """``retry_after`` as PTB's int seconds or (opted in) as a timedelta."""
    assert retry_seconds(RetryAfter(3)) == 3.0
    monkeypatch.setenv("PTB_TIMEDELTA", "1")
    assert retry_seconds(RetryAfter(timedelta(seconds=2.5))) == 2.5


# ----------------------------------------------------------------- pictures

#: Picture settings of these tests: three tries 2 s, then 4 s apart; a pause of 120 s.
PICS = replace(SETTINGS, picture_attempts=3, picture_retry_s=2.0, picture_pause_s=120.0)


def pic(chat: str, text: str, *, slot: str | None = None, version: int = 0) -> Outgoing:
    """A message with a picture to a group chat."""
    return Outgoing(ToChat(chat), Message(text, picture=Picture(b"png", "b.png"),
                                          slot=slot), version=version)


def failing(exc: TelegramError, method: str, status: str) -> TelegramError:
    """``exc`` as ``Delivery`` raises it: naming the call that failed."""
    exc.failed_call = FailedCall(method, status, exc.message,  # type: ignore[attr-defined]
                                  picture=method in PICTURE_METHODS)
    return exc


def server_error() -> TelegramError:
    return failing(NetworkError("Internal Server Error"), "sendPhoto", "500")


@pytest.fixture
def pictures_sender(outbox: Outbox, delivery: FakeDelivery, unreachable: Unreachable,
                    clock: Clock) -> Sender:
    return Sender(outbox, delivery, PLATFORM, PICS, unreachable, clock)


async def test_a_failing_picture_is_retried_without_holding_its_chat_then_goes_as_text(
    pictures_sender: Sender, outbox: Outbox, delivery: FakeDelivery, clock: Clock,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """A picture failing with a server error is tried again 2 s and 4 s later while the
    chat's next message goes at once; the third failure sends the text (with the
    picture left out) at once, and the picture is set to follow after the pause."""
    caplog.set_level(logging.DEBUG)
    delivery.fail_picture("table", server_error(), server_error(), server_error())
    await outbox.put_many([pic(A, "table"), msg(A, "rules")])
    await run_steps(pictures_sender)
    assert delivery.texts == ["table", "rules"]  # the next message did not wait
    for now in (T0 + 2, T0 + 6):
        clock.now = now - 0.01
        assert await run_steps(pictures_sender) == 0  # not before its time
        clock.now = now
        await run_steps(pictures_sender)
    assert delivery.texts == ["table", "rules", "table", "table", "table"]
    assert delivery.as_text == [False, False, False, False, True]
    assert await outbox.pending() == 0 and await outbox.following() == 1
    warnings = [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]
    assert warnings == [
        "sendPhoto for tg:-1001 failed (500 Internal Server Error); trying again",
        "sendPhoto for tg:-1001 failed (500 Internal Server Error) after 3 tries: sent as "
        "text; the picture follows in 120 s"]


async def test_a_refused_picture_goes_as_text_at_once_and_the_chat_takes_text_meanwhile(
    pictures_sender: Sender, outbox: Outbox, delivery: FakeDelivery, clock: Clock,
) -> None:
    """A 400 on the picture: the text goes in the same step. The chat's next picture
    goes as text straight away until the pause is over; other chats keep theirs."""
    delivery.fail_picture("t1", failing(BadRequest("PHOTO_INVALID_DIMENSIONS"),
                                        "editMessageMedia", "400"))
    await outbox.put(pic(A, "t1"))
    await run_steps(pictures_sender)
    assert list(zip(delivery.texts, delivery.as_text, strict=True)) == [
        ("t1", False), ("t1", True)]
    clock.now = T0 + 119
    await outbox.put_many([pic(A, "t2"), pic(B, "b1")])
    await run_steps(pictures_sender)
    assert set(zip(delivery.texts[-2:], delivery.as_text[-2:], strict=True)) == {
        ("b1", False), ("t2", True)}
    clock.now = T0 + 121
    await outbox.put(pic(A, "t3"))
    await run_steps(pictures_sender)
    assert (delivery.texts[-1], delivery.as_text[-1]) == ("t3", False)


async def test_the_picture_follows_once_the_pause_is_over(
    pictures_sender: Sender, outbox: Outbox, delivery: FakeDelivery, clock: Clock,
) -> None:
    """A slot's picture follows its text after the pause, with the slot's record, and
    is stored as the slot's new record; it is not ``pending`` meanwhile and holds
    nothing of its chat."""
    delivery.records["v1"] = '{"id": 7, "photo": false}'
    delivery.records["v1 (picture)"] = '{"id": 8, "photo": true}'
    delivery.fail_picture("v1", failing(BadRequest("Bad Request"), "sendPhoto", "400"))
    await outbox.put(pic(A, "v1", slot="table", version=1))
    await run_steps(pictures_sender)
    assert await outbox.pending() == 0 and await outbox.following() == 1
    await outbox.put(msg(A, "hello"))
    await run_steps(pictures_sender)  # not held by the picture waiting
    assert delivery.followed == []
    clock.now = T0 + 120
    await run_steps(pictures_sender)
    assert delivery.followed == [("v1", '{"id": 7, "photo": false}')]
    assert await outbox.following() == 0
    await outbox.put(pic(A, "v2", slot="table", version=2))
    await run_steps(pictures_sender)
    assert delivery.calls[-1] == ("v2", '{"id": 8, "photo": true}')


async def test_a_picture_of_an_older_version_does_not_follow(
    pictures_sender: Sender, outbox: Outbox, delivery: FakeDelivery, clock: Clock,
) -> None:
    """When the slot moved on to a version whose picture went, the older picture is
    dropped instead of following."""
    delivery.fail_picture("v1", failing(BadRequest("Bad Request"), "sendPhoto", "400"))
    await outbox.put(pic(A, "v1", slot="table", version=1))
    await run_steps(pictures_sender)
    clock.now = T0 + 121  # the chat takes pictures again; v2 goes with its picture
    await outbox.put(pic(A, "v2", slot="table", version=2))
    await run_steps(pictures_sender)
    assert (delivery.texts[-1], delivery.as_text[-1]) == ("v2", False)
    await run_steps(pictures_sender)
    assert delivery.followed == [] and await outbox.following() == 0


async def test_a_following_picture_that_keeps_failing_is_dropped_after_its_tries(
    pictures_sender: Sender, outbox: Outbox, delivery: FakeDelivery, clock: Clock,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """A /board picture privately: refused, its text goes; the picture following it
    fails once a pause three times and is then dropped, said once."""
    delivery.fail_picture("board", failing(BadRequest("Bad Request"), "sendPhoto", "400"),
                          *(server_error() for _ in range(3)))
    await outbox.put(pic(USER, "board"))
    await run_steps(pictures_sender)
    for n in range(1, 4):
        clock.now = T0 + 120 * n
        await run_steps(pictures_sender)
        assert len(delivery.followed) == n
    assert await outbox.following() == 0
    clock.now = T0 + 1000
    await run_steps(pictures_sender)
    assert len(delivery.followed) == 3
    dropped = [r.getMessage() for r in caplog.records if "dropped" in r.getMessage()]
    assert dropped == [f"the picture for {USER} is dropped after 3 tries "
                       "(500 Internal Server Error)"]


async def test_a_text_message_that_keeps_failing_is_logged_once(
    sender: Sender, outbox: Outbox, delivery: FakeDelivery, clock: Clock,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """Retries of a failing call are not logged, only its first failure (method, chat,
    status) and how it ended."""
    delivery.fail("a1", *(failing(NetworkError("Bad Gateway"), "sendMessage", "502")
                          for _ in range(5)))
    await outbox.put(msg(A, "a1"))
    for _ in range(6):
        await run_steps(sender)
        clock.now += MAX_BACKOFF_S
    assert delivery.texts == ["a1"] * 6
    logged = [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]
    assert logged == ["sendMessage for tg:-1001 failed (502 Bad Gateway); trying again"]


# ----------------------------------------------------------------- limit keys


def test_topics_of_a_forum_share_the_group_window() -> None:
    """Every topic of a forum counts against its group's limit."""
    one = limit_key(msg("tg:-100123/5", "x"))
    two = limit_key(msg("tg:-100123/9", "x"))
    assert one == two == limit_key(msg("tg:-100123", "x"))
    assert one != limit_key(msg("tg:-100124", "x"))


def test_telegram_limits_use_group_and_private_windows() -> None:
    """Groups get the group window, private chats (by user or by positive chat id) the
    private one."""
    settings = TelegramSettings(token="1:t", group_per_window=20, group_window_s=60.0,
                                private_per_window=1, private_window_s=1.0)
    limits = platform_windows(TelegramPlatform.from_settings(cast(Bot, None), settings))
    assert limits(msg("tg:-1001", "x"))[1:] == (20, 60.0)
    assert limits(Outgoing(ToUser(USER), Message("x")))[1:] == (1, 1.0)
    assert limits(msg(USER, "x"))[1:] == (1, 1.0)


def test_private_chat_as_chat_and_as_user_is_one_window() -> None:
    """A user's private chat is the same Telegram chat whether addressed by user or by
    chat id, so it must count in one window."""
    as_user = Outgoing(ToUser(USER), Message("x"))
    as_chat = msg(USER, "x")
    assert limit_key(as_user) == limit_key(as_chat)


async def test_answer_and_private_message_to_one_chat_stay_in_order(outbox: Outbox) -> None:
    """An answer in a private chat queued before a ToUser message to the same user is
    not in flight at the same time as it."""
    await outbox.put_many([msg(USER, "answer"),
                           Outgoing(ToUser(USER), Message("your hand"))])
    batch = await outbox.take_many(T0, 10)
    assert [t.item.message.text.plain() for t in batch] == ["answer"]
