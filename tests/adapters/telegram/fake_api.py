"""A local fake of the Telegram Bot API for end-to-end tests.

``FakeTelegram`` is an aiohttp server on 127.0.0.1 (ephemeral port) that speaks the Bot API
the way python-telegram-bot 22 uses it, plus a small simulated world (users, groups, forum
topics, private chats) that tests drive:

    async with FakeTelegram() as tg:
        alice = tg.add_user("Alice", username="alice")
        group = tg.add_group("Game night", members=[alice])
        app = (ApplicationBuilder().token(tg.token)
               .base_url(tg.base_url).base_file_url(tg.base_file_url).build())
        tg.user_says(alice, group, "/newgame@campfire_test_bot")
        ...
        assert tg.keyboard(tg.last_message(group)) == [("Join", "j:1")]

Wire format (what PTB sends, see ``telegram/request/_httpxrequest.py``): every call is a POST
to ``{base_url}{token}/{method}``.  Without files the body is
``application/x-www-form-urlencoded``; with files it is ``multipart/form-data``.  In both,
string parameters are sent verbatim and every other value (ints, bools, dicts, lists) is
JSON-encoded, so ``chat_id=-100123`` arrives as the string ``"-100123"`` and ``reply_markup``
as a JSON string.  Uploaded files are multipart parts with a filename: for ``sendPhoto`` the
part is named ``photo``; for ``editMessageMedia`` the ``media`` JSON says
``"media": "attach://<part name>"``.  Plain JSON bodies and GET query strings are accepted too.
Responses are ``{"ok": true, "result": ...}`` or ``{"ok": false, "error_code": N,
"description": "...", "parameters": {"retry_after": s}}`` with HTTP status N; PTB maps 400 to
``BadRequest``, 403 to ``Forbidden``, 409 to ``Conflict``, 401/404 to ``InvalidToken``,
anything with ``parameters.retry_after`` to ``RetryAfter`` and the rest to ``NetworkError``.

Realism choices worth knowing (all mirror Telegram):

* Users have not started the bot until ``user_starts_bot`` (or they write to it privately),
  so messaging them privately fails with 403.
* Groups run in privacy mode by default: plain text in a group reaches the bot only if it is
  a command for this bot, a reply to the bot, or the bot is an administrator.
* ``editMessageText``/``Caption``/``Media`` without ``reply_markup`` remove the keyboard.
* Message text is stored as Telegram stores it: HTML parsed to plain text + entities and
  trimmed.  The text as sent is kept in ``FakeMessage.sent_text``.
* HTML parsing follows tdlib: unknown tags and unbalanced tags are errors; an ``&`` that does
  not start ``&lt; &gt; &amp; &quot;`` or a numeric reference is kept literally (no error).
  MarkdownV2 is stored unparsed (not validated).
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import ipaddress
import itertools
import json
import math
import re
import socket
import time
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

from aiohttp import ClientError, ClientSession, ClientTimeout, web

JSONDict = dict[str, Any]

DEFAULT_TOKEN = "7000000001:AAFakeTokenForCampfireTests_0123456789"

# Update types Telegram sends when allowed_updates is empty/unset.
DEFAULT_UPDATE_TYPES = frozenset(
    {
        "message",
        "edited_message",
        "channel_post",
        "edited_channel_post",
        "business_connection",
        "business_message",
        "edited_business_message",
        "deleted_business_messages",
        "inline_query",
        "chosen_inline_result",
        "callback_query",
        "shipping_query",
        "pre_checkout_query",
        "purchased_paid_media",
        "poll",
        "poll_answer",
        "my_chat_member",
        "chat_join_request",
        "chat_boost",
        "removed_chat_boost",
    }
)

# Methods that count against the simulated flood limits by default.
COUNTED_METHODS = frozenset(
    {
        "sendMessage",
        "sendPhoto",
        "editMessageText",
        "editMessageCaption",
        "editMessageMedia",
        "editMessageReplyMarkup",
    }
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

# Parameters that PTB sends as raw strings (never JSON-decode these, "123" must stay "123").
_STRING_PARAMS = frozenset(
    {
        "text",
        "caption",
        "parse_mode",
        "callback_query_id",
        "url",
        "secret_token",
        "language_code",
        "action",
        "inline_message_id",
        "ip_address",
        "description",
        "short_description",
        "name",
        "title",
        "photo",
        "document",
        "file_id",
        "business_connection_id",
        "message_effect_id",
    }
)

_COMMAND_RE = re.compile(r"(?<![\w/])/[A-Za-z0-9_]{1,32}(?:@[A-Za-z0-9_]{3,32})?(?![\w@])")
_MENTION_RE = re.compile(r"(?<![\w@])@[A-Za-z0-9_]{5,32}\b")
_BOT_COMMAND_NAME_RE = re.compile(r"^[a-z0-9_]{1,32}$")
_SECRET_TOKEN_RE = re.compile(r"^[A-Za-z0-9_-]{1,256}$")


def utf16_len(text: str) -> int:
    """Length in UTF-16 code units, the unit of Telegram entity offsets."""
    return len(text.encode("utf-16-le")) // 2


# --------------------------------------------------------------------------- errors


class ApiError(Exception):
    """A Telegram-shaped error answer."""

    def __init__(self, code: int, description: str, retry_after: int | None = None,
                 migrate_to_chat_id: int | None = None) -> None:
        super().__init__(description)
        self.code = code
        self.description = description
        self.retry_after = retry_after
        self.migrate_to_chat_id = migrate_to_chat_id

    def body(self) -> JSONDict:
        out: JSONDict = {"ok": False, "error_code": self.code, "description": self.description}
        if self.retry_after is not None:
            out["parameters"] = {"retry_after": self.retry_after}
        if self.migrate_to_chat_id is not None:
            out["parameters"] = {"migrate_to_chat_id": self.migrate_to_chat_id}
        return out


def _bad_request(message: str) -> ApiError:
    return ApiError(400, f"Bad Request: {message}")


def _forbidden(message: str) -> ApiError:
    return ApiError(403, f"Forbidden: {message}")


def _too_many(retry_after: int) -> ApiError:
    return ApiError(429, f"Too Many Requests: retry after {retry_after}", retry_after)


_NOT_MODIFIED = (
    "message is not modified: specified new message content and reply markup are exactly "
    "the same as a current content and reply markup of the message"
)

_DEFAULT_DESCRIPTIONS = {
    400: "Bad Request",
    401: "Unauthorized",
    403: "Forbidden: bot was blocked by the user",
    404: "Not Found",
    409: "Conflict",
    500: "Internal Server Error",
    502: "Bad Gateway",
    503: "Service Unavailable",
    504: "Gateway Timeout",
}


# --------------------------------------------------------------------------- HTML


class HtmlParseError(Exception):
    pass


_HTML_ENTITY_TYPES = {
    "b": "bold",
    "strong": "bold",
    "i": "italic",
    "em": "italic",
    "u": "underline",
    "ins": "underline",
    "s": "strikethrough",
    "strike": "strikethrough",
    "del": "strikethrough",
    "tg-spoiler": "spoiler",
    "span": "spoiler",
    "code": "code",
    "pre": "pre",
    "a": "text_link",
    "blockquote": "blockquote",
    "tg-emoji": "custom_emoji",
}
_NAMED_ENTITIES = {"lt": "<", "gt": ">", "amp": "&", "quot": '"'}


def _decode_html_entity(src: str, i: int) -> tuple[str, int] | None:
    """Decode an HTML entity at ``src[i] == '&'`` like tdlib; None if it is not one."""
    n = len(src)
    j = i + 1
    if j < n and src[j] == "#":
        j += 1
        base = 10
        if j < n and src[j] in "xX":
            base = 16
            j += 1
        start = j
        digits = "0123456789abcdefABCDEF" if base == 16 else "0123456789"
        while j < n and src[j] in digits:
            j += 1
        if j == start or j - start > 8:
            return None
        code = int(src[start:j], base)
        if code == 0 or code > 0x10FFFF or 0xD800 <= code <= 0xDFFF:
            return None
        char = chr(code)
    else:
        start = j
        while j < n and src[j].isascii() and src[j].isalpha():
            j += 1
        decoded = _NAMED_ENTITIES.get(src[start:j])
        if decoded is None:
            return None
        char = decoded
    if j < n and src[j] == ";":
        j += 1
    return char, j


def parse_html(src: str) -> tuple[str, list[JSONDict]]:
    """Parse Telegram's HTML subset into (plain text, entities) or raise HtmlParseError.

    Error messages follow tdlib, e.g. ``Unsupported start tag "br" at byte offset 5``.
    """
    out: list[str] = []
    pos16 = 0  # current plain-text offset in UTF-16 units
    stack: list[tuple[str, int, dict[str, str]]] = []  # (tag, start offset, attributes)
    entities: list[JSONDict] = []
    i, n = 0, len(src)

    def emit(text: str) -> None:
        nonlocal pos16
        out.append(text)
        pos16 += utf16_len(text)

    def byte_offset(k: int) -> int:
        return len(src[:k].encode("utf-8"))

    while i < n:
        c = src[i]
        if c == "&":
            decoded = _decode_html_entity(src, i)
            if decoded is not None:
                emit(decoded[0])
                i = decoded[1]
                continue
            emit("&")
            i += 1
            continue
        if c != "<":
            emit(c)
            i += 1
            continue
        tag_at = byte_offset(i)
        if i + 1 < n and src[i + 1] == "/":
            end = src.find(">", i + 2)
            if end == -1:
                raise HtmlParseError(f"Unclosed end tag at byte offset {tag_at}")
            name = src[i + 2 : end].strip().lower()
            if not stack:
                raise HtmlParseError(f"Unexpected end tag at byte offset {tag_at}")
            open_name, start16, open_attrs = stack.pop()
            if name and name != open_name:
                raise HtmlParseError(
                    f'Unmatched end tag at byte offset {tag_at}, expected "</{open_name}>", '
                    f'found "</{name}>"'
                )
            length = pos16 - start16
            if length > 0:
                if (
                    open_name == "code"
                    and stack
                    and stack[-1][0] == "pre"
                    and open_attrs.get("class", "").startswith("language-")
                ):
                    stack[-1][2]["__language"] = open_attrs["class"][len("language-") :]
                else:
                    entity: JSONDict = {
                        "type": _HTML_ENTITY_TYPES[open_name],
                        "offset": start16,
                        "length": length,
                    }
                    if open_name == "a":
                        href = open_attrs.get("href", "")
                        if not href:
                            entity = {}
                        else:
                            entity["url"] = href
                    elif open_name == "pre" and "__language" in open_attrs:
                        entity["language"] = open_attrs["__language"]
                    elif open_name == "blockquote" and "expandable" in open_attrs:
                        entity["type"] = "expandable_blockquote"
                    elif open_name == "tg-emoji":
                        entity["custom_emoji_id"] = open_attrs.get("emoji-id", "")
                    if entity:
                        entities.append(entity)
            i = end + 1
            continue
        # start tag
        j = i + 1
        while j < n and (src[j].isascii() and (src[j].isalnum() or src[j] == "-")):
            j += 1
        name = src[i + 1 : j].lower()
        if name not in _HTML_ENTITY_TYPES:
            raise HtmlParseError(f'Unsupported start tag "{name}" at byte offset {tag_at}')
        attrs: dict[str, str] = {}
        while True:
            while j < n and src[j].isspace():
                j += 1
            if j >= n:
                raise HtmlParseError(f"Unclosed start tag at byte offset {tag_at}")
            if src[j] == ">":
                j += 1
                break
            k = j
            while k < n and src[k].isascii() and (src[k].isalnum() or src[k] in "-_"):
                k += 1
            attr = src[j:k].lower()
            if not attr:
                raise HtmlParseError(
                    f'Empty attribute name in the tag "{name}" at byte offset {tag_at}'
                )
            j = k
            while j < n and src[j].isspace():
                j += 1
            value = ""
            if j < n and src[j] == "=":
                j += 1
                while j < n and src[j].isspace():
                    j += 1
                if j >= n:
                    raise HtmlParseError(f"Unclosed start tag at byte offset {tag_at}")
                if src[j] in "\"'":
                    quote = src[j]
                    close = src.find(quote, j + 1)
                    if close == -1:
                        raise HtmlParseError(f"Unclosed start tag at byte offset {tag_at}")
                    raw = src[j + 1 : close]
                    j = close + 1
                else:
                    k = j
                    while k < n and not src[k].isspace() and src[k] != ">":
                        k += 1
                    raw = src[j:k]
                    j = k
                value = parse_html_attribute(raw)
            attrs[attr] = value
        if name == "span" and attrs.get("class") != "tg-spoiler":
            raise HtmlParseError(f'Tag "span" must have class "tg-spoiler" at byte offset {tag_at}')
        stack.append((name, pos16, attrs))
        i = j
    if stack:
        raise HtmlParseError(f'Can\'t find end tag corresponding to start tag "{stack[-1][0]}"')
    entities.sort(key=lambda e: (e["offset"], -e["length"]))
    return "".join(out), entities


def parse_html_attribute(raw: str) -> str:
    out: list[str] = []
    i = 0
    while i < len(raw):
        if raw[i] == "&":
            decoded = _decode_html_entity(raw, i)
            if decoded is not None:
                out.append(decoded[0])
                i = decoded[1]
                continue
        out.append(raw[i])
        i += 1
    return "".join(out)


def _trim(text: str, entities: list[JSONDict]) -> tuple[str, list[JSONDict]]:
    """Strip leading/trailing whitespace like Telegram does, keeping entities aligned."""
    stripped = text.strip()
    if stripped == text:
        return text, entities
    lead = utf16_len(text[: len(text) - len(text.lstrip())])
    end = lead + utf16_len(stripped)
    kept: list[JSONDict] = []
    for entity in entities:
        start = max(entity["offset"], lead)
        stop = min(entity["offset"] + entity["length"], end)
        if stop > start:
            kept.append({**entity, "offset": start - lead, "length": stop - start})
    return stripped, kept


def format_text(
    text: str, parse_mode: str | None, what: str = "text"
) -> tuple[str, list[JSONDict]]:
    """Turn sent text into (plain text, entities) the way Telegram would, or raise ApiError."""
    entities: list[JSONDict] = []
    plain = text
    if parse_mode is not None and parse_mode.upper() == "HTML":
        try:
            plain, entities = parse_html(text)
        except HtmlParseError as exc:
            raise _bad_request(f"can't parse entities: {exc}") from None
    elif parse_mode not in (None, "", "Markdown", "MarkdownV2"):
        raise _bad_request(f"unsupported parse_mode {parse_mode!r}")
    return _trim(plain, entities)


# --------------------------------------------------------------------------- world objects


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
    pinned: list[int] = field(default_factory=list)
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


@dataclass(frozen=True)
class RateLimits:
    """Flood limits; ``None`` disables a limit. Defaults are Telegram's documented ones."""

    group_messages: int | None = 20
    group_window: float = 60.0
    private_messages: int | None = None
    private_window: float = 1.0
    global_messages: int | None = 30
    global_window: float = 1.0
    methods: frozenset[str] = COUNTED_METHODS


