"""The sender loop: takes items from the outbox, keeps to the rate limits, delivers.

Errors are sorted by what helps: ``RetryAfter`` waits as long as Telegram asks;
network trouble retries with growing pauses; a user who never opened a chat with the
bot (or blocked it) is asked in the table's chat to open one, with a deep link; a
request Telegram rejects for good is logged and dropped.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import replace
from datetime import timedelta

from telegram.error import (
    BadRequest,
    ChatMigrated,
    Forbidden,
    NetworkError,
    RetryAfter,
    TelegramError,
)

from adapters.telegram.delivery import Delivery
from adapters.telegram.ids import chat_key, parse_chat, parse_user
from adapters.telegram.outbox import Outbox, Taken, destination
from adapters.telegram.settings import TelegramSettings
from bot.ui import Outgoing, ToChat, ToUser

log = logging.getLogger(__name__)
MAX_BACKOFF_S = 60.0
GIVE_UP_ATTEMPTS = 50
MAX_IDLE_AFTER_FAILURE_S = 5.0

# Called with a private message that could not be delivered; returns the hint to send.
Unreachable = Callable[[Outgoing], Awaitable[Outgoing | None]]
# Called when Telegram says a group now lives under a new id: (old id, new id).
Moved = Callable[[int, int], Awaitable[None]]


# How the loop waits between steps: (stop, seconds); returns early once stop is set.
Pause = Callable[[asyncio.Event, float], Awaitable[None]]


async def _nowhere(_old: int, _new: int) -> None:
    """The default for ``Sender(moved=...)``: nobody to tell."""


async def pause_unless_stopped(stop: asyncio.Event, seconds: float) -> None:
    """Wait ``seconds``, or less if ``stop`` is set meanwhile."""
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(stop.wait(), seconds)


def retry_seconds(exc: RetryAfter) -> float:
    """``retry_after`` as seconds, whichever type this PTB version returns."""
    value = exc.retry_after
    return value.total_seconds() if isinstance(value, timedelta) else float(value)


def limit_key(item: Outgoing) -> str:
    """The rate-limit window a message counts in: its Telegram chat (every topic of a
    forum shares the group's limit)."""
    if isinstance(item.to, ToUser):
        return f"chat:{parse_user(item.to.user_id)}"  # a private chat's id is the user's
    return f"chat:{parse_chat(item.to.chat_id)[0]}"


def telegram_limits(settings: TelegramSettings) -> Callable[[Outgoing], tuple[str, int, float]]:
    """Telegram's limits as outbox windows: groups per minute, private chats per second."""
    def limits(item: Outgoing) -> tuple[str, int, float]:
        key = limit_key(item)
        private = isinstance(item.to, ToUser) or parse_chat(destination(item))[0] > 0
        if private:
            return key, settings.private_per_window, settings.private_window_s
        return key, settings.group_per_window, settings.group_window_s
    return limits


class Sender:
    """Drains the outbox into Telegram, several chats at a time."""

    def __init__(
        self, outbox: Outbox, delivery: Delivery, settings: TelegramSettings,
        unreachable: Unreachable, clock: Callable[[], float] = time.time, batch: int = 16,
        moved: Moved = _nowhere, pause: Pause = pause_unless_stopped,
    ) -> None:
        """``unreachable`` turns an undeliverable private message into a group hint;
        ``moved`` hears of a group that changed its id; ``batch`` is how many chats one
        step serves at once; ``pause`` is how ``run`` waits between steps (tests pass a
        fake, as they pass a fake ``clock``)."""
        self.outbox = outbox
        self.delivery = delivery
        self.settings = settings
        self.unreachable = unreachable
        self.clock = clock
        self.batch = batch
        self.moved = moved
        self.pause = pause

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

    async def _deliver(self, taken: Taken) -> tuple[bool, str | None]:
        """Deliver one item; (True, new slot record) when it may leave the outbox, False
        when it was already put back or removed here."""
        try:
            # A body taken before and never acknowledged may have reached Telegram: sent
            # again, a new message goes without a notification (see ``Outbox``).
            return True, await self.delivery.deliver(taken.item, taken.kept,
                                                     quiet=taken.retried)
        except RetryAfter as exc:
            # Telegram's wait applies to the whole chat: hold everything queued for it,
            # so later messages cannot overtake this one.
            now = self.clock()
            until = now + retry_seconds(exc) + 0.05
            await self.outbox.block(taken.lkey, until, now)
            await self.outbox.delay(taken, until, now, unsent=True)
            return False, None
        except Forbidden:
            await self._unreachable(taken)
            return False, None
        except ChatMigrated as exc:
            await self._follow(taken, exc.new_chat_id)
            return False, None
        except BadRequest as exc:
            if isinstance(taken.item.to, ToUser) and "chat not found" in exc.message.lower():
                # Telegram's answer for a user who never opened a chat with the bot, in
                # some cases: the same as a 403.
                await self._unreachable(taken)
                return False, None
            log.error("Telegram refused a message for %s: %s", destination(taken.item), exc)
            return True, None
        except NetworkError as exc:
            return await self._retry_later(taken, exc)
        except TelegramError as exc:
            # Errors with no remedy here (a token that stopped working, a conflict):
            # dropping the message keeps the chat's later ones moving.
            log.error("dropping a message for %s: %r", destination(taken.item), exc)
            return True, None
        except Exception as exc:  # a bug while delivering: retried, counted, given up
            log.exception("delivering a message for %s failed", destination(taken.item))
            return await self._retry_later(taken, exc)

    async def _unreachable(self, taken: Taken) -> None:
        """The recipient cannot be written to: drop the item, and for a private message
        queue the hint that asks them, in the table's chat, to open a chat with us."""
        await self.outbox.done(taken)
        if isinstance(taken.item.to, ToUser):
            hint = await self.unreachable(taken.item)
            if hint is not None:
                await self.outbox.put(hint)

    async def _follow(self, taken: Taken, new_id: int) -> None:
        """The group became a supergroup with a new id: send the item there instead, and
        let the tables know (their later messages then go there directly)."""
        await self.outbox.done(taken)
        item = taken.item
        if not isinstance(item.to, ToChat):
            return
        old_id, thread = parse_chat(item.to.chat_id)
        log.info("chat %s moved to %s", old_id, new_id)
        await self.outbox.put(replace(item, to=ToChat(chat_key(new_id, thread))))
        await self.moved(old_id, new_id)

    async def _retry_later(self, taken: Taken, exc: Exception) -> tuple[bool, str | None]:
        """Try again after a growing pause, holding the chat meanwhile so nothing
        overtakes the item; give up after ``GIVE_UP_ATTEMPTS``."""
        if taken.attempts >= GIVE_UP_ATTEMPTS:
            log.error("giving up on a message after %s attempts: %s", taken.attempts, exc)
            return True, None
        now = self.clock()
        pause = min(MAX_BACKOFF_S, 0.5 * 2 ** taken.attempts)
        await self.outbox.delay(taken, now + pause, now, failed=True, hold=True)
        return False, None

    async def run(self, stop: asyncio.Event, idle_s: float = 0.05) -> None:
        """Send until ``stop`` is set."""
        failures = 0
        while not stop.is_set():
            wait_s = idle_s
            try:
                busy = await self.step()
                failures = 0
            except Exception:  # the loop must survive anything, Redis outages included
                failures += 1
                # Log the first failure in full, then only now and then; wait longer
                # each time (up to MAX_IDLE_AFTER_FAILURE_S) instead of spinning.
                if failures == 1 or failures % 100 == 0:
                    log.exception("sender step failed (%s in a row)", failures)
                wait_s = min(MAX_IDLE_AFTER_FAILURE_S, idle_s * 2 ** min(failures, 10))
                busy = False
            if not busy:
                await self.pause(stop, wait_s)
