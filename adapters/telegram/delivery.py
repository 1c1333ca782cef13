"""Telegram's side of the delivery port: Bot API calls, and what their errors mean.

The shared layer (``adapters.delivery``) queues, orders, rate-limits, coalesces and
retries; this module makes the calls it asks for (``TelegramPlatform``: send, edit,
send a picture alone, take buttons off) and classifies Telegram's errors for it. A
table message with a picture is a photo whose caption is the text; a new picture
replaces the photo in place (editMessageMedia).

Every error raised here names the Bot API method that failed and the answer's status
(``failed_call``), for the one log line the sender writes about it.
"""

from __future__ import annotations

import warnings
from collections.abc import Awaitable
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any, TypeVar

from telegram import Bot, InlineKeyboardMarkup, InputFile, InputMediaPhoto
from telegram.constants import ParseMode
from telegram.error import (
    BadRequest,
    ChatMigrated,
    Conflict,
    Forbidden,
    InvalidToken,
    NetworkError,
    RetryAfter,
    TelegramError,
    TimedOut,
)
from telegram.warnings import PTBUserWarning

from adapters.delivery.platform import FailedCall, Failure, FailureKind, PlatformLimits
from adapters.telegram.http import LAST_STATUS
from adapters.telegram.ids import chat_key, parse_chat, parse_user
from adapters.telegram.page_buttons import PageButtons
from adapters.telegram.render import CAPTION_LIMIT, TEXT_LIMIT, JSONDict, fit, keyboard
from adapters.telegram.settings import TelegramSettings
from bot import metrics as figures
from bot.metrics import Metrics, NoMetrics
from bot.ui.markup import Rich
from bot.ui.message import Message, Outgoing, ToChat, ToUser

__all__ = ["PICTURE_METHODS", "FailedCall", "TelegramPlatform", "failed_call", "fit",
           "keyboard", "limit_key", "named", "note_failure", "retry_seconds", "status_of"]

#: The calls that carry a picture: when one of these fails, the text can still go.
PICTURE_METHODS = frozenset({"sendPhoto", "editMessageMedia"})
T = TypeVar("T")

_STATUS_BY_TYPE: tuple[tuple[type[TelegramError], str], ...] = (
    (RetryAfter, "429"), (ChatMigrated, "400"), (BadRequest, "400"), (Forbidden, "403"),
    (Conflict, "409"), (InvalidToken, "401"), (TimedOut, "timeout"),
    (NetworkError, "network error"),
)


def status_of(exc: BaseException, http_status: int | None = None) -> str:
    """The status to log for a failed call: the HTTP status of the answer if there was
    an error answer, else what the error type says."""
    if http_status is not None and http_status >= 300 and not isinstance(exc, TimedOut):
        return str(http_status)
    for kind, status in _STATUS_BY_TYPE:
        if isinstance(exc, kind):
            return status
    return type(exc).__name__


def note_failure(exc: BaseException, method: str) -> FailedCall:
    """Record on ``exc`` which call it ended (kept if it was recorded already)."""
    found = getattr(exc, "failed_call", None)
    if isinstance(found, FailedCall):
        return found
    message = getattr(exc, "message", None) or str(exc)
    call = FailedCall(method, status_of(exc, LAST_STATUS.get()), str(message)[:200],
                      picture=method in PICTURE_METHODS)
    exc.failed_call = call  # type: ignore[attr-defined]
    return call


def failed_call(exc: BaseException) -> FailedCall:
    """What ``exc`` says of the call it ended (method "delivery" when it came from
    elsewhere: a bug, say)."""
    found = getattr(exc, "failed_call", None)
    if isinstance(found, FailedCall):
        return found
    message = getattr(exc, "message", None) or str(exc)
    return FailedCall("delivery", status_of(exc), str(message)[:200])


async def named(method: str, call: Awaitable[T]) -> T:
    """Await a Bot API call; an error it raises names ``method`` (``failed_call``)."""
    try:
        return await call
    except TelegramError as exc:
        note_failure(exc, method)
        raise


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


