"""Updates from Telegram into the bot core, and the core's replies into the outbox.

Every update is handled once even if Telegram (or a load balancer) delivers it twice,
and handled again if it was not finished: it is claimed while it is handled and marked
done only in the step that queues its messages (``adapters.delivery.updates``). A move's
press is claimed by its first write instead of a round trip of its own: the move's
commit, or the queueing of its answer when it is refused (``UpdateClaim.taken``); a
worker that finds it another's there goes back to waiting for it like any other. After
that the core is told its messages were handed over (``Campfire.acknowledge``), so it
owes the tables nothing more. (A press runs the sequence every platform shares,
``adapters.delivery.handling``; this module only says what a press means on Telegram.)
Every callback query is answered — with the core's notice, as an alert for refusals — so
no button is left spinning; an update that came by webhook has its answer carried back
in the webhook's HTTP response (``WebhookAnswer``), which saves the press a Bot API
call. Replies go through the outbox; only when Redis itself is down (the outbox lives
there too) or handling an update failed does the bot answer directly.

Names and texts are cleaned by the core as they reach it (``bot.identity``): a name
Telegram lets through must not be one that the store cannot save.

On shutdown (``wind_down``) updates under way get a grace period to finish; what is
still running then is cancelled and *handed back*: kept in Redis and handled first at
the next start (``handed_back``). Telegram itself would not send it again (a polled
update was confirmed when polling stopped), and handling one twice is harmless (see
``adapters.delivery.updates``).
"""

from __future__ import annotations

import asyncio
import itertools
import json
import logging
import time
import uuid
from collections.abc import Awaitable, Callable
from contextvars import ContextVar
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from telegram import Bot, CallbackQuery, Update
from telegram import Message as TgMessage
from telegram import User as TgUser
from telegram.error import TelegramError

from adapters.delivery.handling import HeldElsewhere, hand_over, handle_press
from adapters.delivery.outbox import Finish, Outbox
from adapters.delivery.updates import Pause, UpdateClaim, UpdateLedger
from adapters.store.client import unavailable_on_outage
from adapters.telegram.admins import TelegramAdmins
from adapters.telegram.delivery import failed_call, named
from adapters.telegram.ids import chat_key, user_key
from bot.app import Campfire
from bot.i18n import Lang, normalize_lang, to_plain
from bot.identity import Chat, User
from bot.storage import OncePort, Owed, StoreUnavailable
from bot.storage.ports import ScriptPart
from bot.ui.markup import Rich
from bot.ui.message import Message, Outgoing, Reply, ToChat, ToUser

log = logging.getLogger(__name__)
ANSWER_LIMIT = 200
# While shutting down, how often to look whether the updates under way have finished.
WIND_DOWN_POLL_S = 0.02


@dataclass
class WebhookAnswer:
    """Where the answer to a callback query goes when its update came by webhook: into
    the webhook's HTTP response, as a Bot API method call (Telegram runs it; what it
    made of it is not reported, which for an answer is no loss: a lost one only leaves
    a spinner). One per webhook request; the first answer wins."""

    body: dict[str, Any] | None = None


# Set by the webhook server around the handling of one update (``service.webhook_app``);
# None when the update came by polling (the answer is then its own call).
WEBHOOK_ANSWER: ContextVar[WebhookAnswer | None] = ContextVar("webhook_answer", default=None)


async def answer_query(query: CallbackQuery, text: str | None = None,
                       alert: bool = False) -> None:
    """Answer a callback query: in the webhook's response when the update came by
    webhook, else by a call (errors are the caller's to log)."""
    carrier = WEBHOOK_ANSWER.get()
    if carrier is not None and carrier.body is None:
        body: dict[str, Any] = {"method": "answerCallbackQuery", "callback_query_id": query.id}
        if text:
            body["text"] = text
        if alert:
            body["show_alert"] = True
        carrier.body = body
        return
    await named("answerCallbackQuery", query.answer(text=text or None, show_alert=alert))


def chat_of(message: TgMessage) -> Chat:
    """The Campfire chat of a message (a forum topic is a chat of its own)."""
    thread = message.message_thread_id if message.is_topic_message else None
    return Chat(id=chat_key(message.chat.id, thread), private=message.chat.type == "private",
                title=message.chat.title or "")


