"""The sender loop: takes items from the outbox, keeps to the rate limits, delivers.

Failures are sorted by what helps (the platform classifies them: ``Platform.classify``):
a platform's request to wait is honoured for the whole chat; network trouble and
server errors retry with growing pauses, holding back the later messages of the item's
lane (its chat's messages about the same table, so they keep their order; the chat's
other messages go on) for ``hold_chat_s`` at most, then letting them go on too, and
give up after ``GIVE_UP_ATTEMPTS``; a user who cannot be written to (blocked the bot, never
opened a chat with it) is asked in the table's chat instead (``unreachable``), and is
sent nothing unasked after that until the core says their private chat is open again
(``Reach``: the platforms count refused calls against the bot); a chat
that moved gets the item at its new id; a request refused for good is logged and
dropped.

A picture never freezes a chat. One the platform refuses, or one that keeps failing
(``picture_attempts`` tries, without holding the chat meanwhile), is left out: the
message goes as text at once, with its buttons; the chat then takes no pictures for
``picture_pause_s`` (its messages go as text straight away), and the picture follows on
its own after that pause (``Outbox.follow``), or is dropped after its tries.

Every failed call is logged once, naming the method, the chat and the status
(``platform.FailedCall``); its retries are not, only how it ended.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field, replace
from typing import Protocol

from adapters.delivery.codec import destination
from adapters.delivery.outbox import Outbox, Taken
from adapters.delivery.platform import (
    FailedCall,
    Failure,
    FailureKind,
    Platform,
    unexpected,
)
from bot import metrics as figures
from bot.metrics import Metrics, NoMetrics
from bot.ui.message import Outgoing, ToChat, ToUser

log = logging.getLogger(__name__)
MAX_BACKOFF_S = 60.0
GIVE_UP_ATTEMPTS = 50
MAX_IDLE_AFTER_FAILURE_S = 5.0

# Called with a private message that could not be delivered; returns the hint to send.
Unreachable = Callable[[Outgoing], Awaitable[Outgoing | None]]
# Called when a chat now lives under a new id: (old Campfire chat id, new one).
Moved = Callable[[str, str], Awaitable[None]]
# How the loop waits between steps: (stop, seconds); returns early once stop is set.
Pause = Callable[[asyncio.Event, float], Awaitable[None]]


class Reach(Protocol):
    """Whose private chat refused messages (``bot.reach``, through ``Campfire``)."""

    async def dm_closed(self, user_id: str) -> bool:
        """Are private messages to ``user_id`` refused?"""
        ...

    async def dm_refused(self, user_id: str) -> None:
        """A private message to ``user_id`` was refused for good."""
        ...


class _AllOpen:
    """The default ``Reach``: every private chat is open, nothing is remembered."""

    async def dm_closed(self, user_id: str) -> bool:
        """Never."""
        return False

    async def dm_refused(self, user_id: str) -> None:
        """Forgotten."""


class Carrier(Protocol):
    """What delivers one item (``courier.Courier``; tests pass a fake)."""

    async def deliver(self, item: Outgoing, kept: str | None = None, *, quiet: bool = False,
                      as_text: bool = False) -> str | None:
        """Send or edit ``item``; the slot's new record, if it changed."""
        ...

    async def follow(self, item: Outgoing, kept: str | None = None) -> str | None:
        """Send the picture of ``item``, which went as text; the slot's new record."""
        ...


class Policy(Protocol):
    """How patient the sender is (a platform's settings provide these)."""

    @property
    def hold_chat_s(self) -> float:
        """How long a failing item may hold its chat's later messages back."""
        ...

    @property
    def picture_attempts(self) -> int:
        """Tries of a failing picture before its message goes as text (or it is dropped)."""
        ...

    @property
    def picture_retry_s(self) -> float:
        """The first pause between a failing picture's tries (doubled each time)."""
        ...

    @property
    def picture_pause_s(self) -> float:
        """How long a chat whose picture failed takes no pictures."""
        ...


async def _nowhere(_old: str, _new: str) -> None:
    """The default for ``Sender(moved=...)``: nobody to tell."""


async def _no_hint(_item: Outgoing) -> Outgoing | None:
    """The default for ``Sender(unreachable=...)``: nobody is asked."""
    return None


async def pause_unless_stopped(stop: asyncio.Event, seconds: float) -> None:
    """Wait ``seconds``, or less if ``stop`` is set meanwhile."""
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(stop.wait(), seconds)