# Text messages go out through ``Bot.do_api_request`` with plain JSON parameters and come
# back as plain JSON: building PTB objects for every keyboard and parsing every returned
# message into a ``telegram.Message`` was a quarter of the CPU a button press cost (see
# bench/telegram_updates.py), and only the message id is ever read. PTB advises using its
# named methods instead; here that advice is deliberately declined.
warnings.filterwarnings("ignore", message=r"Please use 'Bot\.\w+' instead of "
                        r"'Bot\.do_api_request", category=PTBUserWarning)


def _where(item: Outgoing) -> tuple[int, int | None]:
    """(Telegram chat id, forum topic) of the item's destination."""
    if isinstance(item.to, ToChat):
        return parse_chat(item.to.chat_id)
    return parse_user(item.to.user_id), None


def _private(item: Outgoing) -> bool:
    """Does the item go to a private chat? (Private chats have positive ids.)"""
    return isinstance(item.to, ToUser) or parse_chat(item.to.chat_id)[0] > 0


def _gone(text: str) -> bool:
    return "not found" in text or "can't be edited" in text or "message_id_invalid" in text


@dataclass
class TelegramPlatform:
    """The ``adapters.delivery.Platform`` of Telegram, through PTB's ``bot``."""

    bot: Bot
    limits: PlatformLimits
    name: str = "tg"  # the outbox's keys (``tgout:``, ``tgslots``) as they always were
    # How a table's page opens from a button, when the pages are served.
    pages: PageButtons | None = None
    # Hears of every call that delivered, by method (the sender counts the failures).
    metrics: Metrics = field(default_factory=NoMetrics)

    @classmethod
    def from_settings(cls, bot: Bot, settings: TelegramSettings,
                      pages: PageButtons | None = None,
                      metrics: Metrics | None = None) -> TelegramPlatform:
        """Telegram's limits as the settings declare them (``pages``: how a table's
        page opens, when the pages are served; ``metrics``: where deliveries are
        counted)."""
        return cls(bot, pages=pages, metrics=metrics or NoMetrics(), limits=PlatformLimits(
            private_per_window=settings.private_per_window,
            private_window_s=settings.private_window_s,
            group_per_window=settings.group_per_window,
            group_window_s=settings.group_window_s,
            global_per_second=settings.global_per_second,
            text_chars=TEXT_LIMIT, caption_chars=CAPTION_LIMIT))

    def rate_key(self, item: Outgoing) -> tuple[str, bool]:
        """The chat's window; private chats have positive ids, groups negative ones."""
        return limit_key(item), _private(item)

    def classify(self, exc: BaseException, item: Outgoing) -> Failure | None:
        """Telegram's errors by what helps (None: not Telegram's)."""
        if not isinstance(exc, TelegramError):
            return None
        call = failed_call(exc)
        if isinstance(exc, RetryAfter):
            return Failure(FailureKind.RETRY_AFTER, call, retry_after_s=retry_seconds(exc))
        if isinstance(exc, Forbidden):
            return Failure(FailureKind.UNREACHABLE, call)
        if isinstance(exc, ChatMigrated):
            thread = parse_chat(item.to.chat_id)[1] if isinstance(item.to, ToChat) else None
            return Failure(FailureKind.MOVED, call,
                           moved_to=chat_key(exc.new_chat_id, thread))
        if isinstance(exc, BadRequest):  # before NetworkError: PTB derives it from that
            text = exc.message.lower()
            if isinstance(item.to, ToUser) and "chat not found" in text:
                # Telegram's answer for a user who never opened a chat with the bot, in
                # some cases: the same as a 403.
                return Failure(FailureKind.UNREACHABLE, call)
            if "not modified" in text:
                return Failure(FailureKind.UNCHANGED, call)
            if _gone(text):
                return Failure(FailureKind.GONE, call)
            return Failure(FailureKind.PERMANENT, call)
        if isinstance(exc, NetworkError):
            return Failure(FailureKind.TRANSIENT, call)
        # No remedy here (a token that stopped working, a conflict).
        return Failure(FailureKind.PERMANENT, call)

    async def _call(self, endpoint: str, params: JSONDict) -> Any:
        """One Bot API call with plain JSON in and out (errors as PTB raises them, naming
        the method)."""
        return await self._named(endpoint, self.bot.do_api_request(endpoint,
                                                                   api_kwargs=params))

    async def _named(self, method: str, call: Awaitable[T]) -> T:
        """``named``, and the call counted once Telegram accepted it."""
        result = await named(method, call)
        self.metrics.count(figures.DELIVERIES, {"platform": self.name, "method": method})
        return result

    async def strip_buttons(self, item: Outgoing, message_id: str) -> None:
        """Take an old message's buttons away."""
        await self._call("editMessageReplyMarkup",
                         {"chat_id": _where(item)[0], "message_id": int(message_id)})

    async def send(self, item: Outgoing, message: Message, *, quiet: bool) -> str:
        """Send a new message (``quiet``: without a notification); its id."""
        chat_id, thread = _where(item)
        markup = keyboard(message, self.pages, _private(item))
        if message.picture is not None:
            sent = await self._named("sendPhoto", self.bot.send_photo(
                chat_id, photo=InputFile(message.picture.png, filename=message.picture.name),
                caption=fit(message.text, CAPTION_LIMIT),
                parse_mode=ParseMode.HTML, message_thread_id=thread,
                reply_markup=InlineKeyboardMarkup.de_json(markup, self.bot) if markup else None,
                disable_notification=True if quiet else None,
            ))
            return str(sent.message_id)
        params: JSONDict = {"chat_id": chat_id, "text": fit(message.text, TEXT_LIMIT),
                            "parse_mode": "HTML"}
        if thread is not None:
            params["message_thread_id"] = thread
        if quiet:
            params["disable_notification"] = True
        if markup is not None:
            params["reply_markup"] = markup
        result = await self._call("sendMessage", params)
        return str(result["message_id"])

    async def send_picture(self, item: Outgoing, message: Message, *, quiet: bool) -> None:
        """The picture alone, captioned with the text's first line."""
        if message.picture is None:
            return
        chat_id, thread = _where(item)
        first = message.text.lines()[0] if message.text else Rich()
        await self._named("sendPhoto", self.bot.send_photo(
            chat_id, photo=InputFile(message.picture.png, filename=message.picture.name),
            caption=fit(first, CAPTION_LIMIT), parse_mode=ParseMode.HTML,
            message_thread_id=thread, disable_notification=True if quiet else None))

    async def edit(self, item: Outgoing, message_id: str, message: Message, *,
                   was_picture: bool, new_picture: bool) -> None:
        """Edit the text (a photo's caption), the photo itself when it changed, and the
        keyboard."""
        chat_id = _where(item)[0]
        markup = keyboard(message, self.pages, _private(item))
        if was_picture and new_picture and message.picture is not None:
            photo = InputFile(message.picture.png, filename=message.picture.name)
            media = InputMediaPhoto(photo, caption=fit(message.text, CAPTION_LIMIT),
                                    parse_mode=ParseMode.HTML)
            await self._named("editMessageMedia", self.bot.edit_message_media(
                media, chat_id=chat_id, message_id=int(message_id),
                reply_markup=InlineKeyboardMarkup.de_json(markup, self.bot) if markup else None))
            return
        if not was_picture and message.picture is not None:
            # A text message cannot become a photo: a new one is sent in its place.
            raise BadRequest("photo needed: message to edit not found")
        params: JSONDict = {"chat_id": chat_id, "message_id": int(message_id),
                            "parse_mode": "HTML"}
        if was_picture:
            params["caption"] = fit(message.text, CAPTION_LIMIT)
        else:
            params["text"] = fit(message.text, TEXT_LIMIT)
        if markup is not None:
            params["reply_markup"] = markup
        await self._call("editMessageCaption" if was_picture else "editMessageText", params)