@dataclass
class RateLimitHit:
    method: str
    chat_id: int | None
    retry_after: int
    scope: str  # "chat" | "global"
    time: float


@dataclass
class _Failure:
    method: str
    error_code: int
    description: str
    retry_after: int | None
    times: int
    chat_id: int | None
    after_effect: bool
    delay: float


@dataclass
class WebhookConfig:
    url: str
    secret_token: str | None
    allowed_updates: frozenset[str] | None
    max_connections: int
    set_at: float


@dataclass
class WebhookDelivery:
    update_id: int
    url: str
    secret_token: str | None
    status: int | None  # None: connection failed
    response_body: bytes
    time: float
    error: str | None = None


@dataclass
class _Pending:
    update_id: int
    payload: JSONDict
    forced: bool = False  # re-queued duplicate: survives offset confirmation once

    @property
    def type(self) -> str:
        return next(k for k in self.payload if k != "update_id")


def _is_loopback_url(url: str) -> bool:
    host = urlsplit(url).hostname or ""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _image_size(data: bytes) -> tuple[int, int] | None:
    try:
        from PIL import Image
    except ImportError:  # pragma: no cover - Pillow is a project dependency
        return (0, 0)
    try:
        with Image.open(io.BytesIO(data)) as image:
            return image.size
    except Exception:
        return None