def backoff_s(attempts: int) -> float:
    """The pause after the ``attempts``-th failure in a row (0: the first)."""
    return min(MAX_BACKOFF_S, 0.5 * 2.0 ** attempts)


def waited_s(attempts: int) -> float:
    """How long an item that failed ``attempts`` times has waited between its tries."""
    return sum(backoff_s(n) for n in range(attempts))


Outcome = tuple[bool, str | None]


# eq=False: a sender is one running drain, compared (and hashed) by identity.
@dataclass(eq=False)
class Sender:
    """Drains one platform's outbox, several chats at a time.

    ``carrier`` makes the calls, ``platform`` classifies their errors; ``unreachable``
    turns an undeliverable private message into a group hint; ``reach`` remembers whose
    private chat refused messages (by default: nobody's); ``moved`` hears of a chat
    that changed its id; ``batch`` is how many chats one step serves at once; ``pause``
    is how ``run`` waits between steps (tests pass a fake, as they pass a fake
    ``clock``); ``metrics`` hears of every failed call, by method and kind, and of every
    turn of ``run`` (its heartbeat: ``loop``).
    """

    outbox: Outbox
    carrier: Carrier
    platform: Platform
    policy: Policy
    unreachable: Unreachable = _no_hint
    clock: Callable[[], float] = time.time
    batch: int = 16
    moved: Moved = _nowhere
    pause: Pause = pause_unless_stopped
    reach: Reach = field(default_factory=_AllOpen)
    metrics: Metrics = field(default_factory=NoMetrics)

    @property
    def loop(self) -> str:
        """The name its heartbeat is reported under (``tg sender``)."""
        return f"{self.platform.name} sender"

    def _failed(self, call: FailedCall, kind: FailureKind) -> None:
        """Count a failed call (each try: the operator sees how often a method fails)."""
        self.metrics.count(figures.DELIVERY_FAILURES, {
            "platform": self.platform.name, "method": call.method,
            "kind": kind.name.lower()})

    async def step(self) -> bool:
        """Send what may go now, up to a message per chat for ``batch`` chats, all at
        once; False when nothing could go."""
        taken = await self.outbox.take_many(self.clock(), self.batch)
        if not taken:
            return False
        results = await asyncio.gather(*(self._deliver(t) for t in taken),
                                       return_exceptions=True)
        finished: list[tuple[Taken, str | None]] = []
        for item, result in zip(taken, results, strict=True):
            if isinstance(result, BaseException):
                # Left under its lease: it is tried again when the lease runs out.
                log.error("delivering %s failed", item.id, exc_info=result)
            elif result[0]:
                finished.append((item, result[1]))
        # Accepted items leave the outbox together: one round trip for the whole batch.
        await self.outbox.done_many(finished)
        return True

    async def _deliver(self, taken: Taken) -> Outcome:
        """Deliver one item; (True, new slot record) when it may leave the outbox, False
        when it was already put back or removed here."""
        if taken.follow:
            return await self._follow(taken)
        to = taken.item.to
        if isinstance(to, ToUser) and not taken.item.asked \
                and await self.reach.dm_closed(to.user_id):
            log.debug("a message for %s is dropped: their private chat refuses them",
                      destination(taken.item))
            return True, None
        if taken.item.message.picture is not None \
                and taken.pictures_off_until > self.clock():
            # Pictures fail in this chat: the text goes now, the picture follows later.
            await self.outbox.follow(taken, taken.pictures_off_until)
            return await self._attempt(taken, as_text=True)
        return await self._attempt(taken, as_text=False)

    async def _attempt(self, taken: Taken, *, as_text: bool, quiet: bool = False) -> Outcome:
        """One try of an item (``as_text``: without its picture)."""
        where = destination(taken.item)
        try:
            # A body taken before and never acknowledged may have reached the platform:
            # sent again, a new message goes without a notification (see ``Outbox``).
            return True, await self.carrier.deliver(taken.item, taken.kept,
                                                    quiet=taken.retried or quiet,
                                                    as_text=as_text)
        except Exception as exc:
            failure = self.platform.classify(exc, taken.item)
            if failure is None:  # a bug while delivering: retried, counted, given up
                if taken.attempts == 0:
                    log.exception("delivering a message for %s failed; trying again", where)
                self._failed(unexpected(exc), FailureKind.TRANSIENT)
                return await self._retry_later(taken, unexpected(exc), logged=True)
        call = failure.call
        kind = failure.kind
        self._failed(call, kind)
        if kind is FailureKind.RETRY_AFTER:
            # The wait applies to the whole chat: hold everything queued for it, so
            # later messages cannot overtake this one.
            await self._wait_out(taken, failure)
            return False, None
        if kind is FailureKind.UNREACHABLE:
            log.info("%s for %s refused (%s); not sent", call.method, where, call)
            await self._unreachable(taken)
            return False, None
        if kind is FailureKind.MOVED and failure.moved_to is not None:
            await self._follow_chat(taken, failure.moved_to)
            return False, None
        if kind is FailureKind.TRANSIENT:
            if call.picture and not as_text:
                return await self._picture_later(taken, call)
            return await self._retry_later(taken, call)
        if call.picture and not as_text:
            return await self._without_picture(taken, call)
        # Refused for good (or nothing here can help): dropping the message keeps the
        # chat's later ones moving.
        log.error("%s for %s refused (%s); dropped", call.method, where, call)
        return True, None

    async def _wait_out(self, taken: Taken, failure: Failure) -> None:
        """The platform asked to wait: the chat waits, and the item goes first afterwards."""
        now = self.clock()
        seconds = failure.retry_after_s
        log.info("%s for %s: %s, waiting %g s", failure.call.method,
                 destination(taken.item), failure.call.status, seconds)
        until = now + seconds + 0.05
        await self.outbox.block(taken.lkey, until, now)
        await self.outbox.delay(taken, until, now, unsent=True)

    async def _picture_later(self, taken: Taken, call: FailedCall) -> Outcome:
        """A picture failed, maybe for a moment: try it again after a pause, without
        holding the chat; after ``picture_attempts`` tries the text goes alone."""
        tries = taken.attempts + 1
        if tries >= self.policy.picture_attempts:
            return await self._without_picture(taken, call, tries)
        where = destination(taken.item)
        if taken.attempts == 0:
            log.warning("%s for %s failed (%s); trying again", call.method, where, call)
        else:
            log.debug("%s for %s failed again (%s)", call.method, where, call)
        now = self.clock()
        pause = self.policy.picture_retry_s * 2 ** taken.attempts
        await self.outbox.delay(taken, now + pause, now, failed=True)
        return False, None

    async def _without_picture(self, taken: Taken, call: FailedCall, tries: int = 1) -> Outcome:
        """The picture cannot go now: the chat takes no pictures for a while, the text
        goes at once, and the picture follows after the pause."""
        now = self.clock()
        until = now + self.policy.picture_pause_s
        after = f" after {tries} tries" if tries > 1 else ""
        log.warning("%s for %s failed (%s)%s: sent as text; the picture follows in %g s",
                    call.method, destination(taken.item), call, after,
                    self.policy.picture_pause_s)
        await self.outbox.pause_pictures(taken.lkey, until, now)
        await self.outbox.follow(taken, until)
        # A try that got no answer may have arrived after all: the text then goes
        # without a second notification.
        unanswered = not call.status.isdigit()
        return await self._attempt(taken, as_text=True, quiet=unanswered)

    async def _follow(self, taken: Taken) -> Outcome:
        """A picture following its text: sent if it is still the newest of its slot and
        the chat takes pictures again; after ``picture_attempts`` tries (or a refusal)
        dropped."""
        item = taken.item
        where = destination(item)
        if item.message.slot and await self.outbox.slot_version(taken) != item.version:
            return True, None  # the slot shows a newer version: its own picture goes
        now = self.clock()
        if taken.pictures_off_until > now:
            await self.outbox.delay(taken, taken.pictures_off_until, now)
            return False, None
        try:
            record = await self.carrier.follow(item, taken.kept)
        except Exception as exc:  # any failure: wait a pause, a few times at most
            failure = self.platform.classify(exc, item)
            call = failure.call if failure is not None else unexpected(exc)
            kind = failure.kind if failure is not None else FailureKind.TRANSIENT
            self._failed(call, kind)
            if kind is FailureKind.RETRY_AFTER and failure is not None:
                await self._wait_out(taken, failure)
                return False, None
            if kind in (FailureKind.UNREACHABLE, FailureKind.MOVED):
                log.info("the picture for %s is dropped (%s)", where, call)
                return True, None
            tries = taken.attempts + 1
            until = now + self.policy.picture_pause_s
            await self.outbox.pause_pictures(taken.lkey, until, now)
            if kind is FailureKind.PERMANENT or call.permanent \
                    or tries >= self.policy.picture_attempts:
                log.warning("the picture for %s is dropped after %s %s (%s)", where,
                            tries, "try" if tries == 1 else "tries", call)
                return True, None
            if taken.attempts == 0:
                log.warning("the picture for %s failed again (%s); next try in %g s",
                            where, call, self.policy.picture_pause_s)
            await self.outbox.delay(taken, until, now, failed=True)
            return False, None
        log.info("the picture for %s followed its text", where)
        return True, record

    async def _unreachable(self, taken: Taken) -> None:
        """The recipient cannot be written to: drop the item, and for a private message
        queue the hint that asks them, in the table's chat, to open a chat with us."""
        await self.outbox.done(taken)
        if isinstance(taken.item.to, ToUser):
            await self.reach.dm_refused(taken.item.to.user_id)
            hint = await self.unreachable(taken.item)
            if hint is not None:
                await self.outbox.put(hint)

    async def _follow_chat(self, taken: Taken, new_chat: str) -> None:
        """The chat lives under a new id (a Telegram group became a supergroup): send
        the item there instead, and let the tables know (their later messages then go
        there directly)."""
        await self.outbox.done(taken)
        item = taken.item
        if not isinstance(item.to, ToChat):
            return
        log.info("chat %s moved to %s", item.to.chat_id, new_chat)
        await self.outbox.put(replace(item, to=ToChat(new_chat)))
        await self.moved(item.to.chat_id, new_chat)

    async def _retry_later(self, taken: Taken, call: FailedCall, *,
                           logged: bool = False) -> Outcome:
        """Try again after a growing pause, holding its lane meanwhile (for
        ``hold_chat_s`` at most) so nothing of its table overtakes the item; give up after
        ``GIVE_UP_ATTEMPTS``."""
        where = destination(taken.item)
        if taken.attempts >= GIVE_UP_ATTEMPTS:
            log.error("%s for %s failed %s times (%s); given up", call.method, where,
                      taken.attempts + 1, call)
            return True, None
        waited = waited_s(taken.attempts)
        hold = waited < self.policy.hold_chat_s
        if taken.attempts == 0 and not logged:
            log.warning("%s for %s failed (%s); trying again", call.method, where, call)
        elif taken.attempts > 0 and not hold \
                and waited_s(taken.attempts - 1) < self.policy.hold_chat_s:
            log.warning("%s for %s still fails after %s attempts (%s); the messages "
                        "queued behind it go on meanwhile", call.method, where,
                        taken.attempts + 1, call)
        now = self.clock()
        await self.outbox.delay(taken, now + backoff_s(taken.attempts), now, failed=True,
                                hold=hold)
        return False, None

    async def run(self, stop: asyncio.Event, idle_s: float = 0.05) -> None:
        """Send until ``stop`` is set. With nothing to send the loop rests ``idle_s``, or
        less: an item queued through this process's outbox wakes it at once
        (``Outbox.nudged``); the rest bounds how late it sees items queued by other
        processes, or put aside until a time."""
        failures = 0
        nudged = self.outbox.nudged
        while not stop.is_set():
            # Every turn, failing or not, says the loop is alive (``/readyz``): a step
            # stuck in a call stops the beats.
            self.metrics.beat(self.loop)
            # Cleared before the step looks: whatever is queued from now on wakes the
            # rest below (an item queued during the step may have been missed by it).
            nudged.clear()
            try:
                busy = await self.step()
                failures = 0
            except Exception:  # the loop must survive anything, Redis outages included
                failures += 1
                # Log the first failure in full, then only now and then; wait longer
                # each time (up to MAX_IDLE_AFTER_FAILURE_S) instead of spinning.
                if failures == 1 or failures % 100 == 0:
                    log.exception("sender step failed (%s in a row)", failures)
                await self.pause(stop, min(MAX_IDLE_AFTER_FAILURE_S,
                                           idle_s * 2 ** min(failures, 10)))
                continue
            if not busy and not nudged.is_set():
                await self._rest(stop, nudged, idle_s)

    async def _rest(self, stop: asyncio.Event, nudged: asyncio.Event, seconds: float) -> None:
        """The idle pause, cut short when something is queued here (``nudged``).

        A press's messages used to wait for the end of the pause they were queued in:
        half of it on average, a quarter of a press's latency in bench.telegram_updates.
        """
        pause = asyncio.ensure_future(self.pause(stop, seconds))
        woken = asyncio.ensure_future(nudged.wait())
        try:
            await asyncio.wait((pause, woken), return_when=asyncio.FIRST_COMPLETED)
        finally:
            for task in (pause, woken):
                task.cancel()
