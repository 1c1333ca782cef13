"""The simulated world's records: users, chats, messages, files, and what the fake saw
(API calls, button presses and their answers)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

JSONDict = dict[str, Any]


@dataclass
class FakeUser:
    """A Telegram user in the simulated world."""

    id: int
    first_name: str
    username: str | None = None
    language_code: str | None = "en"
    last_name: str | None = None
    is_bot: bool = False
    started: bool = False  # has pressed Start in the private chat with the bot
    blocked: bool = False  # has blocked the bot

    def to_api(self) -> JSONDict:
        out: JSONDict = {"id": self.id, "is_bot": self.is_bot, "first_name": self.first_name}
        if self.last_name:
            out["last_name"] = self.last_name
        if self.username:
            out["username"] = self.username
        if self.language_code:
            out["language_code"] = self.language_code
        return out


@dataclass
class FakeChat:
    """A private chat, group or supergroup (optionally a forum with topics)."""

    id: int
    type: str  # "private" | "group" | "supergroup"
    title: str | None = None
    username: str | None = None
    first_name: str | None = None
    is_forum: bool = False
    members: dict[int, str] = field(default_factory=dict)  # user id -> status
    topics: dict[int, str] = field(default_factory=dict)  # message_thread_id -> name
    bot_status: str = "member"  # the bot's own status here
    user: FakeUser | None = None  # the other party of a private chat
    messages: list[FakeMessage] = field(default_factory=list)
    next_message_id: int = 1
    migrated_to: int | None = None  # a basic group upgraded to this supergroup id

    def to_api(self) -> JSONDict:
        out: JSONDict = {"id": self.id, "type": self.type}
        if self.type == "private":
            out["first_name"] = self.first_name or ""
        else:
            out["title"] = self.title or ""
        if self.username:
            out["username"] = self.username
        if self.is_forum:
            out["is_forum"] = True
        return out

    def new_message_id(self) -> int:
        mid = self.next_message_id
        self.next_message_id += 1
        return mid

    @property
    def is_group(self) -> bool:
        return self.type in ("group", "supergroup")


@dataclass
class StoredFile:
    """A file the fake knows (uploaded by the bot); ``data`` is what was received."""

    file_id: str
    file_unique_id: str
    data: bytes
    filename: str | None
    mime_type: str | None
    width: int = 0
    height: int = 0
    file_path: str = ""

    def photo_size(self) -> JSONDict:
        return {
            "file_id": self.file_id,
            "file_unique_id": self.file_unique_id,
            "width": self.width,
            "height": self.height,
            "file_size": len(self.data),
        }


@dataclass
class FakeMessage:
    """A message in a chat, sent by the bot (``from_bot``) or by a simulated user."""

    chat: FakeChat
    message_id: int
    date: int
    sent_at: float  # FakeTelegram.now() when sent
    from_bot: bool
    from_user: JSONDict
    text: str | None = None  # as Telegram stores it (parsed, trimmed)
    entities: list[JSONDict] = field(default_factory=list)
    sent_text: str | None = None  # as the bot sent it (e.g. with HTML tags)
    caption: str | None = None
    caption_entities: list[JSONDict] = field(default_factory=list)
    sent_caption: str | None = None
    parse_mode: str | None = None
    reply_markup: JSONDict | None = None
    photo: StoredFile | None = None
    photo_url: str | None = None
    message_thread_id: int | None = None
    reply_to: FakeMessage | None = None
    deleted: bool = False
    edit_date: int | None = None
    versions: list[JSONDict] = field(default_factory=list)  # API dicts before each edit
    update_id: int | None = None  # for user messages: the update that carried it
    service: JSONDict = field(default_factory=dict)  # e.g. {"migrate_to_chat_id": ...}
    silent: bool = False  # sent with disable_notification: nobody was notified of it

    @property
    def chat_id(self) -> int:
        return self.chat.id

    @property
    def buttons(self) -> list[list[tuple[str, str | None]]]:
        """Inline keyboard rows as (text, callback_data) pairs (url buttons give None)."""
        if not self.reply_markup or "inline_keyboard" not in self.reply_markup:
            return []
        return [
            [(b.get("text", ""), b.get("callback_data")) for b in row]
            for row in self.reply_markup["inline_keyboard"]
        ]

    @property
    def photo_bytes(self) -> bytes | None:
        return self.photo.data if self.photo else None

    @property
    def edit_count(self) -> int:
        return len(self.versions)

    def to_api(self, *, nested: bool = True) -> JSONDict:
        out: JSONDict = {
            "message_id": self.message_id,
            "from": self.from_user,
            "date": self.date,
            "chat": self.chat.to_api(),
        }
        if self.edit_date is not None:
            out["edit_date"] = self.edit_date
        if self.message_thread_id is not None:
            out["message_thread_id"] = self.message_thread_id
            if self.chat.is_forum:
                out["is_topic_message"] = True
        if self.text is not None:
            out["text"] = self.text
            if self.entities:
                out["entities"] = self.entities
        if self.photo is not None:
            out["photo"] = [self.photo.photo_size()]
        if self.caption is not None:
            out["caption"] = self.caption
            if self.caption_entities:
                out["caption_entities"] = self.caption_entities
        if self.reply_markup is not None and "inline_keyboard" in self.reply_markup:
            out["reply_markup"] = self.reply_markup
        out.update(self.service)
        if nested:
            if self.reply_to is not None:
                out["reply_to_message"] = self.reply_to.to_api(nested=False)
            elif self.message_thread_id is not None and self.chat.is_forum:
                # Telegram makes topic messages "replies" to the topic's creation message.
                out["reply_to_message"] = {
                    "message_id": self.message_thread_id,
                    "date": self.date,
                    "chat": self.chat.to_api(),
                    "message_thread_id": self.message_thread_id,
                    "is_topic_message": True,
                    "forum_topic_created": {
                        "name": self.chat.topics.get(self.message_thread_id, "Topic"),
                        "icon_color": 7322096,
                    },
                }
        return out


@dataclass
class UploadedFile:
    """A multipart file part as received."""

    field_name: str
    filename: str | None
    content_type: str | None
    data: bytes


@dataclass
class ApiCall:
    """One Bot API request as received, with its outcome."""

    method: str
    params: JSONDict
    files: dict[str, UploadedFile]
    time: float  # FakeTelegram.now()
    via: str = "http"  # "http" | "webhook_reply"
    error_code: int | None = None
    description: str | None = None
    retry_after: int | None = None
    result: Any = None
    finished: bool = False
    cancelled: bool = False  # the client went away before the answer

    @property
    def ok(self) -> bool:
        return self.finished and self.error_code is None


@dataclass
class CallbackPress:
    """A callback query created by ``user_presses``."""

    id: str
    user: FakeUser
    message: FakeMessage
    data: str | None
    update_id: int
    answer: AnsweredCallback | None = None

    @property
    def answered(self) -> bool:
        return self.answer is not None


@dataclass
class AnsweredCallback:
    callback_query_id: str
    text: str | None
    show_alert: bool
    url: str | None
    cache_time: int | None
    time: float
    press: CallbackPress | None = None


UserRef = FakeUser | int
ChatRef = FakeChat | FakeUser | int | str
MessageRef = FakeMessage | int
