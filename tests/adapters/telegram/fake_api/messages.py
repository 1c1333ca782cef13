"""Text messages: sending, editing (keyboards included), deleting; button presses'
answers and chat actions; and the helpers tests read the chats with."""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import urlsplit

from tests.adapters.telegram.fake_api.errors import NOT_MODIFIED, bad_request
from tests.adapters.telegram.fake_api.formatting import format_text
from tests.adapters.telegram.fake_api.state import FakeState
from tests.adapters.telegram.fake_api.world import (
    AnsweredCallback,
    ApiCall,
    CallbackPress,
    ChatRef,
    FakeChat,
    FakeMessage,
    JSONDict,
    StoredFile,
    UploadedFile,
)

CHAT_ACTIONS = frozenset(
    {
        "typing",
        "upload_photo",
        "record_video",
        "upload_video",
        "record_voice",
        "upload_voice",
        "upload_document",
        "choose_sticker",
        "find_location",
        "record_video_note",
        "upload_video_note",
    }
)


class MessagesMixin(FakeState):
    """The Bot API methods on messages. Each ``_m_<method>`` takes (params, files) and
    returns the call's "result" or raises ``ApiError``."""

    # ------------------------------------------------------------------ parameters

    def _param_thread(self, chat: FakeChat, params: JSONDict) -> int | None:
        thread_id = self._int(params, "message_thread_id")
        if thread_id is not None and chat.is_forum and thread_id not in chat.topics:
            raise bad_request("message thread not found")
        if thread_id is not None and not chat.is_forum:
            return None
        return thread_id

    def _param_markup(self, params: JSONDict, *, inline_only: bool = False) -> JSONDict | None:
        markup = params.get("reply_markup")
        if markup is None:
            return None
        if isinstance(markup, str):
            try:
                markup = json.loads(markup)
            except ValueError:
                raise bad_request("can't parse reply keyboard markup JSON object") from None
        if not isinstance(markup, dict):
            raise bad_request("can't parse reply keyboard markup JSON object")
        if "inline_keyboard" not in markup:
            if inline_only:
                raise bad_request("inline keyboard expected")
            return markup
        rows = markup["inline_keyboard"]
        if not isinstance(rows, list) or not all(isinstance(r, list) for r in rows):
            raise bad_request(
                'can\'t parse inline keyboard: field "inline_keyboard" must be an Array of Arrays'
            )
        if sum(len(r) for r in rows) > 100:
            raise bad_request("reply markup is too long")
        for row in rows:
            for button in row:
                if not isinstance(button, dict) or not button.get("text"):
                    raise bad_request("BUTTON_TEXT_INVALID")
                if "callback_data" in button:
                    data = button["callback_data"]
                    if not isinstance(data, str) or not 1 <= len(data.encode("utf-8")) <= 64:
                        raise bad_request("BUTTON_DATA_INVALID")
                elif "url" in button:
                    scheme = urlsplit(str(button["url"])).scheme.lower()
                    if scheme not in ("http", "https", "tg"):
                        raise bad_request("BUTTON_URL_INVALID")
                elif "web_app" in button:
                    # A Mini App opens from a private chat's keyboard only, and only
                    # from an HTTPS address.
                    if not _private(params):
                        raise bad_request("BUTTON_TYPE_INVALID")
                    app = button["web_app"]
                    url = str(app.get("url", "")) if isinstance(app, dict) else ""
                    if urlsplit(url).scheme.lower() != "https":
                        raise bad_request(f"inline keyboard button Web App URL '{url}' is "
                                          "invalid: Only HTTPS links are allowed")
                elif not (set(button) - {"text"}):
                    raise bad_request(
                        "can't parse inline keyboard button: Text buttons are unallowed in "
                        "the inline keyboard"
                    )
        return markup

    def _param_text(self, params: JSONDict) -> tuple[str, list[JSONDict]]:
        text = params.get("text")
        if text is None or text == "":
            raise bad_request("message text is empty")
        plain, entities = format_text(str(text), params.get("parse_mode"))
        if not plain:
            raise bad_request("message text is empty")
        if len(plain) > 4096:
            raise bad_request("message is too long")
        return plain, entities

    def _param_caption(self, params: JSONDict) -> tuple[str | None, list[JSONDict]]:
        caption = params.get("caption")
        if caption is None or caption == "":
            return None, []
        plain, entities = format_text(str(caption), params.get("parse_mode"))
        if len(plain) > 1024:
            raise bad_request("message caption is too long")
        return plain or None, entities

    def _param_sending(self, chat: FakeChat, params: JSONDict) -> dict[str, Any]:
        """The fields every sent message takes from its call, checked in this order: the
        keyboard, the topic, the message replied to; and whether it is silent."""
        return {
            "reply_markup": self._param_markup(params),
            "message_thread_id": self._param_thread(chat, params),
            "reply_to": self._param_reply_to(chat, params),
            "silent": bool(params.get("disable_notification")),
        }

    def _param_reply_to(self, chat: FakeChat, params: JSONDict) -> FakeMessage | None:
        reply = params.get("reply_parameters")
        if isinstance(reply, dict):
            target_id, allow = reply.get("message_id"), reply.get("allow_sending_without_reply")
        else:
            target_id = params.get("reply_to_message_id")
            allow = params.get("allow_sending_without_reply")
        if target_id is None:
            return None
        found = self._find(chat, int(target_id))
        if found is None or found.deleted:
            if allow:
                return None
            raise bad_request("message to be replied not found")
        return found

    def _param_message(self, params: JSONDict, *, action: str = "edit") -> FakeMessage:
        if params.get("inline_message_id"):
            raise bad_request("inline messages are not supported by FakeTelegram")
        chat = self._param_chat(params, write=action == "edit")
        message_id = self._int(params, "message_id")
        if message_id is None:
            raise bad_request("message identifier is not specified")
        message = self._find(chat, message_id)
        if message is None or message.deleted:
            raise bad_request(f"message to {action} not found")
        if action == "edit" and not message.from_bot:
            raise bad_request("message can't be edited")
        return message

    def _new_bot_message(self, chat: FakeChat, **fields: Any) -> FakeMessage:
        message = FakeMessage(
            chat=chat,
            message_id=chat.new_message_id(),
            date=self._unix(),
            sent_at=self.now(),
            from_bot=True,
            from_user=self.bot_user,
            **fields,
        )
        chat.messages.append(message)
        return message

    def _edit(self, message: FakeMessage, **changes: Any) -> JSONDict:
        snapshot = message.to_api()
        same = all(
            canonical_json(getattr(message, key)) == canonical_json(value)
            for key, value in changes.items()
            if key not in ("sent_text", "sent_caption", "parse_mode")
        )
        if same:
            raise bad_request(NOT_MODIFIED)
        message.versions.append(snapshot)
        for key, value in changes.items():
            setattr(message, key, value)
        message.edit_date = self._unix()
        return message.to_api()

    # ------------------------------------------------------------------ API methods

    async def _m_sendMessage(self, params: JSONDict, files: dict[str, UploadedFile]) -> JSONDict:
        chat = self._param_chat(params)
        text, entities = self._param_text(params)
        sending = self._param_sending(chat, params)
        message = self._new_bot_message(
            chat,
            text=text,
            entities=entities,
            sent_text=params["text"],
            parse_mode=params.get("parse_mode"),
            **sending,
        )
        return message.to_api()

    async def _m_editMessageText(
        self, params: JSONDict, files: dict[str, UploadedFile]
    ) -> JSONDict:
        message = self._param_message(params)
        text, entities = self._param_text(params)
        markup = self._param_markup(params, inline_only=True)
        if message.text is None:
            raise bad_request("there is no text in the message to edit")
        return self._edit(
            message,
            text=text,
            entities=entities,
            reply_markup=markup,
            sent_text=params["text"],
            parse_mode=params.get("parse_mode"),
        )

    async def _m_editMessageCaption(
        self, params: JSONDict, files: dict[str, UploadedFile]
    ) -> JSONDict:
        message = self._param_message(params)
        caption, caption_entities = self._param_caption(params)
        markup = self._param_markup(params, inline_only=True)
        if message.photo is None:
            raise bad_request("there is no caption in the message to edit")
        return self._edit(
            message,
            caption=caption,
            caption_entities=caption_entities,
            reply_markup=markup,
            sent_caption=params.get("caption"),
            parse_mode=params.get("parse_mode"),
        )

    async def _m_editMessageReplyMarkup(
        self, params: JSONDict, files: dict[str, UploadedFile]
    ) -> JSONDict:
        message = self._param_message(params)
        markup = self._param_markup(params, inline_only=True)
        return self._edit(message, reply_markup=markup)

    async def _m_deleteMessage(self, params: JSONDict, files: dict[str, UploadedFile]) -> bool:
        message = self._param_message(params, action="delete")
        chat = message.chat
        if (
            not message.from_bot
            and chat.is_group
            and chat.bot_status not in ("administrator", "creator")
        ):
            raise bad_request("message can't be deleted")
        message.deleted = True
        return True

    async def _m_answerCallbackQuery(
        self, params: JSONDict, files: dict[str, UploadedFile]
    ) -> bool:
        query_id = str(params.get("callback_query_id", ""))
        press = self.callbacks.get(query_id)
        if press is None or press.answered:
            raise bad_request(
                "query is too old and response timeout expired or query ID is invalid"
            )
        text = params.get("text")
        if text is not None and len(str(text)) > 200:
            raise bad_request("MESSAGE_TOO_LONG")
        answer = AnsweredCallback(
            callback_query_id=query_id,
            text=text,
            show_alert=bool(params.get("show_alert", False)),
            url=params.get("url"),
            cache_time=self._int(params, "cache_time"),
            time=self.now(),
            press=press,
        )
        press.answer = answer
        self.answered_callbacks.append(answer)
        return True

    async def _m_sendChatAction(self, params: JSONDict, files: dict[str, UploadedFile]) -> bool:
        chat = self._param_chat(params)
        action = params.get("action")
        if action not in CHAT_ACTIONS:
            raise bad_request("wrong parameter action in request")
        self.chat_actions.append(
            (chat.id, str(action), self._param_thread(chat, params), self.now())
        )
        return True

    # ------------------------------------------------------------------ reading the chats

    def messages_in(
        self,
        chat: ChatRef,
        *,
        thread_id: int | None = None,
        include_deleted: bool = False,
        include_users: bool = False,
    ) -> list[FakeMessage]:
        """Messages the bot sent to ``chat`` (current state), oldest first."""
        return [
            m
            for m in self.chat(chat).messages
            if (include_users or m.from_bot)
            and (include_deleted or not m.deleted)
            and (thread_id is None or m.message_thread_id == thread_id)
        ]

    def last_message(self, chat: ChatRef, *, thread_id: int | None = None) -> FakeMessage:
        """The newest non-deleted bot message in ``chat``; AssertionError if there is none."""
        messages = self.messages_in(chat, thread_id=thread_id)
        if not messages:
            raise AssertionError(f"the bot has no messages in chat {self.chat(chat).id}")
        return messages[-1]

    def message(self, chat: ChatRef, message_id: int) -> FakeMessage:
        found = self._find(self.chat(chat), message_id)
        if found is None:
            raise KeyError((self.chat(chat).id, message_id))
        return found

    @staticmethod
    def keyboard(message: FakeMessage) -> list[tuple[str, str | None]]:
        """The message's inline buttons, row by row flattened, as (text, callback_data)."""
        return [button for row in message.buttons for button in row]

    def sent_count(self, chat: ChatRef | None = None, *, since: float | None = None) -> int:
        """How many messages the bot sent (to ``chat``, at or after ``since`` = now())."""
        chats = [self.chat(chat)] if chat is not None else list(self.chats.values())
        return sum(
            1
            for c in chats
            for m in c.messages
            if m.from_bot and (since is None or m.sent_at >= since)
        )

    def calls_to(self, method: str) -> list[ApiCall]:
        return [c for c in self.calls if c.method.lower() == method.lower()]

    def errors(self) -> list[ApiCall]:
        """Calls that were answered with an error (excluding abandoned long polls)."""
        return [c for c in self.calls if c.finished and c.error_code is not None]

    @property
    def unanswered_callbacks(self) -> list[CallbackPress]:
        return [p for p in self.callbacks.values() if not p.answered]


def canonical_json(value: Any) -> str:
    if isinstance(value, StoredFile):
        return value.file_id
    return json.dumps(value, sort_keys=True, default=str)


def _private(params: JSONDict) -> bool:
    """Is the call's chat a private one? (Users' ids are positive, groups' negative.)"""
    try:
        return int(str(params.get("chat_id", "0"))) > 0
    except ValueError:
        return False  # a @channel username
