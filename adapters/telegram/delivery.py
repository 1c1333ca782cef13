"""Delivering one neutral message to Telegram: send, or edit the message kept for its slot.

A slot's message id lives in Redis (the outbox hands it over with the item and stores
the new one when Telegram accepted it) so that any worker can edit it. A table message
with a picture is a photo whose caption is the text; a new picture replaces the photo
in place (editMessageMedia) instead of sending a new one.

A message whose picture cannot go (the sender decides: see ``adapters.telegram.sender``)
goes ``as_text``: without the picture, with its buttons; the picture follows later on
its own (``follow``). Every error raised here names the Bot API method that failed and
the answer's status (``failed_call``), for the one log line the sender writes about it.
"""

from __future__ import annotations

import hashlib
import html
import json
import logging
import warnings
from collections.abc import Awaitable
from dataclasses import dataclass, replace
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

from adapters.telegram.http import LAST_STATUS
from adapters.telegram.ids import parse_chat, parse_user
from bot.i18n import to_plain
from bot.ui import Message, Outgoing, ToChat

log = logging.getLogger(__name__)
CAPTION_LIMIT = 1024
TEXT_LIMIT = 4096
JSONDict = dict[str, Any]
#: The calls that carry a picture: when one of these fails, the text can still go.
PICTURE_METHODS = frozenset({"sendPhoto", "editMessageMedia"})
T = TypeVar("T")


@dataclass(frozen=True)
class FailedCall:
    """Which Bot API call failed and how: ``status`` is the HTTP status of Telegram's
    answer ("500", "400"…), or "timeout" / "network error" when none came."""

    method: str
    status: str
    detail: str

    def __str__(self) -> str:
        """``500 Internal Server Error`` (the method is said beside it)."""
        if self.detail and self.detail != self.status:
            return f"{self.status} {self.detail}"
        return self.status

    @property
    def picture(self) -> bool:
        """The failed call carried a picture (without it the message may still go)."""
        return self.method in PICTURE_METHODS

    @property
    def permanent(self) -> bool:
        """Telegram refused the request itself (a 4xx other than 429): sent again
        unchanged, it fails again."""
        return self.status.isdigit() and 400 <= int(self.status) < 500 \
            and self.status != "429"


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
    call = FailedCall(method, status_of(exc, LAST_STATUS.get()), str(message)[:200])
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


# Text messages go out through ``Bot.do_api_request`` with plain JSON parameters and come
# back as plain JSON: building PTB objects for every keyboard and parsing every returned
# message into a ``telegram.Message`` was a quarter of the CPU a button press cost (see
# bench/telegram_updates.py), and only the message id is ever read. PTB advises using its
# named methods instead; here that advice is deliberately declined.
warnings.filterwarnings("ignore", message=r"Please use 'Bot\.\w+' instead of "
                        r"'Bot\.do_api_request", category=PTBUserWarning)


def keyboard(message: Message) -> JSONDict | None:
    """The message's buttons as a Bot API inline keyboard."""
    if not message.buttons:
        return None
    return {"inline_keyboard": [[{"text": b.label, "callback_data": b.token} for b in row]
                                for row in message.buttons]}


def fit(text: str, limit: int) -> str:
    """The text within ``limit`` characters, its markup still valid.

    Whole lines go first, oldest log lines before the rest: every line is balanced
    markup, so cutting between lines keeps the tags paired. The first two lines (the
    header and, on a table, the scores) go last. Should one remaining line still be too
    long, the text loses its formatting and is cut as plain, escaped text.
    """
    if len(text) <= limit:
        return text
    lines = text.split("\n")
    while len(lines) > 2 and len("\n".join(lines)) > limit:
        del lines[2 if len(lines) > 3 else 1]
    joined = "\n".join(lines)
    if len(joined) <= limit:
        return joined
    plain = to_plain(joined)
    cut = limit - 1
    while len(escaped := html.escape(plain[:cut], quote=False)) > limit - 1:
        cut -= len(escaped) - (limit - 1)
    return escaped + "…"


