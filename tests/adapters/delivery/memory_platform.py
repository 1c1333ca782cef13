"""An in-memory chat platform for the delivery layer's tests: a test double of the
``adapters.delivery.Platform`` port that keeps every message it was asked to send and
fails the calls a test tells it to, with the failure kind the test names."""

from __future__ import annotations

from dataclasses import dataclass, field

from adapters.delivery.codec import destination
from adapters.delivery.platform import (
    FailedCall,
    Failure,
    FailureKind,
    PlatformLimits,
)
from bot.ui.message import Message, Outgoing, ToUser


class Boom(Exception):
    """A call the platform failed, and what it means."""

    def __init__(self, kind: FailureKind, status: str = "500", *, picture: bool = False,
                 retry_after_s: float = 0.0, moved_to: str | None = None) -> None:
        super().__init__(f"{kind.value} ({status})")
        self.kind = kind
        self.status = status
        self.picture = picture
        self.retry_after_s = retry_after_s
        self.moved_to = moved_to


@dataclass
class Shown:
    """A message as the platform shows it."""

    chat: str
    text: str
    picture: bool
    buttons: bool
    quiet: bool


@dataclass
class MemoryPlatform:
    """Keeps messages in memory; ``fail(text, ...)`` queues failures for calls that
    carry ``text``; ``fail_pictures`` makes every call with a picture fail."""

    name: str = "mem"
    limits: PlatformLimits = field(default_factory=PlatformLimits)
    messages: dict[str, Shown] = field(default_factory=dict)
    log: list[tuple[str, str, str]] = field(default_factory=list)  # (call, chat, text)
    failures: dict[str, list[Boom]] = field(default_factory=dict)
    fail_pictures: FailureKind | None = None
    _next_id: int = 0

    def fail(self, text: str, *errors: Boom) -> None:
        """The next calls carrying ``text`` raise ``errors``, one each."""
        self.failures.setdefault(text, []).extend(errors)

    def sent(self, chat: str | None = None) -> list[str]:
        """Texts of new messages (and pictures alone), in order, to ``chat`` or all."""
        return [text for call, where, text in self.log
                if call in ("send", "picture") and (chat is None or where == chat)]

    def calls(self, kind: str) -> list[str]:
        """Texts of the calls of one kind (send, edit, picture, strip)."""
        return [text for call, _, text in self.log if call == kind]

    def _maybe_fail(self, text: str, picture: bool) -> None:
        if picture and self.fail_pictures is not None:
            raise Boom(self.fail_pictures, "400" if self.fail_pictures is
                       FailureKind.PERMANENT else "500", picture=True)
        queued = self.failures.get(text)
        if queued:
            error = queued.pop(0)
            error.picture = error.picture and picture
            raise error

    def rate_key(self, item: Outgoing) -> tuple[str, bool]:
        """One window per chat; users' chats are private."""
        return "chat:" + destination(item), isinstance(item.to, ToUser)

    def classify(self, exc: BaseException, item: Outgoing) -> Failure | None:
        """``Boom`` is the platform's; anything else is a bug."""
        if not isinstance(exc, Boom):
            return None
        call = FailedCall("sendPicture" if exc.picture else "send", exc.status, str(exc),
                          picture=exc.picture)
        return Failure(exc.kind, call, retry_after_s=exc.retry_after_s, moved_to=exc.moved_to)

    async def send(self, item: Outgoing, message: Message, *, quiet: bool) -> str:
        text = message.text.plain()
        self._maybe_fail(text, message.picture is not None)
        self._next_id += 1
        message_id = str(self._next_id)
        self.messages[message_id] = Shown(destination(item), text, message.picture is not None,
                                          message.choices is not None, quiet)
        self.log.append(("send", destination(item), text))
        return message_id

    async def edit(self, item: Outgoing, message_id: str, message: Message, *,
                   was_picture: bool, new_picture: bool) -> None:
        text = message.text.plain()
        self._maybe_fail(text, new_picture)
        if message_id not in self.messages or (not was_picture and message.picture):
            # Gone, or a text message asked to become a picture (like Telegram, this
            # platform cannot do that: the courier sends a new message instead).
            raise Boom(FailureKind.GONE, "400")
        shown = self.messages[message_id]
        if shown.text == text and not new_picture \
                and shown.buttons == (message.choices is not None):
            raise Boom(FailureKind.UNCHANGED, "400")
        shown.text = text
        shown.buttons = message.choices is not None
        self.log.append(("edit", destination(item), text))

    async def send_picture(self, item: Outgoing, message: Message, *, quiet: bool) -> None:
        text = message.text.plain()
        self._maybe_fail(text, True)
        self.log.append(("picture", destination(item), text))

    async def strip_buttons(self, item: Outgoing, message_id: str) -> None:
        shown = self.messages[message_id]
        shown.buttons = False
        self.log.append(("strip", destination(item), shown.text))
