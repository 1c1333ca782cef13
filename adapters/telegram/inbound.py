"""Updates from Telegram into the bot core, and the core's replies into the outbox.

Every update is handled once even if Telegram (or a load balancer) delivers it twice.
Every callback query is answered — with the core's notice, as an alert for refusals —
so no button is left spinning. Replies go through the outbox; only when Redis itself
is down (the outbox lives there too) or handling an update failed does the bot answer
directly.
"""

from __future__ import annotations

import logging
from datetime import timedelta

from telegram import Bot, CallbackQuery, Update
from telegram import Message as TgMessage
from telegram import User as TgUser
from telegram.constants import ChatMemberStatus
from telegram.error import TelegramError

from adapters.telegram.ids import chat_key, user_key
from adapters.telegram.outbox import Outbox
from bot.app import Campfire
from bot.i18n import normalize_lang, to_plain
from bot.identity import Chat, User
from bot.storage import OncePort, StoreUnavailable
from bot.ui import Message, Outgoing, Reply, ToChat, ToUser

log = logging.getLogger(__name__)
DEDUPE_TTL = timedelta(days=2)
ANSWER_LIMIT = 200


def chat_of(message: TgMessage) -> Chat:
    """The Campfire chat of a message (a forum topic is a chat of its own)."""
    thread = message.message_thread_id if message.is_topic_message else None
    return Chat(id=chat_key(message.chat.id, thread), private=message.chat.type == "private",
                title=message.chat.title or "")