def make_png(width: int = 8, height: int = 8, color: tuple[int, int, int] = (200, 80, 20)) -> bytes:
    """A small valid PNG for tests."""
    from PIL import Image

    buffer = io.BytesIO()
    Image.new("RGB", (width, height), color).save(buffer, format="PNG")
    return buffer.getvalue()


UserRef = FakeUser | int
ChatRef = FakeChat | FakeUser | int | str
MessageRef = FakeMessage | int


# --------------------------------------------------------------------------- the fake


class FakeTelegram:
    """The fake Bot API server plus the simulated world. See the module docstring."""

    def __init__(
        self,
        token: str = DEFAULT_TOKEN,
        *,
        bot_username: str = "campfire_test_bot",
        bot_first_name: str = "Campfire",
        can_join_groups: bool = True,
        can_read_all_group_messages: bool = False,
        rate_limits: RateLimits | None = None,
        strict_images: bool = True,
        host: str = "127.0.0.1",
        port: int = 0,
    ) -> None:
        if not _is_loopback_url(f"http://{host}/"):
            raise ValueError("FakeTelegram only listens on loopback")
        self.token = token
        self.bot_id = int(token.split(":", 1)[0])
        self.bot_username = bot_username
        self.bot_first_name = bot_first_name
        self.can_join_groups = can_join_groups
        # privacy mode is on unless the bot can read all group messages
        self.can_read_all_group_messages = can_read_all_group_messages
        self.rate_limits = rate_limits
        self.strict_images = strict_images
        self.host = host
        self._requested_port = port
        self.port = 0

        self.users: dict[int, FakeUser] = {}
        self.chats: dict[int, FakeChat] = {}
        self.files: dict[str, StoredFile] = {}
        self.calls: list[ApiCall] = []
        self.callbacks: dict[str, CallbackPress] = {}
        self.answered_callbacks: list[AnsweredCallback] = []
        self.rate_limited: list[RateLimitHit] = []
        self.chat_actions: list[tuple[int, str, int | None, float]] = []
        self.commands: dict[tuple[str, str], list[tuple[str, str]]] = {}
        self.webhook: WebhookConfig | None = None
        self.webhook_history: list[tuple[str, WebhookConfig | None]] = []
        self.webhook_deliveries: list[WebhookDelivery] = []
        self.webhook_last_error: tuple[int, str] | None = None
        self.auto_deliver_webhook = False
        self.updates_log: list[JSONDict] = []  # every update ever created, in order
        self.delivered_updates: list[JSONDict] = []  # every update handed out (incl. repeats)

        self._pending: list[_Pending] = []
        self._allowed_updates: frozenset[str] = DEFAULT_UPDATE_TYPES
        self._ids = itertools.count(1)
        self._user_ids = itertools.count(100_000_001)
        self._group_ids = itertools.count(1)
        self._update_ids = itertools.count(700_000_001)
        self._callback_ids = itertools.count(4_382_000_000_000_000_001)
        self._file_ids = itertools.count(1)
        self._failures: list[_Failure] = []
        self._send_events: list[tuple[float, int | None]] = []
        self._clock_offset = 0.0
        self._wakeup = asyncio.Event()
        self._poll_generation = 0
        self._closing = False
        self._runner: web.AppRunner | None = None
        self._session: ClientSession | None = None
        self._webhook_lock = asyncio.Lock()
        self._tasks: set[asyncio.Task[Any]] = set()
        self._handlers: dict[str, Callable[[JSONDict, dict[str, UploadedFile]], Awaitable[Any]]]
        self._handlers = {
            name[len("_m_") :]: getattr(self, name) for name in dir(self) if name.startswith("_m_")
        }
        self._handlers_lower = {name.lower(): name for name in self._handlers}

    # ------------------------------------------------------------------ lifecycle

    async def start(self) -> FakeTelegram:
        self._closing = False
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_route("*", r"/bot{token:[^/]+}/{method:[^/]+}", self._handle_api)
        app.router.add_get(r"/file/bot{token:[^/]+}/{path:.+}", self._handle_file)
        self._runner = web.AppRunner(
            app, handle_signals=False, shutdown_timeout=1.0, handler_cancellation=True
        )
        await self._runner.setup()
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((self.host, self._requested_port))
        self.port = sock.getsockname()[1]
        await web.SockSite(self._runner, sock).start()
        self._session = ClientSession(timeout=ClientTimeout(total=10))
        return self

    async def stop(self) -> None:
        self._closing = True
        self._notify()
        for task in list(self._tasks):
            task.cancel()
        for task in list(self._tasks):
            with contextlib.suppress(BaseException):
                await task
        if self._session is not None:
            await self._session.close()
            self._session = None
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def __aenter__(self) -> FakeTelegram:
        return await self.start()

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

    @property
    def base_url(self) -> str:
        """For ``ApplicationBuilder().base_url(...)``; PTB appends the token."""
        return f"http://{self.host}:{self.port}/bot"

    @property
    def base_file_url(self) -> str:
        return f"http://{self.host}:{self.port}/file/bot"

    @property
    def api_url(self) -> str:
        return f"{self.base_url}{self.token}"

    @property
    def bot_user(self) -> JSONDict:
        return {
            "id": self.bot_id,
            "is_bot": True,
            "first_name": self.bot_first_name,
            "username": self.bot_username,
        }

    # ------------------------------------------------------------------ clock

    def now(self) -> float:
        """The fake's clock (monotonic seconds); ``advance_time`` moves it forward."""
        return time.monotonic() + self._clock_offset

    def advance_time(self, seconds: float) -> None:
        """Jump the clock forward (expires rate-limit windows without sleeping)."""
        self._clock_offset += seconds

    def _unix(self) -> int:
        return int(time.time() + self._clock_offset)

    # ------------------------------------------------------------------ world building

    def add_user(
        self,
        first_name: str,
        *,
        username: str | None = None,
        language_code: str | None = "en",
        user_id: int | None = None,
        last_name: str | None = None,
        started: bool = False,
    ) -> FakeUser:
        user = FakeUser(
            id=user_id if user_id is not None else next(self._user_ids),
            first_name=first_name,
            username=username,
            language_code=language_code,
            last_name=last_name,
            started=started,
        )
        self.users[user.id] = user
        self.chats[user.id] = FakeChat(
            id=user.id, type="private", first_name=first_name, username=username, user=user
        )
        return user

    def add_group(
        self,
        title: str,
        *,
        members: Iterable[FakeUser] = (),
        admins: Iterable[FakeUser] = (),
        creator: FakeUser | None = None,
        supergroup: bool = True,
        forum: bool = False,
        chat_id: int | None = None,
        username: str | None = None,
        bot_status: str = "member",
    ) -> FakeChat:
        """A group chat the bot is in. Supergroup ids look like -100..., basic ones -4...."""
        if forum and not supergroup:
            raise ValueError("only supergroups can be forums")
        n = next(self._group_ids)
        if chat_id is None:
            chat_id = -(1_000_000_000_000 + n) if supergroup else -(4_000_000_000 + n)
        chat = FakeChat(
            id=chat_id,
            type="supergroup" if supergroup else "group",
            title=title,
            username=username,
            is_forum=forum,
            bot_status=bot_status,
        )
        for user in members:
            chat.members[user.id] = "member"
        for user in admins:
            chat.members[user.id] = "administrator"
        if creator is not None:
            chat.members[creator.id] = "creator"
        self.chats[chat.id] = chat
        return chat

    def add_topic(self, chat: ChatRef, name: str) -> int:
        """Create a forum topic; returns its message_thread_id."""
        group = self.chat(chat)
        if not group.is_forum:
            raise ValueError(f"chat {group.id} is not a forum")
        thread_id = group.new_message_id()
        group.topics[thread_id] = name
        return thread_id

    def migrate_group(self, chat: ChatRef) -> FakeChat:
        """Upgrade a basic group to a supergroup with a new id, as Telegram does.

        The old id then refuses every call with ``migrate_to_chat_id``; the bot gets a
        service message in each chat (``migrate_to_chat_id`` in the old one,
        ``migrate_from_chat_id`` in the new one). Returns the new supergroup.
        """
        old = self.chat(chat)
        if old.type != "group":
            raise ValueError(f"chat {old.id} is not a basic group")
        new = self.add_group(old.title or "", supergroup=True, bot_status=old.bot_status)
        new.members = dict(old.members)
        old.migrated_to = new.id
        actor = next((self.users[uid].to_api() for uid in old.members if uid in self.users),
                     self.bot_user)
        for where, service in ((old, {"migrate_to_chat_id": new.id}),
                               (new, {"migrate_from_chat_id": old.id})):
            message = FakeMessage(chat=where, message_id=where.new_message_id(),
                                  date=self._unix(), sent_at=self.now(), from_bot=False,
                                  from_user=actor, service=service)
            where.messages.append(message)
            message.update_id = self._enqueue("message", message.to_api())
        return new

    def set_member_status(self, chat: ChatRef, user: UserRef, status: str) -> None:
        """status: creator | administrator | member | left | kicked."""
        if status not in ("creator", "administrator", "member", "left", "kicked"):
            raise ValueError(f"unsupported status {status!r}")
        self.chat(chat).members[self.user(user).id] = status

    def set_bot_status(self, chat: ChatRef, status: str) -> None:
        """Make the bot an administrator, a plain member, or remove it (left/kicked)."""
        group = self.chat(chat)
        old = group.bot_status
        group.bot_status = status
        if old != status:
            self._enqueue(
                "my_chat_member",
                self._member_update(group, None, old, status),
            )

    def user(self, ref: UserRef) -> FakeUser:
        if isinstance(ref, FakeUser):
            return ref
        return self.users[ref]

    def chat(self, ref: ChatRef) -> FakeChat:
        """Resolve a chat: FakeChat, FakeUser (their private chat), id or @username."""
        if isinstance(ref, FakeChat):
            return ref
        if isinstance(ref, FakeUser):
            return self.chats[ref.id]
        if isinstance(ref, str):
            for chat in self.chats.values():
                if chat.username and f"@{chat.username}".lower() == ref.lower():
                    return chat
            raise KeyError(ref)
        return self.chats[ref]

    def private_chat(self, user: UserRef) -> FakeChat:
        return self.chats[self.user(user).id]

    # ------------------------------------------------------------------ update injection

    def user_says(
        self,
        user: UserRef,
        chat: ChatRef | None,
        text: str,
        thread_id: int | None = None,
        *,
        reply_to: MessageRef | None = None,
    ) -> FakeMessage:
        """A user writes ``text`` in ``chat`` (None: the private chat with the bot).

        ``bot_command`` (and ``mention``) entities are generated like Telegram does, so
        ``CommandHandler`` works, including ``/cmd@bot_username``.  Returns the message;
        its ``update_id`` is None when privacy mode kept it from the bot.
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
        for regex, kind in ((_COMMAND_RE, "bot_command"), (_MENTION_RE, "mention")):
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
            date=self._unix(),
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
                self._pending.append(_Pending(update_id, update, forced=True))
                self._pending.sort(key=lambda p: p.update_id)  # Telegram answers in id order
                self._notify()
                self._maybe_auto_deliver()
                return
        raise KeyError(update_id)

    def _member_update(self, chat: FakeChat, user: FakeUser | None, old: str, new: str) -> JSONDict:
        actor = (
            user.to_api()
            if user
            else next(
                (self.users[u].to_api() for u, s in chat.members.items() if s == "creator"),
                {
                    "id": 1087968824,
                    "is_bot": True,
                    "first_name": "Group",
                    "username": "GroupAnonymousBot",
                },
            )
        )
        return {
            "chat": chat.to_api(),
            "from": actor,
            "date": self._unix(),
            "old_chat_member": self._member_dict(chat, self.bot_user, old),
            "new_chat_member": self._member_dict(chat, self.bot_user, new),
        }

    def _enqueue(self, kind: str, payload: JSONDict) -> int:
        update_id = next(self._update_ids)
        update = {"update_id": update_id, kind: payload}
        self.updates_log.append(update)
        self._pending.append(_Pending(update_id, update))
        self._notify()
        self._maybe_auto_deliver()
        return update_id

    def _notify(self) -> None:
        self._wakeup.set()
        self._wakeup = asyncio.Event()

    @property
    def pending_updates(self) -> list[JSONDict]:
        return [p.payload for p in self._pending]

    # ------------------------------------------------------------------ failure injection

    def fail_next(
        self,
        method: str,
        error_code: int,
        description: str | None = None,
        retry_after: int | None = None,
        *,
        times: int = 1,
        chat_id: int | None = None,
        after_effect: bool = False,
        delay: float = 0.0,
    ) -> None:
        """Make the next ``times`` calls of ``method`` fail with a Telegram-shaped error.

        ``after_effect``: the call still takes effect and only the answer is an error
        (e.g. a 502 after the message was delivered).  ``chat_id`` restricts it to one chat.
        ``delay`` seconds before answering.  Use method "*" to match any method.
        """
        if description is None:
            description = (
                f"Too Many Requests: retry after {retry_after or 1}"
                if error_code == 429
                else _DEFAULT_DESCRIPTIONS.get(error_code, f"Error {error_code}")
            )
        if error_code == 429 and retry_after is None:
            retry_after = 1
        self._failures.append(
            _Failure(
                method, error_code, description, retry_after, times, chat_id, after_effect, delay
            )
        )

    def _take_failure(self, method: str, params: JSONDict) -> _Failure | None:
        for failure in self._failures:
            if failure.method not in (method, "*"):
                continue
            if failure.chat_id is not None and params.get("chat_id") != failure.chat_id:
                continue
            failure.times -= 1
            if failure.times <= 0:
                self._failures.remove(failure)
            return failure
        return None

    # ------------------------------------------------------------------ rate limits

    def _chat_id_of(self, params: JSONDict) -> int | None:
        try:
            return self.chat(params["chat_id"]).id
        except (KeyError, TypeError, ValueError):
            return None

    def _check_rate(self, method: str, params: JSONDict) -> None:
        limits = self.rate_limits
        if limits is None or method not in limits.methods:
            return
        now = self.now()
        chat_id = self._chat_id_of(params)
        chat = self.chats.get(chat_id) if chat_id is not None else None
        checks: list[tuple[str, int | None, float, list[float]]] = []
        if limits.global_messages is not None:
            checks.append(
                (
                    "global",
                    limits.global_messages,
                    limits.global_window,
                    [t for t, _ in self._send_events if t > now - limits.global_window],
                )
            )
        if chat is not None:
            count, window = (
                (limits.group_messages, limits.group_window)
                if chat.is_group
                else (limits.private_messages, limits.private_window)
            )
            if count is not None:
                checks.append(
                    (
                        "chat",
                        count,
                        window,
                        [t for t, c in self._send_events if c == chat_id and t > now - window],
                    )
                )
        for scope, count, window, times in checks:
            if count is not None and len(times) >= count:
                oldest = sorted(times)[len(times) - count]
                retry_after = max(1, math.ceil(oldest + window - now))
                self.rate_limited.append(RateLimitHit(method, chat_id, retry_after, scope, now))
                raise _too_many(retry_after)

    def _record_send(self, method: str, params: JSONDict) -> None:
        # recorded even while limits are off, so enabling them later sees earlier sends
        limits = self.rate_limits or RateLimits()
        if method not in limits.methods:
            return
        now = self.now()
        self._send_events.append((now, self._chat_id_of(params)))
        horizon = max(limits.group_window, limits.private_window, limits.global_window)
        self._send_events = [e for e in self._send_events if e[0] > now - horizon]

    # ------------------------------------------------------------------ HTTP layer

    async def _read_params(self, request: web.Request) -> tuple[JSONDict, dict[str, UploadedFile]]:
        raw: dict[str, Any] = dict(request.query)
        files: dict[str, UploadedFile] = {}
        if request.content_type == "application/json":
            body = await request.read()
            if body:
                decoded = json.loads(body)
                if not isinstance(decoded, dict):
                    raise _bad_request("request body must be a JSON object")
                return decoded, files
        elif request.can_read_body:
            form = await request.post()
            for key, value in form.items():
                if isinstance(value, web.FileField):
                    files[key] = UploadedFile(
                        key, value.filename, value.content_type, value.file.read()
                    )
                elif isinstance(value, bytes | bytearray):
                    files[key] = UploadedFile(key, None, None, bytes(value))
                else:
                    raw[key] = value
        return {k: self._decode_value(k, v) for k, v in raw.items()}, files

    @staticmethod
    def _decode_value(key: str, value: Any) -> Any:
        if not isinstance(value, str) or key in _STRING_PARAMS:
            return value
        try:
            return json.loads(value)
        except ValueError:
            return value

    async def _handle_api(self, request: web.Request) -> web.Response:
        if request.match_info["token"] != self.token:
            return web.json_response(
                {"ok": False, "error_code": 401, "description": "Unauthorized"}, status=401
            )
        try:
            params, files = await self._read_params(request)
        except ApiError as exc:
            return web.json_response(exc.body(), status=exc.code)
        status, body = await self.dispatch(request.match_info["method"], params, files)
        return web.json_response(body, status=status)

    async def _handle_file(self, request: web.Request) -> web.StreamResponse:
        if request.match_info["token"] != self.token:
            raise web.HTTPUnauthorized()
        path = request.match_info["path"]
        for stored in self.files.values():
            if stored.file_path == path:
                return web.Response(body=stored.data, content_type=stored.mime_type)
        raise web.HTTPNotFound()

    async def dispatch(
        self,
        method: str,
        params: JSONDict,
        files: dict[str, UploadedFile] | None = None,
        *,
        via: str = "http",
    ) -> tuple[int, JSONDict]:
        """Run one API method as if it arrived over HTTP; returns (status, body)."""
        files = files or {}
        canonical = self._handlers_lower.get(method.lower())
        call = ApiCall(canonical or method, params, files, self.now(), via=via)
        self.calls.append(call)
        try:
            if canonical is None:
                raise ApiError(
                    404, f"Not Found: method '{method}' is not implemented by FakeTelegram"
                )
            failure = self._take_failure(canonical, params)
            if failure is not None and failure.delay:
                await asyncio.sleep(failure.delay)
            if failure is not None and not failure.after_effect:
                raise ApiError(failure.error_code, failure.description, failure.retry_after)
            self._check_rate(canonical, params)
            result = await self._handlers[canonical](params, files)
            self._record_send(canonical, params)
            if failure is not None:
                raise ApiError(failure.error_code, failure.description, failure.retry_after)
        except ApiError as exc:
            call.error_code, call.description = exc.code, exc.description
            call.retry_after = exc.retry_after
            call.finished = True
            return exc.code, exc.body()
        except asyncio.CancelledError:
            call.cancelled = True
            raise
        call.result = result
        call.finished = True
        return 200, {"ok": True, "result": result}

    # ------------------------------------------------------------------ parameter helpers

    def _param_chat(self, params: JSONDict, *, write: bool = True) -> FakeChat:
        if "chat_id" not in params:
            raise _bad_request("chat_id is empty")
        try:
            chat = self.chat(params["chat_id"])
        except (KeyError, TypeError):
            raise _bad_request("chat not found") from None
        if write:
            self._check_can_write(chat)
        return chat

    def _check_can_write(self, chat: FakeChat) -> None:
        if chat.migrated_to is not None:
            raise ApiError(400, "Bad Request: group chat was upgraded to a supergroup chat",
                           migrate_to_chat_id=chat.migrated_to)
        if chat.type == "private":
            assert chat.user is not None
            if chat.user.blocked:
                raise _forbidden("bot was blocked by the user")
            if not chat.user.started:
                raise _forbidden("bot can't initiate conversation with a user")
        elif chat.bot_status == "kicked":
            kind = "supergroup chat" if chat.type == "supergroup" else "group chat"
            raise _forbidden(f"bot was kicked from the {kind}")
        elif chat.bot_status == "left":
            kind = "supergroup chat" if chat.type == "supergroup" else "group chat"
            raise _forbidden(f"bot is not a member of the {kind}")

    @staticmethod
    def _int(params: JSONDict, key: str, default: int | None = None) -> int | None:
        if key not in params or params[key] is None:
            return default
        try:
            return int(params[key])
        except (TypeError, ValueError):
            raise _bad_request(f"invalid {key} specified") from None

    def _param_thread(self, chat: FakeChat, params: JSONDict) -> int | None:
        thread_id = self._int(params, "message_thread_id")
        if thread_id is not None and chat.is_forum and thread_id not in chat.topics:
            raise _bad_request("message thread not found")
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
                raise _bad_request("can't parse reply keyboard markup JSON object") from None
        if not isinstance(markup, dict):
            raise _bad_request("can't parse reply keyboard markup JSON object")
        if "inline_keyboard" not in markup:
            if inline_only:
                raise _bad_request("inline keyboard expected")
            return markup
        rows = markup["inline_keyboard"]
        if not isinstance(rows, list) or not all(isinstance(r, list) for r in rows):
            raise _bad_request(
                'can\'t parse inline keyboard: field "inline_keyboard" must be an Array of Arrays'
            )
        if sum(len(r) for r in rows) > 100:
            raise _bad_request("reply markup is too long")
        for row in rows:
            for button in row:
                if not isinstance(button, dict) or not button.get("text"):
                    raise _bad_request("BUTTON_TEXT_INVALID")
                if "callback_data" in button:
                    data = button["callback_data"]
                    if not isinstance(data, str) or not 1 <= len(data.encode("utf-8")) <= 64:
                        raise _bad_request("BUTTON_DATA_INVALID")
                elif "url" in button:
                    scheme = urlsplit(str(button["url"])).scheme.lower()
                    if scheme not in ("http", "https", "tg"):
                        raise _bad_request("BUTTON_URL_INVALID")
                elif not (set(button) - {"text"}):
                    raise _bad_request(
                        "can't parse inline keyboard button: Text buttons are unallowed in "
                        "the inline keyboard"
                    )
        return markup

    def _param_text(self, params: JSONDict) -> tuple[str, list[JSONDict]]:
        text = params.get("text")
        if text is None or text == "":
            raise _bad_request("message text is empty")
        plain, entities = format_text(str(text), params.get("parse_mode"))
        if not plain:
            raise _bad_request("message text is empty")
        if len(plain) > 4096:
            raise _bad_request("message is too long")
        return plain, entities

    def _param_caption(self, params: JSONDict) -> tuple[str | None, list[JSONDict]]:
        caption = params.get("caption")
        if caption is None or caption == "":
            return None, []
        plain, entities = format_text(str(caption), params.get("parse_mode"))
        if len(plain) > 1024:
            raise _bad_request("message caption is too long")
        return plain or None, entities

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
            raise _bad_request("message to be replied not found")
        return found

    def _find(self, chat: FakeChat, message_id: int) -> FakeMessage | None:
        for message in chat.messages:
            if message.message_id == message_id:
                return message
        return None

    def _param_message(self, params: JSONDict, *, action: str = "edit") -> FakeMessage:
        if params.get("inline_message_id"):
            raise _bad_request("inline messages are not supported by FakeTelegram")
        chat = self._param_chat(params, write=action == "edit")
        message_id = self._int(params, "message_id")
        if message_id is None:
            raise _bad_request("message identifier is not specified")
        message = self._find(chat, message_id)
        if message is None or message.deleted:
            raise _bad_request(f"message to {action} not found")
        if action == "edit" and not message.from_bot:
            raise _bad_request("message can't be edited")
        return message

    def _store_file(self, upload: UploadedFile) -> StoredFile:
        if not upload.data:
            raise _bad_request("file must be non-empty")
        size = _image_size(upload.data)
        if size is None:
            if self.strict_images:
                raise _bad_request("IMAGE_PROCESS_FAILED")
            size = (0, 0)
        width, height = size
        if (
            width
            and height
            and (width + height > 10000 or max(width, height) / min(width, height) > 20)
        ):
            raise _bad_request("PHOTO_INVALID_DIMENSIONS")
        n = next(self._file_ids)
        stored = StoredFile(
            file_id=f"AgACAgFakeFile{n:06d}_{self.bot_id}",
            file_unique_id=f"AQADFake{n:06d}",
            data=upload.data,
            filename=upload.filename,
            mime_type=upload.content_type,
            width=width,
            height=height,
            file_path=f"photos/file_{n}.png",
        )
        self.files[stored.file_id] = stored
        return stored

    def _resolve_photo(
        self, value: Any, files: dict[str, UploadedFile], field_name: str
    ) -> tuple[StoredFile | None, str | None]:
        """(stored file, url) for a photo given as upload, attach://, file_id or URL."""
        if value is None and field_name in files:
            return self._store_file(files[field_name]), None
        if not isinstance(value, str) or not value:
            raise _bad_request("there is no photo in the request")
        if value.startswith("attach://"):
            name = value[len("attach://") :]
            if name not in files:
                raise _bad_request(f'can\'t find attached file "{name}"')
            return self._store_file(files[name]), None
        if value.startswith(("http://", "https://")):
            return None, value
        stored = self.files.get(value)
        if stored is None:
            raise _bad_request("wrong file identifier/HTTP URL specified")
        return stored, None

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
            _canonical_json(getattr(message, key)) == _canonical_json(value)
            for key, value in changes.items()
            if key not in ("sent_text", "sent_caption", "parse_mode")
        )
        if same:
            raise _bad_request(_NOT_MODIFIED)
        message.versions.append(snapshot)
        for key, value in changes.items():
            setattr(message, key, value)
        message.edit_date = self._unix()
        return message.to_api()

    # ------------------------------------------------------------------ API methods
    # Each _m_<method> takes (params, files) and returns the "result" or raises ApiError.

    async def _m_getMe(self, params: JSONDict, files: dict[str, UploadedFile]) -> JSONDict:
        return {
            **self.bot_user,
            "can_join_groups": self.can_join_groups,
            "can_read_all_group_messages": self.can_read_all_group_messages,
            "supports_inline_queries": False,
            "can_connect_to_business": False,
            "has_main_web_app": False,
        }

    async def _m_sendMessage(self, params: JSONDict, files: dict[str, UploadedFile]) -> JSONDict:
        chat = self._param_chat(params)
        text, entities = self._param_text(params)
        markup = self._param_markup(params)
        thread_id = self._param_thread(chat, params)
        reply_to = self._param_reply_to(chat, params)
        message = self._new_bot_message(
            chat,
            text=text,
            entities=entities,
            sent_text=params["text"],
            parse_mode=params.get("parse_mode"),
            reply_markup=markup,
            message_thread_id=thread_id,
            reply_to=reply_to,
        )
        return message.to_api()

    async def _m_sendPhoto(self, params: JSONDict, files: dict[str, UploadedFile]) -> JSONDict:
        chat = self._param_chat(params)
        caption, caption_entities = self._param_caption(params)
        markup = self._param_markup(params)
        thread_id = self._param_thread(chat, params)
        reply_to = self._param_reply_to(chat, params)
        stored, url = self._resolve_photo(params.get("photo"), files, "photo")
        message = self._new_bot_message(
            chat,
            photo=stored,
            photo_url=url,
            caption=caption,
            caption_entities=caption_entities,
            sent_caption=params.get("caption"),
            parse_mode=params.get("parse_mode"),
            reply_markup=markup,
            message_thread_id=thread_id,
            reply_to=reply_to,
        )
        if stored is None:  # URL: pretend Telegram fetched an image
            message.photo = StoredFile(
                f"AgACAgFakeUrl{next(self._file_ids):06d}", "AQADFakeUrl", b"", None, None
            )
        return message.to_api()

    async def _m_editMessageText(
        self, params: JSONDict, files: dict[str, UploadedFile]
    ) -> JSONDict:
        message = self._param_message(params)
        text, entities = self._param_text(params)
        markup = self._param_markup(params, inline_only=True)
        if message.text is None:
            raise _bad_request("there is no text in the message to edit")
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
            raise _bad_request("there is no caption in the message to edit")
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

    async def _m_editMessageMedia(
        self, params: JSONDict, files: dict[str, UploadedFile]
    ) -> JSONDict:
        message = self._param_message(params)
        media = params.get("media")
        if not isinstance(media, dict):
            raise _bad_request("can't parse InputMedia JSON object")
        if media.get("type") != "photo":
            raise _bad_request(f"FakeTelegram only supports photo media, not {media.get('type')!r}")
        markup = self._param_markup(params, inline_only=True)
        if message.photo is None:
            raise _bad_request("there is no media in the message to edit")
        stored, url = self._resolve_photo(media.get("media"), files, "media")
        caption, caption_entities = self._param_caption(
            {"caption": media.get("caption"), "parse_mode": media.get("parse_mode")}
        )
        if stored is None:
            stored = StoredFile(
                f"AgACAgFakeUrl{next(self._file_ids):06d}", "AQADFakeUrl", b"", None, None
            )
        return self._edit(
            message,
            photo=stored,
            photo_url=url,
            caption=caption,
            caption_entities=caption_entities,
            reply_markup=markup,
            sent_caption=media.get("caption"),
            parse_mode=media.get("parse_mode"),
        )

    async def _m_deleteMessage(self, params: JSONDict, files: dict[str, UploadedFile]) -> bool:
        message = self._param_message(params, action="delete")
        chat = message.chat
        if (
            not message.from_bot
            and chat.is_group
            and chat.bot_status not in ("administrator", "creator")
        ):
            raise _bad_request("message can't be deleted")
        message.deleted = True
        return True

    async def _m_deleteMessages(self, params: JSONDict, files: dict[str, UploadedFile]) -> bool:
        chat = self._param_chat(params, write=False)
        ids = params.get("message_ids") or []
        for message_id in ids:
            found = self._find(chat, int(message_id))
            if found is not None and (
                found.from_bot or chat.type == "private" or chat.bot_status == "administrator"
            ):
                found.deleted = True
        return True

    async def _m_answerCallbackQuery(
        self, params: JSONDict, files: dict[str, UploadedFile]
    ) -> bool:
        query_id = str(params.get("callback_query_id", ""))
        press = self.callbacks.get(query_id)
        if press is None or press.answered:
            raise _bad_request(
                "query is too old and response timeout expired or query ID is invalid"
            )
        text = params.get("text")
        if text is not None and len(str(text)) > 200:
            raise _bad_request("MESSAGE_TOO_LONG")
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
            raise _bad_request("wrong parameter action in request")
        self.chat_actions.append(
            (chat.id, str(action), self._param_thread(chat, params), self.now())
        )
        return True

    @staticmethod
    def _scope_key(scope: Any) -> str:
        if scope is None:
            scope = {"type": "default"}
        if isinstance(scope, str):
            scope = json.loads(scope) if scope.startswith("{") else {"type": scope}
        return json.dumps(scope, sort_keys=True)

    async def _m_setMyCommands(self, params: JSONDict, files: dict[str, UploadedFile]) -> bool:
        commands = params.get("commands")
        if not isinstance(commands, list):
            raise _bad_request("can't parse commands JSON object")
        parsed: list[tuple[str, str]] = []
        for entry in commands:
            name = str(entry.get("command", "")) if isinstance(entry, dict) else ""
            description = str(entry.get("description", "")) if isinstance(entry, dict) else ""
            if not _BOT_COMMAND_NAME_RE.match(name):
                raise _bad_request("BOT_COMMAND_INVALID")
            if not 1 <= len(description) <= 256:
                raise _bad_request("BOT_COMMAND_DESCRIPTION_INVALID")
            parsed.append((name, description))
        if len(parsed) > 100:
            raise _bad_request("too many commands")
        key = (self._scope_key(params.get("scope")), str(params.get("language_code") or ""))
        self.commands[key] = parsed
        return True

    async def _m_getMyCommands(
        self, params: JSONDict, files: dict[str, UploadedFile]
    ) -> list[JSONDict]:
        key = (self._scope_key(params.get("scope")), str(params.get("language_code") or ""))
        return [{"command": c, "description": d} for c, d in self.commands.get(key, [])]

    async def _m_deleteMyCommands(self, params: JSONDict, files: dict[str, UploadedFile]) -> bool:
        key = (self._scope_key(params.get("scope")), str(params.get("language_code") or ""))
        self.commands.pop(key, None)
        return True

    async def _m_getChat(self, params: JSONDict, files: dict[str, UploadedFile]) -> JSONDict:
        chat = self._param_chat(params, write=False)
        return {
            **chat.to_api(),
            "accent_color_id": 0,
            "max_reaction_count": 11,
            "accepted_gift_types": {
                "unlimited_gifts": False,
                "limited_gifts": False,
                "unique_gifts": False,
                "premium_subscription": False,
                "gifts_from_channels": False,
            },
        }

    def _member_dict(self, chat: FakeChat, user: JSONDict, status: str) -> JSONDict:
        if status == "creator":
            return {"status": "creator", "user": user, "is_anonymous": False}
        if status == "administrator":
            return {
                "status": "administrator",
                "user": user,
                "can_be_edited": False,
                "is_anonymous": False,
                "can_manage_chat": True,
                "can_delete_messages": True,
                "can_manage_video_chats": True,
                "can_restrict_members": True,
                "can_promote_members": False,
                "can_change_info": True,
                "can_invite_users": True,
                "can_post_stories": False,
                "can_edit_stories": False,
                "can_delete_stories": False,
                "can_pin_messages": True,
                "can_manage_topics": chat.is_forum,
            }
        if status == "kicked":
            return {"status": "kicked", "user": user, "until_date": 0}
        return {"status": status, "user": user}

    async def _m_getChatMember(self, params: JSONDict, files: dict[str, UploadedFile]) -> JSONDict:
        chat = self._param_chat(params, write=False)
        user_id = self._int(params, "user_id")
        if user_id == self.bot_id:
            return self._member_dict(chat, self.bot_user, chat.bot_status)
        user = self.users.get(user_id or 0)
        if user is None:
            raise _bad_request("PARTICIPANT_ID_INVALID" if chat.is_group else "user not found")
        if chat.type == "private":
            status = "member" if chat.id == user.id else "left"
        else:
            status = chat.members.get(user.id, "left")
        return self._member_dict(chat, user.to_api(), status)

    async def _m_getChatAdministrators(
        self, params: JSONDict, files: dict[str, UploadedFile]
    ) -> list[JSONDict]:
        chat = self._param_chat(params, write=False)
        out = [
            self._member_dict(chat, self.users[uid].to_api(), status)
            for uid, status in chat.members.items()
            if status in ("creator", "administrator")
        ]
        if chat.bot_status == "administrator":
            out.append(self._member_dict(chat, self.bot_user, "administrator"))
        return out

    async def _m_getChatMemberCount(self, params: JSONDict, files: dict[str, UploadedFile]) -> int:
        chat = self._param_chat(params, write=False)
        if chat.type == "private":
            return 2
        present = sum(1 for s in chat.members.values() if s not in ("left", "kicked"))
        return present + (chat.bot_status not in ("left", "kicked"))

    async def _m_pinChatMessage(self, params: JSONDict, files: dict[str, UploadedFile]) -> bool:
        message = self._param_message(params, action="pin")
        chat = message.chat
        if chat.is_group and chat.bot_status not in ("administrator", "creator"):
            raise _bad_request("not enough rights to manage pinned messages in the chat")
        chat.pinned.append(message.message_id)
        return True

    async def _m_unpinChatMessage(self, params: JSONDict, files: dict[str, UploadedFile]) -> bool:
        chat = self._param_chat(params, write=False)
        if chat.is_group and chat.bot_status not in ("administrator", "creator"):
            raise _bad_request("not enough rights to manage pinned messages in the chat")
        message_id = self._int(params, "message_id")
        if message_id is None:
            if chat.pinned:
                chat.pinned.pop()
        elif message_id in chat.pinned:
            chat.pinned.remove(message_id)
        return True

    async def _m_getFile(self, params: JSONDict, files: dict[str, UploadedFile]) -> JSONDict:
        stored = self.files.get(str(params.get("file_id", "")))
        if stored is None:
            raise _bad_request("wrong file_id or the file is temporarily unavailable")
        return {
            "file_id": stored.file_id,
            "file_unique_id": stored.file_unique_id,
            "file_size": len(stored.data),
            "file_path": stored.file_path,
        }

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

    def _confirm(self, offset: int) -> None:
        if offset > 0:
            self._pending = [p for p in self._pending if p.update_id >= offset or p.forced]
        elif offset < 0:
            self._pending = self._pending[offset:]

    def _deliverable(self, allowed: frozenset[str]) -> list[_Pending]:
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

    async def _m_setWebhook(self, params: JSONDict, files: dict[str, UploadedFile]) -> bool:
        url = str(params.get("url") or "")
        if params.get("drop_pending_updates"):
            self._pending.clear()
        if not url:
            self.webhook = None
            self.webhook_history.append(("set", None))
            return True
        if urlsplit(url).scheme not in ("http", "https"):
            raise _bad_request(
                "bad webhook: Webhook can be set up only on ports 80, 88, 443 or 8443"
            )
        secret = params.get("secret_token")
        if secret is not None and not _SECRET_TOKEN_RE.match(str(secret)):
            raise _bad_request("secret token contains unallowed characters")
        allowed = params.get("allowed_updates")
        self.webhook = WebhookConfig(
            url=url,
            secret_token=str(secret) if secret is not None else None,
            allowed_updates=self._parse_allowed(allowed) if allowed is not None else None,
            max_connections=self._int(params, "max_connections", 40) or 40,
            set_at=self.now(),
        )
        if allowed is not None:
            self._allowed_updates = self._parse_allowed(allowed)
        self._poll_generation += 1  # a waiting getUpdates now conflicts
        self._notify()
        self.webhook_history.append(("set", self.webhook))
        self._maybe_auto_deliver()
        return True

    async def _m_deleteWebhook(self, params: JSONDict, files: dict[str, UploadedFile]) -> bool:
        if params.get("drop_pending_updates"):
            self._pending.clear()
        self.webhook = None
        self.webhook_history.append(("delete", None))
        return True

    async def _m_getWebhookInfo(self, params: JSONDict, files: dict[str, UploadedFile]) -> JSONDict:
        info: JSONDict = {
            "url": self.webhook.url if self.webhook else "",
            "has_custom_certificate": False,
            "pending_update_count": len(self._pending),
        }
        if self.webhook is not None:
            info["max_connections"] = self.webhook.max_connections
            if self.webhook.allowed_updates is not None:
                info["allowed_updates"] = sorted(self.webhook.allowed_updates)
            if self.webhook_last_error is not None:
                info["last_error_date"], info["last_error_message"] = self.webhook_last_error
        return info

    async def _m_logOut(self, params: JSONDict, files: dict[str, UploadedFile]) -> bool:
        return True

    async def _m_close(self, params: JSONDict, files: dict[str, UploadedFile]) -> bool:
        return True

    async def _m_setMyDescription(self, params: JSONDict, files: dict[str, UploadedFile]) -> bool:
        return True

    async def _m_setMyShortDescription(
        self, params: JSONDict, files: dict[str, UploadedFile]
    ) -> bool:
        return True

    async def _m_setChatMenuButton(self, params: JSONDict, files: dict[str, UploadedFile]) -> bool:
        return True

    # ------------------------------------------------------------------ webhook delivery

    def _maybe_auto_deliver(self) -> None:
        if not (self.auto_deliver_webhook and self.webhook and self._session):
            return
        task = asyncio.get_running_loop().create_task(self.deliver_webhook())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def deliver_webhook(
        self,
        url: str | None = None,
        secret_token: str | None = None,
        *,
        times: int = 1,
    ) -> list[WebhookDelivery]:
        """POST every pending update (JSON, one per request) to the webhook, in order.

        ``url``/``secret_token`` default to what setWebhook configured (``secret_token=""``
        sends no header).  ``times=2`` posts each update twice (duplicate delivery).  An update
        is confirmed by any 2xx answer; on a failure it stays pending and delivery stops.
        A JSON answer with a "method" key is executed like Telegram's webhook reply.
        """
        if self._session is None:
            raise RuntimeError("FakeTelegram is not started")
        if times < 1:
            raise ValueError("times must be at least 1")
        target = url or (self.webhook.url if self.webhook else None)
        if not target:
            raise RuntimeError("no webhook URL: call setWebhook or pass url")
        if not _is_loopback_url(target):
            raise ValueError(f"refusing to deliver to non-loopback URL {target}")
        if secret_token is None and self.webhook is not None:
            secret_token = self.webhook.secret_token
        allowed = (
            self.webhook.allowed_updates
            if self.webhook is not None and self.webhook.allowed_updates is not None
            else self._allowed_updates
        )
        deliveries: list[WebhookDelivery] = []
        async with self._webhook_lock:
            while True:
                pending = self._deliverable(allowed)
                if not pending:
                    break
                item = pending[0]
                ok = False
                for _ in range(times):
                    delivery = await self._post_update(target, secret_token or None, item.payload)
                    deliveries.append(delivery)
                    ok = delivery.status is not None and 200 <= delivery.status < 300
                if not ok:
                    self.webhook_last_error = (
                        self._unix(),
                        delivery.error or f"Wrong response from the webhook: {delivery.status}",
                    )
                    break
                if item in self._pending:
                    self._pending.remove(item)
        return deliveries

    async def _post_update(
        self, url: str, secret_token: str | None, update: JSONDict
    ) -> WebhookDelivery:
        assert self._session is not None
        headers = {"Content-Type": "application/json"}
        if secret_token:
            headers["X-Telegram-Bot-Api-Secret-Token"] = secret_token
        self.delivered_updates.append(update)
        try:
            async with self._session.post(url, data=json.dumps(update), headers=headers) as resp:
                body = await resp.read()
                delivery = WebhookDelivery(
                    update["update_id"], url, secret_token, resp.status, body, self.now()
                )
                self.webhook_deliveries.append(delivery)
                if resp.status == 200 and resp.content_type == "application/json" and body:
                    with contextlib.suppress(ValueError):
                        reply = json.loads(body)
                        if isinstance(reply, dict) and "method" in reply:
                            method = str(reply.pop("method"))
                            await self.dispatch(method, reply, via="webhook_reply")
                return delivery
        except (ClientError, TimeoutError) as exc:
            delivery = WebhookDelivery(
                update["update_id"], url, secret_token, None, b"", self.now(), error=repr(exc)
            )
            self.webhook_deliveries.append(delivery)
            return delivery

    # ------------------------------------------------------------------ assertion helpers

    def _resolve_message(self, ref: MessageRef, chat: FakeChat | None) -> FakeMessage:
        if isinstance(ref, FakeMessage):
            return ref
        chats = [chat] if chat is not None else list(self.chats.values())
        found = [m for c in chats for m in c.messages if m.message_id == ref and m.from_bot]
        if chat is not None:
            found = found or [m for m in chat.messages if m.message_id == ref]
        if not found:
            raise ValueError(f"no message {ref}" + (f" in chat {chat.id}" if chat else ""))
        if len(found) > 1:
            raise ValueError(f"message id {ref} exists in several chats; pass chat=")
        return found[0]

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

    def my_commands(
        self, scope: str | JSONDict = "default", language_code: str = ""
    ) -> list[tuple[str, str]]:
        """Commands set with setMyCommands for a scope ("default", "all_group_chats", {...})."""
        return self.commands.get((self._scope_key(scope), language_code), [])


def _canonical_json(value: Any) -> str:
    if isinstance(value, StoredFile):
        return value.file_id
    return json.dumps(value, sort_keys=True, default=str)