class Inbound:
    """Handles updates: the handler registered with PTB."""

    def __init__(
        self, bot: Bot, app: Campfire, outbox: Outbox, once: OncePort, *,
        ledger: UpdateLedger | None = None, pause: Pause = asyncio.sleep,
        settle_part: Callable[[Owed], ScriptPart] | None = None,
    ) -> None:
        """Wire the PTB bot, the core, the outbox and the once-only flags; ``ledger``
        keeps the updates' claims (by default beside the outbox), ``pause`` is how a
        duplicate waits for the worker that holds its update. With ``settle_part``
        (``GameStore.settle_part``, on the outbox's Redis) a table an update changed is
        settled in the step that queues its messages, instead of by
        ``Campfire.acknowledge`` after it: a round trip less per move."""
        self.bot = bot
        self.app = app
        # The core asks admin rights through its port when an action needs them.
        app.sv.admins = TelegramAdmins(bot)
        self.outbox = outbox
        self.once = once
        self.ledger = ledger or UpdateLedger(outbox.r, outbox.prefix, platform=outbox.platform)
        self.pause = pause
        self.settle_part = settle_part
        self.handback_key = outbox.p + "handback"
        # Updates being handled, with the task handling each (to cancel on shutdown).
        self._under_way: dict[int, tuple[Update, asyncio.Task[Any] | None]] = {}
        self._ids = itertools.count()
        self.closing = False  # shutting down: updates are handed back, not handled

    @property
    def under_way(self) -> int:
        """How many updates are being handled now."""
        return len(self._under_way)

    async def handle(self, update: Update, _context: object = None) -> None:
        """Entry point for every update."""
        if self.closing:
            await self._hand_back(update)
            return
        key = next(self._ids)
        self._under_way[key] = (update, asyncio.current_task())
        try:
            await self._handle(update)
        except asyncio.CancelledError:
            # Shutting down past the grace period: the next start handles it.
            await self._hand_back(update)
            raise
        finally:
            del self._under_way[key]

    async def wind_down(self, grace_s: float, waiting: Callable[[], bool] = lambda: False,
                        ) -> int:
        """Let the updates under way (and those ``waiting`` to start) finish within
        ``grace_s``; then hand back whatever is still running, and every update that
        comes after. Returns how many were cancelled to be handed back."""
        deadline = time.monotonic() + grace_s
        while (self._under_way or waiting()) and time.monotonic() < deadline:
            await asyncio.sleep(WIND_DOWN_POLL_S)
        self.closing = True
        tasks = [task for _, task in self._under_way.values()
                 if task is not None and task is not asyncio.current_task()]
        for task in tasks:
            task.cancel()
        if tasks:
            log.warning("%s updates were still being handled after %g s; handed back to "
                        "the next start", len(tasks), grace_s)
            # They hand themselves back as they end (bounded: a safety net).
            await asyncio.wait(tasks, timeout=max(grace_s, 1.0))
        return len(tasks)

    async def _hand_back(self, update: Update) -> None:
        """Keep an update that was not handled for the next start (best effort)."""
        try:
            with unavailable_on_outage("hand an update back"):
                await self.outbox.r.rpush(self.handback_key, json.dumps(update.to_dict()))
        except Exception:  # Redis is gone too: the update is lost, and said so
            log.exception("could not hand update %s back", update.update_id)
            return
        log.info("update %s handed back to the next start", update.update_id)

    async def handed_back(self) -> list[Update]:
        """The updates the last shutdown handed back (taken: nobody else gets them)."""
        async with self.outbox.r.pipeline(transaction=True) as pipe:
            pipe.lrange(self.handback_key, 0, -1)
            pipe.delete(self.handback_key)
            raw, _ = await pipe.execute()
        return [Update.de_json(json.loads(body), self.bot) for body in raw or []]

    async def _handle(self, update: Update) -> None:
        """Handle one update (claimed, done or handed back: see the module)."""
        query = update.callback_query
        if query is not None and self.app.is_move(query.data or ""):
            try:
                await self._handle_claimed(
                    update, self.ledger.unclaimed(update.update_id, self._token()))
                return
            except HeldElsewhere:
                pass  # another worker holds it: wait for that one, as below
        try:
            claim = await self.ledger.claim_or_wait(update.update_id, self._token(),
                                                    self.pause)
        except StoreUnavailable:
            await self._direct_answer(update, "err.store_unavailable")
            return
        if claim is not None:
            await self._handle_claimed(update, claim)

    async def _handle_claimed(self, update: Update, claim: UpdateClaim) -> None:
        """Handle an update under ``claim`` (if it was not taken yet, the handling's
        first write takes it, or raises ``HeldElsewhere``)."""
        finished = False
        try:
            if update.callback_query is not None:
                finished = await self._press(update.callback_query, claim)
            elif update.message is not None and update.message.text:
                finished = await self._text(update.message, claim)
            elif update.message is not None and update.message.migrate_to_chat_id:
                finished = await self._moved(update.message.chat.id,
                                             update.message.migrate_to_chat_id, claim)
            elif update.message is not None and update.message.migrate_from_chat_id:
                finished = await self._moved(update.message.migrate_from_chat_id,
                                             update.message.chat.id, claim)
            else:
                finished = await self._finish(claim, [])
        except HeldElsewhere:
            finished = True  # nothing here to give back
            raise
        except StoreUnavailable:
            await self._direct_answer(update, "err.store_unavailable")
        except Exception:  # any bug: log where it happened, answer politely, carry on
            chat = update.effective_chat.id if update.effective_chat else None
            user = update.effective_user.id if update.effective_user else None
            log.exception("update %s failed (chat %s, user %s)", update.update_id, chat, user)
            await self._direct_answer(update, "err.internal")
        finally:
            if not finished:
                # Not done: a redelivery is handled afresh, at once rather than after
                # the claim runs out.
                try:
                    await self.ledger.release(claim)
                except StoreUnavailable:
                    log.warning("could not give update %s back; its claim runs out",
                                update.update_id)

    def _token(self) -> str:
        """A new claim token: this worker, and which of its handlings."""
        return f"{self.app.sv.worker_id}:{uuid.uuid4().hex[:8]}"

    async def _finish(self, claim: UpdateClaim, items: list[Outgoing],
                      settle: ScriptPart | None = None) -> bool:
        """Queue the update's messages and mark it done, in one step (with ``settle``,
        settling the table they are the follow-ups of in it too). False when another
        worker finished it first (then nothing was queued here); ``HeldElsewhere``
        when the claim was not taken yet and another worker holds it."""
        outcome = await self.outbox.finish_update(claim, items, settle)
        if outcome is Finish.HELD:
            raise HeldElsewhere
        if outcome:
            return True
        log.info("update %s was finished by another worker; its messages here are "
                 "dropped", claim.update_id)
        return False

    @staticmethod
    def _user(tg_user: TgUser) -> User:
        """The Campfire user of a Telegram user (admin rights are asked by the core
        through ``TelegramAdmins`` when it needs them; the core cleans the name)."""
        fallback = f"@{tg_user.username}" if tg_user.username else ""
        return User(id=user_key(tg_user.id), name=tg_user.full_name or fallback,
                    lang=tg_user.language_code)

    async def _text(self, message: TgMessage, claim: UpdateClaim) -> bool:
        if message.from_user is None:
            await self._finish(claim, [])
            return True
        chat = chat_of(message)
        text = message.text or ""
        if chat.private and text.split(maxsplit=1)[0].split("@")[0] == "/start":
            text = self._start_payload(text)
        user = self._user(message.from_user)
        # When Telegram says it was sent: a typed move made before the seat's last move
        # was saved is out of date (a repeat, not a second move).
        reply = await self.app.on_text(chat, user, text, sent_at=message.date.timestamp())

        async def deliver(done: Reply, settle: ScriptPart | None) -> bool:
            return await self._finish(claim, self._reply_items(done, chat, user), settle)

        await hand_over(self.app, reply, deliver, settle_part=self.settle_part)
        return True

    @staticmethod
    def _start_payload(text: str) -> str:
        """``/start t<table>`` from a deep link lands on that table's open decision."""
        parts = text.split()
        if len(parts) > 1 and parts[1].startswith("t") and parts[1][1:].isalnum():
            return f"/turn {parts[1][1:]}"
        return "/help"

    async def _press(self, query: CallbackQuery, claim: UpdateClaim) -> bool:
        """Handle a button press (``adapters.delivery.handling``); True once the update
        is finished."""
        if query.message is None or not isinstance(query.message, TgMessage):
            await self._finish(claim, [])
            await self._answer(query, None, False)
            return True
        edge = _PressOnTelegram(self, query, claim, chat_of(query.message),
                                self._user(query.from_user))
        return await handle_press(self.app, edge, edge.chat, edge.user, query.data or "",
                                  claim=claim, settle_part=self.settle_part)

    @staticmethod
    async def _answer(query: CallbackQuery, answer: Rich | str | None, alert: bool) -> None:
        """Answer a callback query (a lost answer only leaves a spinner: logged); the
        notice as plain text, whether a tree or catalog markup."""
        text = to_plain(answer)[:ANSWER_LIMIT] if answer else None
        try:
            await answer_query(query, text, alert)
        except TelegramError as exc:
            log.warning("answerCallbackQuery failed (%s)", failed_call(exc))

    @staticmethod
    def _private_items(reply: Reply, user: User) -> list[Outgoing]:
        """A reply's private part as a private message (Telegram has no message only
        one member of a group sees)."""
        if reply.private is None:
            return []
        return [Outgoing(ToUser(user.id), reply.private.message, reply.private.table,
                         asked=True)]

    @staticmethod
    def _update_items(reply: Reply, chat: Chat, user: User) -> list[Outgoing]:
        """A reply's update of the pressed message as an edit of that message: the
        message kept for its slot, in the chat where it was pressed."""
        if reply.update is None or reply.update.slot is None:
            if reply.update is not None:
                log.warning("an update without a slot cannot name the pressed message; "
                            "dropped")
            return []
        target: ToChat | ToUser = ToUser(user.id) if chat.private else ToChat(chat.id)
        return [Outgoing(target, reply.update)]

    def _press_items(self, reply: Reply, chat: Chat, user: User) -> list[Outgoing]:
        """What a press queues: the pressed message's update first, then the rest."""
        if (reply.private is not None and reply.answer is None
                and reply.private.message.choices is None
                and len(reply.private.message.text.plain()) <= ANSWER_LIMIT):
            # Short and without buttons: shown as the press's alert instead of a DM.
            reply.answer, reply.alert = reply.private.message.text, True
            reply.private = None
        return [*self._update_items(reply, chat, user), *reply.out,
                *self._private_items(reply, user)]

    def _reply_items(self, reply: Reply, chat: Chat, user: User) -> list[Outgoing]:
        """What a typed command queues: the answer in the chat, the private part, the
        rest."""
        items = [*self._private_items(reply, user), *reply.out]
        answer = reply.answer
        if answer is None and reply.private is not None and not chat.private:
            # Telegram cannot show a message to one member of a group: the private part
            # went as a DM, and the group hears where it went.
            answer = reply.private.note
        if answer:
            target: ToChat | ToUser = ToChat(chat.id)
            items.insert(0, Outgoing(target, Message(text=answer,
                                                     choices=reply.answer_choices)))
        return items

    async def chat_moved(self, old_id: int, new_id: int) -> None:
        """A group became a supergroup under a new id: its tables move there."""
        await self._moved(old_id, new_id, None)

    async def _moved(self, old_id: int, new_id: int, claim: UpdateClaim | None) -> bool:
        items = await self.app.on_chat_moved(chat_key(old_id, None), chat_key(new_id, None))
        if claim is None:
            await self.outbox.put_many(items)
        else:
            await self._finish(claim, items)
        return True

    async def queue(self, items: list[Outgoing]) -> None:
        """Queue messages that did not come from an update (reminders, repairs)."""
        await self.outbox.put_many(items)

    async def _direct_answer(self, update: Update, code: str) -> None:
        """Answer straight through the Bot API (the outbox may be what is failing)."""
        lang = normalize_lang(update.effective_user.language_code
                              if update.effective_user else None)
        text = to_plain(self.app.sv.t(lang, code))
        try:
            if update.callback_query is not None:
                await answer_query(update.callback_query, text[:ANSWER_LIMIT], True)
            elif update.effective_chat is not None:
                thread = (update.message.message_thread_id
                          if update.message and update.message.is_topic_message else None)
                await named("sendMessage", self.bot.send_message(
                    update.effective_chat.id, text, message_thread_id=thread))
        except TelegramError as exc:
            chat = update.effective_chat.id if update.effective_chat else None
            log.warning("answering %s directly in %s failed (%s)", code, chat,
                        failed_call(exc))

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