class Inbound:
    """Handles updates: the handler registered with PTB."""

    def __init__(self, bot: Bot, app: Campfire, outbox: Outbox, once: OncePort) -> None:
        """Wire the PTB bot, the core, the outbox and the once-only flags."""
        self.bot = bot
        self.app = app
        self.outbox = outbox
        self.once = once

    async def handle(self, update: Update, _context: object = None) -> None:
        """Entry point for every update."""
        try:
            if not await self.once.first(f"tg:update:{update.update_id}", DEDUPE_TTL):
                return
        except StoreUnavailable:
            await self._direct_answer(update, "err.store_unavailable")
            return
        try:
            if update.callback_query is not None:
                await self._press(update.callback_query)
            elif update.message is not None and update.message.text:
                await self._text(update.message)
            elif update.message is not None and update.message.migrate_to_chat_id:
                await self.chat_moved(update.message.chat.id, update.message.migrate_to_chat_id)
            elif update.message is not None and update.message.migrate_from_chat_id:
                await self.chat_moved(update.message.migrate_from_chat_id, update.message.chat.id)
        except StoreUnavailable:
            await self._direct_answer(update, "err.store_unavailable")
        except Exception:  # any bug: log where it happened, answer politely, carry on
            chat = update.effective_chat.id if update.effective_chat else None
            user = update.effective_user.id if update.effective_user else None
            log.exception("update %s failed (chat %s, user %s)", update.update_id, chat, user)
            await self._direct_answer(update, "err.internal")

    async def _user(self, tg_user: TgUser, chat: Chat, check_admin: bool) -> User:
        is_admin = False
        if check_admin and not chat.private:
            try:
                member = await self.bot.get_chat_member(int(chat.id[3:].split("/")[0]),
                                                        tg_user.id)
                is_admin = member.status in (ChatMemberStatus.ADMINISTRATOR,
                                             ChatMemberStatus.OWNER)
            except TelegramError:
                log.warning("could not check admin rights in %s", chat.id)
        return User(id=user_key(tg_user.id), name=tg_user.full_name,
                    lang=tg_user.language_code, is_admin=is_admin)

    async def _text(self, message: TgMessage) -> None:
        if message.from_user is None:
            return
        chat = chat_of(message)
        text = message.text or ""
        if chat.private and text.split(maxsplit=1)[0].split("@")[0] == "/start":
            text = self._start_payload(text)
        head = text.split(maxsplit=1)[0].split("@")[0].lower() if text.strip() else ""
        user = await self._user(message.from_user, chat, head in ("/abort", "/прервать"))
        reply = await self.app.on_text(chat, user, text)
        await self._queue_reply(reply, chat)

    @staticmethod
    def _start_payload(text: str) -> str:
        """``/start t<table>`` from a deep link lands on that table's open decision."""
        parts = text.split()
        if len(parts) > 1 and parts[1].startswith("t") and parts[1][1:].isalnum():
            return f"/turn {parts[1][1:]}"
        return "/help"

    async def _press(self, query: CallbackQuery) -> None:
        answered = False
        try:
            if query.message is None or not isinstance(query.message, TgMessage):
                await query.answer()
                answered = True
                return
            chat = chat_of(query.message)
            data = query.data or ""
            user = await self._user(query.from_user, chat, data.startswith("a."))
            try:
                reply = await self.app.on_press(chat, user, data)
            except StoreUnavailable:
                raise
            except Exception:  # a bug: say so on the button itself, log with context
                log.exception("press %r failed (chat %s, user %s)", data, chat.id, user.id)
                lang = normalize_lang(query.from_user.language_code)
                await query.answer(text=to_plain(self.app.sv.t(lang, "err.internal"))[:200],
                                   show_alert=True)
                answered = True
                return
            # Queue first: the move is already saved, so its messages must not depend on
            # the answer call succeeding (a slow or lost answer only leaves a spinner).
            try:
                await self._queue_reply(Reply(out=reply.out), chat)
            except StoreUnavailable:
                if not reply.out:
                    raise
                # Whatever the press changed is saved: say that, not "nothing changed".
                lang = normalize_lang(query.from_user.language_code)
                reply = Reply(answer=self.app.sv.t(lang, "press.saved_not_shown"), alert=True)
            text = to_plain(reply.answer)[:ANSWER_LIMIT] if reply.answer else None
            answered = True
            try:
                await query.answer(text=text or None, show_alert=reply.alert)
            except TelegramError as exc:
                log.warning("could not answer a callback query: %s", exc)
        finally:
            if not answered:
                try:
                    await query.answer()
                except TelegramError:
                    log.warning("could not answer a callback query")

    async def _queue_reply(self, reply: Reply, chat: Chat) -> None:
        items = list(reply.out)
        if reply.answer:
            target: ToChat | ToUser = ToChat(chat.id)
            items.insert(0, Outgoing(target, Message(text=reply.answer,
                                                     buttons=reply.answer_buttons)))
        await self.outbox.put_many(items)

    async def chat_moved(self, old_id: int, new_id: int) -> None:
        """A group became a supergroup under a new id: its tables move there."""
        await self.outbox.put_many(
            await self.app.on_chat_moved(chat_key(old_id, None), chat_key(new_id, None)))

    async def queue(self, items: list[Outgoing]) -> None:
        """Queue messages that did not come from an update (reminders)."""
        await self.outbox.put_many(items)

    async def _direct_answer(self, update: Update, code: str) -> None:
        """Answer straight through the Bot API (the outbox may be what is failing)."""
        lang = normalize_lang(update.effective_user.language_code
                              if update.effective_user else None)
        text = to_plain(self.app.sv.t(lang, code))
        try:
            if update.callback_query is not None:
                await update.callback_query.answer(text=text[:ANSWER_LIMIT], show_alert=True)
            elif update.effective_chat is not None:
                thread = (update.message.message_thread_id
                          if update.message and update.message.is_topic_message else None)
                await self.bot.send_message(update.effective_chat.id, text,
                                            message_thread_id=thread)
        except TelegramError:
            log.warning("could not send %s to a user", code)

    async def unreachable(self, item: Outgoing) -> Outgoing | None:
        """A private message could not be delivered: ask in the table's chat, once per
        user and table, with a deep link that opens the bot on that table."""
        if not isinstance(item.to, ToUser) or item.table is None:
            return None
        if not await self.once.first(f"tg:nodm:{item.to.user_id}:{item.table}",
                                     timedelta(days=30)):
            return None
        try:
            record = await self.app.sv.store.get(item.table)
        except Exception:  # the table is gone: nobody to ask
            return None
        names = record.meta.get("names", {})
        name = names.get(item.to.user_id, "?") if isinstance(names, dict) else "?"
        link = f"https://t.me/{self.bot.username}?start=t{item.table}"
        lang = self.app.sv.table_lang(record)
        text = self.app.sv.t(lang, "tg.open_dm", name=str(name), link=link)
        return Outgoing(ToChat(record.chat_id), Message(text=text))

