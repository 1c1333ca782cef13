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

The package, by job:

* ``server``: ``FakeTelegram`` itself, lifecycle, HTTP and routing to ``_m_<method>``;
* ``state``: configuration, the world, the call record, the clock, looking things up;
* ``world``: the records (``FakeUser``, ``FakeChat``, ``FakeMessage``, ``ApiCall``, ...);
* ``chats``: users, groups, topics, members, the bot itself (getMe, getChat,
  getChatMember, setMyCommands);
* ``messages``: sendMessage, edits, deleteMessage, answerCallbackQuery, sendChatAction,
  and helpers to read the chats;
* ``media``: sendPhoto, editMessageMedia, getFile and file downloads;
* ``updates``: users acting, the update queue, getUpdates;
* ``webhook``: setWebhook, deleteWebhook, getWebhookInfo, delivery to a webhook;
* ``failures``: ``fail_next`` (Telegram-shaped errors), ``drop_next`` (a connection
  dropped without an answer: a network error), ``clear_failures``, and the flood limits;
* ``formatting`` and ``errors``: Telegram's HTML parsing and error answers.

Only the methods the bot and these tests call are implemented; anything else answers 404
like an unknown method.
"""

from tests.adapters.telegram.fake_api.chats import ChatsMixin
from tests.adapters.telegram.fake_api.errors import ApiError
from tests.adapters.telegram.fake_api.failures import (
    ALWAYS,
    COUNTED_METHODS,
    NETWORK,
    RateLimitHit,
    RateLimits,
)
from tests.adapters.telegram.fake_api.formatting import (
    HtmlParseError,
    format_text,
    parse_html,
    utf16_len,
)
from tests.adapters.telegram.fake_api.media import make_png
from tests.adapters.telegram.fake_api.messages import CHAT_ACTIONS
from tests.adapters.telegram.fake_api.server import FakeTelegram
from tests.adapters.telegram.fake_api.state import DEFAULT_TOKEN, DEFAULT_UPDATE_TYPES
from tests.adapters.telegram.fake_api.webhook import WebhookConfig, WebhookDelivery
from tests.adapters.telegram.fake_api.world import (
    AnsweredCallback,
    ApiCall,
    CallbackPress,
    ChatRef,
    FakeChat,
    FakeMessage,
    FakeUser,
    JSONDict,
    MessageRef,
    StoredFile,
    UploadedFile,
    UserRef,
)

__all__ = [
    "ALWAYS",
    "CHAT_ACTIONS",
    "COUNTED_METHODS",
    "DEFAULT_TOKEN",
    "DEFAULT_UPDATE_TYPES",
    "NETWORK",
    "AnsweredCallback",
    "ApiCall",
    "ApiError",
    "CallbackPress",
    "ChatRef",
    "ChatsMixin",
    "FakeChat",
    "FakeMessage",
    "FakeTelegram",
    "FakeUser",
    "HtmlParseError",
    "JSONDict",
    "MessageRef",
    "RateLimitHit",
    "RateLimits",
    "StoredFile",
    "UploadedFile",
    "UserRef",
    "WebhookConfig",
    "WebhookDelivery",
    "format_text",
    "make_png",
    "parse_html",
    "utf16_len",
]
