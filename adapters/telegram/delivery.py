"""Delivering one neutral message to Telegram: send, or edit the message kept for its slot.

A slot's message id lives in Redis so that any worker can edit it. A table message
with a picture is a photo whose caption is the text; a new picture replaces the photo
in place (editMessageMedia) instead of sending a new one.
"""

from __future__ import annotations

import hashlib
import json
import logging

from redis.asyncio import Redis
from telegram import Bot, InlineKeyboardButton, InlineKeyboardMarkup, InputMediaPhoto
from telegram import Message as TgMessage
from telegram.constants import ParseMode
from telegram.error import BadRequest, TelegramError

from adapters.telegram.ids import parse_chat, parse_user
from adapters.telegram.outbox import destination
from bot.ui import Message, Outgoing, ToChat

log = logging.getLogger(__name__)
CAPTION_LIMIT = 1024
TEXT_LIMIT = 4096


def keyboard(message: Message) -> InlineKeyboardMarkup | None:
    """The message's buttons as an inline keyboard."""
    if not message.buttons:
        return None
    return InlineKeyboardMarkup(
        [[InlineKeyboardButton(b.label, callback_data=b.token) for b in row]
         for row in message.buttons]
    )


def fit(text: str, limit: int) -> str:
    """Drop whole lines after the first until the text fits (older log lines go first;
    lines are balanced markup, so cutting between them keeps the markup valid)."""
    if len(text) <= limit:
        return text
    lines = text.split("\n")
    while len(lines) > 2 and len("\n".join(lines)) > limit:
        del lines[1]
    joined = "\n".join(lines)
    return joined if len(joined) <= limit else joined[: limit - 1] + "…"


def _not_modified(exc: BadRequest) -> bool:
    return "not modified" in exc.message.lower()


def _gone(exc: BadRequest) -> bool:
    text = exc.message.lower()
    return "not found" in text or "can't be edited" in text or "message_id_invalid" in text


class Delivery:
    """Sends items and remembers the message kept for each slot."""

    def __init__(self, bot: Bot, redis: Redis, prefix: str = "campfire:") -> None:
        """Slots are kept in the hash ``<prefix>tgslots``."""
        self.bot = bot
        self.r = redis
        self.key = prefix + "tgslots"

    async def _slot(self, field: str) -> dict[str, object] | None:
        raw = await self.r.hget(self.key, field)
        return json.loads(raw) if raw else None

    async def deliver(self, item: Outgoing) -> None:
        """Send or edit; raises Telegram errors for the caller to classify."""
        message = item.message
        if isinstance(item.to, ToChat):
            chat_id, thread = parse_chat(item.to.chat_id)
        else:
            chat_id, thread = parse_user(item.to.user_id), None
        field = f"{destination(item)}|{message.slot}" if message.slot else None
        known = await self._slot(field) if field else None
        digest = hashlib.sha1(message.picture.png).hexdigest() if message.picture else None
        if known is not None and message.renew:
            # A new turn or a reminder: a new message (which notifies), and the old one
            # loses its buttons so nobody presses a choice that is gone.
            if known.get("kb", True):
                await self._retire(chat_id, int(str(known["id"])))
            known = None
        if known is not None:
            try:
                await self._edit(chat_id, int(str(known["id"])), message, bool(known["photo"]),
                                 digest != known.get("pic") and digest is not None)
                if field and (digest or known.get("kb") != bool(message.buttons)):
                    known["pic"] = digest or known.get("pic")
                    known["kb"] = bool(message.buttons)
                    await self.r.hset(self.key, field, json.dumps(known))
                return
            except BadRequest as exc:
                if _not_modified(exc):
                    return
                if not _gone(exc):
                    raise
        sent = await self._send(chat_id, thread, message)
        if known is not None and known.get("kb", True):
            # The kept message could not be edited into this one (a text message cannot
            # become a photo): it stays as a record, without buttons that would mislead.
            await self._retire(chat_id, int(str(known["id"])))
        if field:
            await self.r.hset(self.key, field, json.dumps(
                {"id": sent.message_id, "photo": message.picture is not None, "pic": digest,
                 "kb": bool(message.buttons)}))

    async def _retire(self, chat_id: int, message_id: int) -> None:
        """Take an old message's buttons away (best effort: it may be gone already)."""
        try:
            await self.bot.edit_message_reply_markup(chat_id=chat_id, message_id=message_id,
                                                     reply_markup=None)
        except TelegramError:
            log.info("could not retire message %s in %s", message_id, chat_id)

    async def _send(self, chat_id: int, thread: int | None, message: Message) -> TgMessage:
        markup = keyboard(message)
        if message.picture is not None:
            return await self.bot.send_photo(
                chat_id, photo=message.picture.png, caption=fit(message.text, CAPTION_LIMIT),
                parse_mode=ParseMode.HTML, reply_markup=markup, message_thread_id=thread,
            )
        return await self.bot.send_message(
            chat_id, fit(message.text, TEXT_LIMIT), parse_mode=ParseMode.HTML,
            reply_markup=markup, message_thread_id=thread,
        )

    async def _edit(
        self, chat_id: int, message_id: int, message: Message, is_photo: bool, new_picture: bool
    ) -> None:
        markup = keyboard(message)
        if is_photo:
            if new_picture and message.picture is not None:
                media = InputMediaPhoto(message.picture.png,
                                        caption=fit(message.text, CAPTION_LIMIT),
                                        parse_mode=ParseMode.HTML)
                await self.bot.edit_message_media(media, chat_id=chat_id, message_id=message_id,
                                                  reply_markup=markup)
            else:
                await self.bot.edit_message_caption(
                    chat_id=chat_id, message_id=message_id,
                    caption=fit(message.text, CAPTION_LIMIT), parse_mode=ParseMode.HTML,
                    reply_markup=markup)
            return
        if message.picture is not None:
            # A text message cannot become a photo: send a new one in its place.
            raise BadRequest("photo needed: message to edit not found")
        await self.bot.edit_message_text(
            fit(message.text, TEXT_LIMIT), chat_id=chat_id, message_id=message_id,
            parse_mode=ParseMode.HTML, reply_markup=markup)
