"""Failing on purpose: injected errors (``fail_next``) and Telegram's flood limits."""

from __future__ import annotations

import math
from dataclasses import dataclass

from tests.adapters.telegram.fake_api.errors import DEFAULT_DESCRIPTIONS, too_many
from tests.adapters.telegram.fake_api.state import FakeState
from tests.adapters.telegram.fake_api.world import JSONDict

#: ``error_code`` of a failure that answers nothing: the connection is dropped (the bot
#: sees a network error, as when a server or a proxy dies mid-request).
NETWORK = 0
#: ``times`` for a failure that lasts until ``clear_failures``.
ALWAYS = 10**9

# Methods that count against the simulated flood limits by default.
COUNTED_METHODS = frozenset(
    {
        "sendMessage",
        "sendPhoto",
        "editMessageText",
        "editMessageCaption",
        "editMessageMedia",
        "editMessageReplyMarkup",
    }
)


@dataclass(frozen=True)
class RateLimits:
    """Flood limits; ``None`` disables a limit. Defaults are Telegram's documented ones."""

    group_messages: int | None = 20
    group_window: float = 60.0
    private_messages: int | None = None
    private_window: float = 1.0
    global_messages: int | None = 30
    global_window: float = 1.0
    methods: frozenset[str] = COUNTED_METHODS


#: What ``_record_send`` keeps sends for while limits are off (one instance, not one a call).
_DEFAULT_LIMITS = RateLimits()


@dataclass
class RateLimitHit:
    method: str
    chat_id: int | None
    retry_after: int
    scope: str  # "chat" | "global"
    time: float


@dataclass
class Failure:
    method: str
    error_code: int
    description: str
    retry_after: int | None
    times: int
    chat_id: int | None
    after_effect: bool
    delay: float


class FailuresMixin(FakeState):
    """Errors a test asks for, and 429s for a bot that talks too fast."""

    # ------------------------------------------------------------------ failure injection

    def fail_next(
        self,
        method: str,
        error_code: int,
        description: str | None = None,
        retry_after: int | None = None,
        *,
        times: int = 1,
        chat_id: int | None = None,
        after_effect: bool = False,
        delay: float = 0.0,
    ) -> None:
        """Make the next ``times`` calls of ``method`` fail with a Telegram-shaped error.

        ``after_effect``: the call still takes effect and only the answer is an error
        (e.g. a 502 after the message was delivered).  ``chat_id`` restricts it to one chat.
        ``delay`` seconds before answering.  Use method "*" to match any method.
        """
        if error_code == NETWORK:
            description = "connection dropped"
        if description is None:
            description = (
                f"Too Many Requests: retry after {retry_after or 1}"
                if error_code == 429
                else DEFAULT_DESCRIPTIONS.get(error_code, f"Error {error_code}")
            )
        if error_code == 429 and retry_after is None:
            retry_after = 1
        self._failures.append(
            Failure(
                method, error_code, description, retry_after, times, chat_id, after_effect, delay
            )
        )

    def drop_next(
        self, method: str, *, times: int = 1, chat_id: int | None = None,
        after_effect: bool = False,
    ) -> None:
        """Make the next ``times`` calls of ``method`` fail on the network: the server
        closes the connection without an answer (``after_effect``: after acting on it)."""
        self.fail_next(method, NETWORK, times=times, chat_id=chat_id, after_effect=after_effect)

    def clear_failures(self, method: str | None = None) -> None:
        """Forget the failures asked for (of ``method`` only, if given)."""
        self._failures = [f for f in self._failures
                          if method is not None and f.method != method]

    def _take_failure(self, method: str, params: JSONDict) -> Failure | None:
        for failure in self._failures:
            if failure.method not in (method, "*"):
                continue
            if failure.chat_id is not None and params.get("chat_id") != failure.chat_id:
                continue
            failure.times -= 1
            if failure.times <= 0:
                self._failures.remove(failure)
            return failure
        return None

    # ------------------------------------------------------------------ rate limits

    def _chat_id_of(self, params: JSONDict) -> int | None:
        try:
            return self.chat(params["chat_id"]).id
        except (KeyError, TypeError, ValueError):
            return None

    def _check_rate(self, method: str, params: JSONDict) -> None:
        limits = self.rate_limits
        if limits is None or method not in limits.methods:
            return
        now = self.now()
        chat_id = self._chat_id_of(params)
        chat = self.chats.get(chat_id) if chat_id is not None else None
        checks: list[tuple[str, int | None, float, list[float]]] = []
        if limits.global_messages is not None:
            checks.append(
                (
                    "global",
                    limits.global_messages,
                    limits.global_window,
                    [t for t, _ in self._send_events if t > now - limits.global_window],
                )
            )
        if chat is not None:
            count, window = (
                (limits.group_messages, limits.group_window)
                if chat.is_group
                else (limits.private_messages, limits.private_window)
            )
            if count is not None:
                checks.append(
                    (
                        "chat",
                        count,
                        window,
                        [t for t, c in self._send_events if c == chat_id and t > now - window],
                    )
                )
        for scope, count, window, times in checks:
            if count is not None and len(times) >= count:
                oldest = sorted(times)[len(times) - count]
                retry_after = max(1, math.ceil(oldest + window - now))
                self.rate_limited.append(RateLimitHit(method, chat_id, retry_after, scope, now))
                raise too_many(retry_after)

    def _record_send(self, method: str, params: JSONDict) -> None:
        # recorded even while limits are off, so enabling them later sees earlier sends
        limits = self.rate_limits or _DEFAULT_LIMITS
        if method not in limits.methods:
            return
        now = self.now()
        self._send_events.append((now, self._chat_id_of(params)))
        horizon = max(limits.group_window, limits.private_window, limits.global_window)
        events = self._send_events
        while events and events[0][0] <= now - horizon:
            events.popleft()