class _PressOnTelegram:
    """A callback query in the press sequence (``adapters.delivery.handling``): its
    messages are queued with the update's done flag, its answer is the query's."""

    def __init__(self, inbound: Inbound, query: CallbackQuery, claim: UpdateClaim,
                 chat: Chat, user: User) -> None:
        """The query pressed in ``chat`` by ``user``, under ``claim``."""
        self.inbound, self.query, self.claim = inbound, query, claim
        self.chat, self.user = chat, user
        self.lang: Lang = normalize_lang(query.from_user.language_code)
        # Behind a webhook the answer only rides in the response: no call to wait for.
        self.answer_is_call = WEBHOOK_ANSWER.get() is None

    async def call(self, work: Awaitable[Reply]) -> Reply:
        """The core's reply, waited for (no deadline to meet)."""
        return await work

    async def deliver(self, reply: Reply, settle: ScriptPart | None) -> bool:
        """Queue what the press shows, marking the update done (and ``settle``)."""
        items = self.inbound._press_items(reply, self.chat, self.user)
        return await self.inbound._finish(self.claim, items, settle)

    async def answer(self, reply: Reply) -> None:
        """Answer the callback query (a lost answer only leaves a spinner)."""
        await self.inbound._answer(self.query, reply.answer, reply.alert)