def text_digest(message: Message) -> str:
    """A short digest of a message's text and buttons: an edit that would leave both
    as they are is skipped (Telegram refuses it as "not modified" anyway)."""
    body = json.dumps([str(message.text), keyboard(message)], ensure_ascii=False)
    return hashlib.sha1(body.encode("utf-8", "surrogatepass")).hexdigest()[:16]


def _not_modified(exc: BadRequest) -> bool:
    return "not modified" in exc.message.lower()


def _gone(exc: BadRequest) -> bool:
    text = exc.message.lower()
    return "not found" in text or "can't be edited" in text or "message_id_invalid" in text


class Delivery:
    """Sends items, editing the message a slot keeps; the outbox stores slot records."""

    def __init__(self, bot: Bot) -> None:
        """Deliver through ``bot``."""
        self.bot = bot

    async def deliver(
        self, item: Outgoing, kept: str | None = None, *, quiet: bool = False,
        as_text: bool = False,
    ) -> str | None:
        """Send or edit; returns the slot's new record (JSON) when it changed, and raises
        Telegram errors for the caller to classify.

        ``kept`` is the record of the message the item's slot keeps, as the outbox
        handed it over with the item (no other sender touches that chat meanwhile).
        ``quiet``: this may be the second try of a message Telegram already has (the
        first try's answer never made it into the outbox), so a new message is sent
        without a notification; nobody is pinged twice for one message. Telegram offers
        no way to find the first copy (its id was in the lost answer, and a bot cannot
        read a chat's history), so a silent copy may show. A fresh slot message is still
        sent anew rather than edited into the slot's recorded (older) message: if the
        first try never arrived, an edit far up the chat would leave the player with no
        new message at all, which is worse than a silent copy at the bottom.

        ``as_text``: without the picture. A slot whose message is a photo cannot keep
        its old picture under the new text (a map whose numbers no longer match the
        buttons misleads): a text message takes its place, quietly unless the item is a
        fresh one anyway, and the photo loses its buttons.
        """
        message = item.message
        if as_text and message.picture is not None:
            message = replace(message, picture=None)
        chat_id, thread = self._where(item)
        known: dict[str, object] | None = json.loads(kept) if kept and message.slot else None
        digest = hashlib.sha1(message.picture.png).hexdigest() if message.picture else None
        if known is not None and as_text and known.get("photo") and not message.renew:
            if known.get("kb", True):
                await self._retire(chat_id, int(str(known["id"])))
            known = None
            quiet = True
        if known is not None and message.renew:
            # A new turn or a reminder: a new message (which notifies), and the old one
            # loses its buttons so nobody presses a choice that is gone.
            if known.get("kb", True):
                await self._retire(chat_id, int(str(known["id"])))
            known = None
        shown = text_digest(message)
        if (known is not None and known.get("td") == shown
                and (digest is None or digest == known.get("pic"))):
            return None  # the kept message already says exactly this: no call at all
        if known is not None:
            try:
                await self._edit(chat_id, int(str(known["id"])), message, bool(known["photo"]),
                                 digest != known.get("pic") and digest is not None)
                known["pic"] = digest or known.get("pic")
                known["kb"] = bool(message.buttons)
                known["td"] = shown
                return json.dumps(known)
            except BadRequest as exc:
                if _not_modified(exc):
                    return None
                if not _gone(exc):
                    raise
        sent_id = await self._send(chat_id, thread, message, quiet)
        if known is not None and known.get("kb", True):
            # The kept message could not be edited into this one (a text message cannot
            # become a photo): it stays as a record, without buttons that would mislead.
            await self._retire(chat_id, int(str(known["id"])))
        if not message.slot:
            return None
        return json.dumps({"id": sent_id, "photo": message.picture is not None,
                           "pic": digest, "kb": bool(message.buttons), "td": shown})

    async def follow(self, item: Outgoing, kept: str | None = None) -> str | None:
        """The picture of an item that went as text, on its own, without a notification.

        A slot's message takes its picture back: a photo with the slot's text and
        buttons replaces the text message (which loses its buttons); the slot's new
        record is returned. Any other message gets its picture as a photo of its own,
        captioned with the text's first line (the rest went with the text).
        """
        message = item.message
        if message.picture is None:
            return None
        if message.slot:
            return await self.deliver(replace(item, message=replace(message, renew=False)),
                                      kept, quiet=True)
        chat_id, thread = self._where(item)
        first = str(message.text).split("\n", 1)[0]
        await named("sendPhoto", self.bot.send_photo(
            chat_id, photo=InputFile(message.picture.png, filename=message.picture.name),
            caption=fit(first, CAPTION_LIMIT), parse_mode=ParseMode.HTML,
            message_thread_id=thread, disable_notification=True))
        return None

    @staticmethod
    def _where(item: Outgoing) -> tuple[int, int | None]:
        """(Telegram chat id, forum topic) of the item's destination."""
        if isinstance(item.to, ToChat):
            return parse_chat(item.to.chat_id)
        return parse_user(item.to.user_id), None

    async def _call(self, endpoint: str, params: JSONDict) -> Any:
        """One Bot API call with plain JSON in and out (errors as PTB raises them, naming
        the method)."""
        return await named(endpoint, self.bot.do_api_request(endpoint, api_kwargs=params))

    async def _retire(self, chat_id: int, message_id: int) -> None:
        """Take an old message's buttons away (best effort: it may be gone already)."""
        try:
            await self._call("editMessageReplyMarkup",
                             {"chat_id": chat_id, "message_id": message_id})
        except TelegramError as exc:
            log.info("could not take the buttons off message %s in %s (%s)", message_id,
                     chat_id, failed_call(exc))

    async def _send(
        self, chat_id: int, thread: int | None, message: Message, quiet: bool = False
    ) -> int:
        """Send a new message (``quiet``: without a notification); its id."""
        markup = keyboard(message)
        if message.picture is not None:
            sent = await named("sendPhoto", self.bot.send_photo(
                chat_id, photo=InputFile(message.picture.png, filename=message.picture.name),
                caption=fit(message.text, CAPTION_LIMIT),
                parse_mode=ParseMode.HTML, message_thread_id=thread,
                reply_markup=InlineKeyboardMarkup.de_json(markup, self.bot) if markup else None,
                disable_notification=True if quiet else None,
            ))
            return sent.message_id
        params: JSONDict = {"chat_id": chat_id, "text": fit(message.text, TEXT_LIMIT),
                            "parse_mode": "HTML"}
        if thread is not None:
            params["message_thread_id"] = thread
        if quiet:
            params["disable_notification"] = True
        if markup is not None:
            params["reply_markup"] = markup
        result = await self._call("sendMessage", params)
        return int(result["message_id"])

    async def _edit(
        self, chat_id: int, message_id: int, message: Message, is_photo: bool, new_picture: bool
    ) -> None:
        markup = keyboard(message)
        if is_photo and new_picture and message.picture is not None:
            photo = InputFile(message.picture.png, filename=message.picture.name)
            media = InputMediaPhoto(photo, caption=fit(message.text, CAPTION_LIMIT),
                                    parse_mode=ParseMode.HTML)
            await named("editMessageMedia", self.bot.edit_message_media(
                media, chat_id=chat_id, message_id=message_id,
                reply_markup=InlineKeyboardMarkup.de_json(markup, self.bot) if markup else None))
            return
        if not is_photo and message.picture is not None:
            # A text message cannot become a photo: send a new one in its place.
            raise BadRequest("photo needed: message to edit not found")
        params: JSONDict = {"chat_id": chat_id, "message_id": message_id,
                            "parse_mode": "HTML"}
        if is_photo:
            params["caption"] = fit(message.text, CAPTION_LIMIT)
        else:
            params["text"] = fit(message.text, TEXT_LIMIT)
        if markup is not None:
            params["reply_markup"] = markup
        await self._call("editMessageCaption" if is_photo else "editMessageText", params)
