"""What users do (write, press, start or block the bot) as updates, queued in id order,
and ``getUpdates`` long polling with offsets and ``allowed_updates``."""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
import time
from dataclasses import dataclass
from typing import Any

from tests.adapters.telegram.fake_api.errors import ApiError
from tests.adapters.telegram.fake_api.formatting import utf16_len
from tests.adapters.telegram.fake_api.state import DEFAULT_UPDATE_TYPES, FakeState
from tests.adapters.telegram.fake_api.world import (
    CallbackPress,
    ChatRef,
    FakeMessage,
    JSONDict,
    MessageRef,
    UploadedFile,
    UserRef,
)

COMMAND_RE = re.compile(r"(?<![\w/])/[A-Za-z0-9_]{1,32}(?:@[A-Za-z0-9_]{3,32})?(?![\w@])")
MENTION_RE = re.compile(r"(?<![\w@])@[A-Za-z0-9_]{5,32}\b")


@dataclass
class Pending:
    update_id: int
    payload: JSONDict
    forced: bool = False  # re-queued duplicate: survives offset confirmation once

    @property
    def type(self) -> str:
        return next(k for k in self.payload if k != "update_id")


class UpdatesMixin(FakeState):
    """Users acting, and the bot fetching what they did."""

    # ------------------------------------------------------------------ users acting

    def user_says(
        self,
        user: UserRef,
        chat: ChatRef | None,
        text: str,
        thread_id: int | None = None,
        *,
        reply_to: MessageRef | None = None,
        date: int | None = None,
    ) -> FakeMessage:
        """A user writes ``text`` in ``chat`` (None: the private chat with the bot).

        ``bot_command`` (and ``mention``) entities are generated like Telegram does, so
        ``CommandHandler`` works, including ``/cmd@bot_username``.  Returns the message;
        its ``update_id`` is None when privacy mode kept it from the bot.  ``date`` is
        when Telegram says it was sent (unix seconds; default now): a message that
        reaches the bot late carries the time it was written.
        """
        sender = self.user(user)
        target = self.chat(chat) if chat is not None else self.private_chat(sender)
        if target.type == "private":
            if target.id != sender.id:
                raise ValueError("a user can only write in their own private chat with the bot")
            sender.started = True
            sender.blocked = False
        else:
            target.members.setdefault(sender.id, "member")
            if target.members[sender.id] in ("left", "kicked"):
                raise ValueError(f"{sender.first_name} is not in chat {target.id}")
        if thread_id is not None:
            if not target.is_forum:
                raise ValueError(f"chat {target.id} is not a forum")
            if thread_id not in target.topics:
                raise ValueError(f"no topic {thread_id} in chat {target.id}")
        replied = self._resolve_message(reply_to, target) if reply_to is not None else None
        entities: list[JSONDict] = []
        for regex, kind in ((COMMAND_RE, "bot_command"), (MENTION_RE, "mention")):
            for m in regex.finditer(text):
                entities.append(
                    {
                        "type": kind,
                        "offset": utf16_len(text[: m.start()]),
                        "length": utf16_len(m.group()),
                    }
                )
        entities.sort(key=lambda e: e["offset"])
        message = FakeMessage(
            chat=target,
            message_id=target.new_message_id(),
            date=self._unix() if date is None else date,
            sent_at=self.now(),
            from_bot=False,
            from_user=sender.to_api(),
            text=text,
            sent_text=text,
            entities=entities,
            message_thread_id=thread_id,
            reply_to=replied,
        )
        target.messages.append(message)
        if self._bot_sees(message):
            message.update_id = self._enqueue("message", message.to_api())
        return message

    def _bot_sees(self, message: FakeMessage) -> bool:
        chat = message.chat
        if chat.type == "private":
            return True
        if chat.bot_status in ("left", "kicked"):
            return False
        if self.can_read_all_group_messages or chat.bot_status == "administrator":
            return True
        if message.reply_to is not None and message.reply_to.from_bot:
            return True
        text = message.text or ""
        for entity in message.entities:
            if entity["type"] == "bot_command" and entity["offset"] == 0:
                command = text[: entity["length"]]
                target = command.partition("@")[2]
                return not target or target.lower() == self.bot_username.lower()
        return False

    def user_presses(
        self,
        user: UserRef,
        message: MessageRef,
        callback_data: str | None = None,
        *,
        chat: ChatRef | None = None,
        button: str | None = None,
        strict: bool = True,
    ) -> CallbackPress:
        """A user taps an inline button on a bot message; returns the callback query.

        Give ``callback_data`` or the ``button`` text.  With ``strict`` (default) the data
        must be on the message's current keyboard; ``strict=False`` lets tests forge data.
        ``message`` may be a FakeMessage or a message_id (pass ``chat`` if ambiguous).
        """
        presser = self.user(user)
        target = self._resolve_message(message, self.chat(chat) if chat is not None else None)
        if target.deleted:
            raise ValueError(f"message {target.message_id} was deleted")
        if not target.from_bot:
            raise ValueError("only bot messages carry inline keyboards")
        flat = [b for row in target.buttons for b in row]
        if button is not None:
            matches = [data for text, data in flat if text == button]
            if not matches:
                raise ValueError(f"no button {button!r} on message {target.message_id}: {flat}")
            callback_data = matches[0]
        if strict and callback_data not in [data for _, data in flat]:
            raise ValueError(
                f"callback_data {callback_data!r} is not on message {target.message_id}: {flat}"
            )
        if target.chat.is_group:
            target.chat.members.setdefault(presser.id, "member")
        query_id = str(next(self._callback_ids))
        payload: JSONDict = {
            "id": query_id,
            "from": presser.to_api(),
            "message": target.to_api(),
            "chat_instance": str(abs(target.chat.id) * 7919 % 10**18),
        }
        if callback_data is not None:
            payload["data"] = callback_data
        update_id = self._enqueue("callback_query", payload)
        press = CallbackPress(query_id, presser, target, callback_data, update_id)
        self.callbacks[query_id] = press
        return press

    def user_starts_bot(self, user: UserRef, payload: str | None = None) -> FakeMessage:
        """The user presses Start (deep link payload optional): ``/start payload``."""
        who = self.user(user)
        was_blocked = who.blocked
        message = self.user_says(who, None, "/start" + (f" {payload}" if payload else ""))
        if was_blocked:
            self._enqueue(
                "my_chat_member",
                self._member_update(self.private_chat(who), who, "kicked", "member"),
            )
        return message

    def user_blocks_bot(self, user: UserRef) -> None:
        """The user blocks the bot: private sends fail with 403 and a my_chat_member arrives."""
        who = self.user(user)
        if who.blocked:
            return
        who.blocked = True
        self._enqueue(
            "my_chat_member", self._member_update(self.private_chat(who), who, "member", "kicked")
        )

    def inject_update(self, kind: str, payload: JSONDict) -> int:
        """Queue a raw update ``{"update_id": ..., kind: payload}``; returns its id."""
        return self._enqueue(kind, payload)

    def drop_update(self, update_id: int) -> None:
        """Lose a pending update, as Telegram does with updates nobody fetched in 24 h."""
        before = len(self._pending)
        self._pending = [p for p in self._pending if p.update_id != update_id]
        if len(self._pending) == before:
            raise KeyError(update_id)

    def redeliver(self, update_id: int) -> None:
        """Queue an update that was already created again, with the same update_id."""
        for update in self.updates_log:
            if update["update_id"] == update_id:
                self._pending.append(Pending(update_id, update, forced=True))
                self._pending.sort(key=lambda p: p.update_id)  # Telegram answers in id order
                self._notify()
                self._maybe_auto_deliver()
                return
        raise KeyError(update_id)

    # ------------------------------------------------------------------ the queue

    def _enqueue(self, kind: str, payload: JSONDict) -> int:
        update_id = next(self._update_ids)
        update = {"update_id": update_id, kind: payload}
        self.updates_log.append(update)
        self._pending.append(Pending(update_id, update))
        self._notify()
        self._maybe_auto_deliver()
        return update_id

    def _notify(self) -> None:
        self._wakeup.set()
        self._wakeup = asyncio.Event()
        if self._webhook_changed is not None:
            self._webhook_changed.set()

    @property
    def pending_updates(self) -> list[JSONDict]:
        return [p.payload for p in self._pending]

    def _confirm(self, offset: int) -> None:
        if offset > 0:
            self._pending = [p for p in self._pending if p.update_id >= offset or p.forced]
        elif offset < 0:
            self._pending = self._pending[offset:]

    def _deliverable(self, allowed: frozenset[str]) -> list[Pending]:
        # updates of types the bot did not ask for are never sent: drop them
        self._pending = [p for p in self._pending if p.type in allowed]
        return list(self._pending)

    @staticmethod
    def _parse_allowed(value: Any) -> frozenset[str]:
        if isinstance(value, str):
            value = json.loads(value)
        if not value:
            return DEFAULT_UPDATE_TYPES
        return frozenset(str(v) for v in value)

    # ------------------------------------------------------------------ API methods

    async def _m_getUpdates(
        self, params: JSONDict, files: dict[str, UploadedFile]
    ) -> list[JSONDict]:
        if self.webhook is not None:
            raise ApiError(
                409,
                "Conflict: can't use getUpdates method while webhook is active; use "
                "deleteWebhook to delete the webhook first",
            )
        offset = self._int(params, "offset", 0) or 0
        limit = min(max(self._int(params, "limit", 100) or 100, 1), 100)
        timeout = max(0.0, float(params.get("timeout") or 0))
        if "allowed_updates" in params:
            self._allowed_updates = self._parse_allowed(params["allowed_updates"])
        self._poll_generation += 1
        generation = self._poll_generation
        self._notify()  # an older long poll gets "terminated by other getUpdates request"
        self._confirm(offset)
        deadline = time.monotonic() + timeout
        while True:
            if generation != self._poll_generation:
                raise ApiError(
                    409,
                    "Conflict: terminated by other getUpdates request; make sure that only "
                    "one bot instance is running",
                )
            batch = self._deliverable(self._allowed_updates)[:limit]
            remaining = deadline - time.monotonic()
            if batch or self._closing or remaining <= 0:
                for pending in batch:
                    pending.forced = False
                    self.delivered_updates.append(pending.payload)
                return [p.payload for p in batch]
            wakeup = self._wakeup
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(wakeup.wait(), remaining)
