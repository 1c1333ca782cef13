"""The port a chat platform implements to be served by the shared delivery layer.

The layer (outbox, sender, courier, due loop) knows nothing of any platform's API: it
asks a ``Platform`` to make four kinds of call (send, edit, send a picture on its own,
take the buttons off a message), and to say what a failed call means (``classify``).
Everything else — the queue, per-chat order, rate windows, coalescing of a slot's
edits, retries with a bound, the text fallback of a picture — is the layer's.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Protocol

from bot.ui.message import Message, Outgoing


@dataclass(frozen=True)
class PlatformLimits:
    """What a platform declares it accepts: messages per window in a private chat and in
    a group (each chat has its own window), messages per second for the bot as a whole,
    and the longest text and picture caption, in characters."""

    private_per_window: int = 1_000_000
    private_window_s: float = 1.0
    group_per_window: int = 1_000_000
    group_window_s: float = 1.0
    global_per_second: int = 1_000_000
    text_chars: int = 4096
    caption_chars: int = 1024


class FailureKind(enum.Enum):
    """What a failed call means for the item that made it."""

    RETRY_AFTER = "retry after"  # the platform asked us to wait (``Failure.retry_after_s``)
    UNREACHABLE = "unreachable"  # the user blocked the bot or never opened a chat with it
    MOVED = "moved"  # the chat lives under a new id now (``Failure.moved_to``)
    PERMANENT = "permanent"  # refused for good: sent again unchanged, it fails again
    TRANSIENT = "transient"  # server or network trouble: it may go through later
    GONE = "gone"  # the message to edit no longer exists (or cannot be edited)
    UNCHANGED = "unchanged"  # an edit that would change nothing


@dataclass(frozen=True)
class FailedCall:
    """Which platform call failed and how, for the one log line written about it:
    ``status`` is the answer's status ("500", "400"…) or "timeout" / "network error"
    when none came; ``picture``: the call carried a picture (without it the message may
    still go)."""

    method: str
    status: str
    detail: str
    picture: bool = False

    def __str__(self) -> str:
        """``500 Internal Server Error`` (the method is said beside it)."""
        if self.detail and self.detail != self.status:
            return f"{self.status} {self.detail}"
        return self.status

    @property
    def permanent(self) -> bool:
        """The platform refused the request itself (a 4xx other than 429)."""
        return self.status.isdigit() and 400 <= int(self.status) < 500 \
            and self.status != "429"


@dataclass(frozen=True)
class Failure:
    """A failed call, classified by its platform."""

    kind: FailureKind
    call: FailedCall
    retry_after_s: float = 0.0
    moved_to: str | None = None  # the Campfire chat id the chat moved to (MOVED)


def unexpected(exc: BaseException) -> FailedCall:
    """The call record of an error no platform classified (a bug, say)."""
    message = getattr(exc, "message", None) or str(exc)
    return FailedCall("delivery", type(exc).__name__, str(message)[:200])


class Platform(Protocol):
    """A chat platform as the delivery layer sees it (see ``adapters.delivery``).

    Message ids are the platform's, as strings. ``item`` is always passed so that the
    platform can find the chat (and thread) it goes to. Calls raise the platform's own
    errors; ``classify`` tells the layer what they mean.
    """

    #: Short and stable: it names the platform's Redis keys (``<prefix><name>out:``).
    name: str
    limits: PlatformLimits

    def rate_key(self, item: Outgoing) -> tuple[str, bool]:
        """The rate window ``item`` counts in (one per chat, however the platform splits
        chats into threads), and whether that chat is private."""
        ...

    def classify(self, exc: BaseException, item: Outgoing) -> Failure | None:
        """What a call's error means; None when it is not the platform's (a bug)."""
        ...

    async def send(self, item: Outgoing, message: Message, *, quiet: bool) -> str:
        """Send ``message`` (``item``'s, maybe without its picture) as a new message;
        ``quiet``: without a notification. The new message's id."""
        ...

    async def edit(self, item: Outgoing, message_id: str, message: Message, *,
                   was_picture: bool, new_picture: bool) -> None:
        """Make message ``message_id`` show ``message``. ``was_picture``: it is a picture
        message (the text is its caption); ``new_picture``: its picture changes too."""
        ...

    async def send_picture(self, item: Outgoing, message: Message, *, quiet: bool) -> None:
        """``message``'s picture on its own, captioned with its text's first line (the
        picture of a message that went as text)."""
        ...

    async def strip_buttons(self, item: Outgoing, message_id: str) -> None:
        """Take the buttons off message ``message_id`` (an older copy of a slot)."""
        ...
