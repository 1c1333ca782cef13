"""FakeTelegram against a real python-telegram-bot Bot / Application (loopback only)."""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dtm
from collections.abc import AsyncIterator
from typing import Any

import pytest
from aiohttp import web
from telegram import (
    Bot,
    BotCommand,
    BotCommandScopeAllGroupChats,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    InputMediaPhoto,
    Update,
    WebAppInfo,
)
from telegram.constants import ParseMode
from telegram.error import (
    BadRequest,
    Conflict,
    EndPointNotFound,
    Forbidden,
    NetworkError,
    RetryAfter,
)
from telegram.ext import (
    Application,
    ApplicationBuilder,
    CallbackQueryHandler,
    CommandHandler,
    ContextTypes,
    MessageHandler,
    filters,
)

from tests.adapters.telegram.e2e_helpers import ManualClock, wait_until
from tests.adapters.telegram.fake_api import (
    ALWAYS,
    NETWORK,
    FakeTelegram,
    HtmlParseError,
    RateLimits,
    make_png,
    parse_html,
)


@pytest.fixture
async def tg() -> AsyncIterator[FakeTelegram]:
    """The fake, on a clock that moves only with ``advance_time``."""
    async with FakeTelegram(clock=ManualClock(1000.0)) as fake:
        yield fake


@pytest.fixture
async def bot(tg: FakeTelegram) -> AsyncIterator[Bot]:
    async with Bot(tg.token, base_url=tg.base_url, base_file_url=tg.base_file_url) as real_bot:
        yield real_bot


def keyboard(*rows: list[tuple[str, str]]) -> InlineKeyboardMarkup:
    return InlineKeyboardMarkup(
        [[InlineKeyboardButton(text, callback_data=data) for text, data in row] for row in rows]
    )


def seconds(exc: RetryAfter) -> float:
    value = exc.retry_after  # int in PTB 22 (deprecated), timedelta with PTB_TIMEDELTA=1
    return value.total_seconds() if isinstance(value, dtm.timedelta) else float(value)


async def test_get_me(tg: FakeTelegram, bot: Bot) -> None:
    me = await bot.get_me()
    assert me.id == tg.bot_id
    assert me.username == "campfire_test_bot"
    assert me.is_bot and me.can_join_groups
    assert me.supports_inline_queries is False
    assert bot.username == "campfire_test_bot"  # Bot.initialize() called getMe
    assert [c.method for c in tg.calls] == ["getMe", "getMe"]
    assert all(c.ok for c in tg.calls)


async def test_send_edit_and_keyboard_round_trip(tg: FakeTelegram, bot: Bot) -> None:
    alice = tg.add_user("Alice", username="alice")
    group = tg.add_group("Game night", members=[alice], forum=True)
    topic = tg.add_topic(group, "Stone Age")

    sent = await bot.send_message(
        group.id,
        "<b>Round 1</b> &amp; go",
        parse_mode=ParseMode.HTML,
        message_thread_id=topic,
        reply_markup=keyboard([("Join", "j:1"), ("Leave", "l:1")], [("Start", "s:1")]),
    )
    assert sent.text == "Round 1 & go"
    assert sent.entities[0].type == "bold" and sent.entities[0].length == 7
    assert sent.message_thread_id == topic and sent.is_topic_message
    assert sent.reply_markup is not None

    stored = tg.last_message(group)
    assert stored.message_id == sent.message_id
    assert stored.sent_text == "<b>Round 1</b> &amp; go" and stored.parse_mode == "HTML"
    assert stored.message_thread_id == topic
    assert tg.keyboard(stored) == [("Join", "j:1"), ("Leave", "l:1"), ("Start", "s:1")]
    assert tg.messages_in(group, thread_id=topic) == [stored]

    edited = await bot.edit_message_text(
        "Round 2",
        chat_id=group.id,
        message_id=sent.message_id,
        reply_markup=keyboard([("Pass", "p:2")]),
    )
    assert isinstance(edited, type(sent)) and edited.text == "Round 2"
    assert stored.text == "Round 2" and tg.keyboard(stored) == [("Pass", "p:2")]
    assert stored.edit_count == 1

    with pytest.raises(BadRequest, match=r"(?i)message is not modified"):
        await bot.edit_message_text(
            "Round 2",
            chat_id=group.id,
            message_id=sent.message_id,
            reply_markup=keyboard([("Pass", "p:2")]),
        )
    with pytest.raises(BadRequest, match=r"(?i)message to edit not found"):
        await bot.edit_message_text("x", chat_id=group.id, message_id=999)

    await bot.edit_message_reply_markup(
        chat_id=group.id, message_id=sent.message_id, reply_markup=keyboard([("Undo", "u:2")])
    )
    assert tg.keyboard(stored) == [("Undo", "u:2")]
    # Like Telegram: an edit without reply_markup drops the keyboard.
    await bot.edit_message_text("Round 3", chat_id=group.id, message_id=sent.message_id)
    assert tg.keyboard(stored) == []

    assert await bot.delete_message(group.id, sent.message_id)
    assert tg.messages_in(group) == []
    assert tg.messages_in(group, include_deleted=True) == [stored]


async def test_photo_upload_then_edit_media(tg: FakeTelegram, bot: Bot) -> None:
    alice = tg.add_user("Alice", started=True)
    first, second = make_png(30, 20, (255, 0, 0)), make_png(40, 10, (0, 0, 255))

    sent = await bot.send_photo(
        alice.id,
        first,
        caption="<i>Board</i>",
        parse_mode="HTML",
        reply_markup=keyboard([("Zoom", "z")]),
    )
    stored = tg.last_message(alice)
    assert stored.photo_bytes == first and stored.caption == "Board"
    assert (sent.photo[-1].width, sent.photo[-1].height) == (30, 20)
    upload = tg.calls_to("sendPhoto")[0].files["photo"]  # multipart part named "photo"
    assert upload.data == first

    await bot.edit_message_media(
        media=InputMediaPhoto(second, caption="Board v2"),
        chat_id=alice.id,
        message_id=sent.message_id,
        reply_markup=keyboard([("Zoom", "z")]),
    )
    assert stored.photo_bytes == second and stored.caption == "Board v2"
    media_param = tg.calls_to("editMessageMedia")[0].params["media"]
    assert media_param["media"].startswith("attach://")
    assert tg.keyboard(stored) == [("Zoom", "z")]

    await bot.edit_message_caption(chat_id=alice.id, message_id=sent.message_id, caption="v3")
    assert stored.caption == "v3" and tg.keyboard(stored) == []

    # Re-send by file_id and download through base_file_url.
    assert stored.photo is not None
    again = await bot.send_photo(alice.id, stored.photo.file_id)
    assert again.photo[-1].file_id == stored.photo.file_id
    downloaded = await (await bot.get_file(stored.photo.file_id)).download_as_bytearray()
    assert bytes(downloaded) == second

    with pytest.raises(BadRequest, match=r"(?i)IMAGE_PROCESS_FAILED"):
        await bot.send_photo(alice.id, b"not an image")
    with pytest.raises(BadRequest, match=r"(?i)wrong file identifier"):
        await bot.send_photo(alice.id, "AgACAgNoSuchFile")


async def test_answer_callback_query(tg: FakeTelegram, bot: Bot) -> None:
    alice, bob = tg.add_user("Alice"), tg.add_user("Bob")
    group = tg.add_group("G", members=[alice, bob])
    msg = await bot.send_message(group.id, "Pick", reply_markup=keyboard([("A", "a"), ("B", "b")]))

    press = tg.user_presses(bob, msg.message_id, "b")
    query = tg.pending_updates[-1]["callback_query"]
    assert query["data"] == "b" and query["from"]["id"] == bob.id
    assert query["message"]["message_id"] == msg.message_id

    assert await bot.answer_callback_query(press.id, text="Not your turn", show_alert=True)
    assert press.answered and tg.unanswered_callbacks == []
    [answer] = tg.answered_callbacks
    assert (answer.text, answer.show_alert, answer.press) == ("Not your turn", True, press)
    with pytest.raises(BadRequest, match=r"(?i)query ID is invalid"):
        await bot.answer_callback_query(press.id)

    by_label = tg.user_presses(alice, tg.last_message(group), button="A")
    assert by_label.data == "a" and tg.unanswered_callbacks == [by_label]
    with pytest.raises(ValueError, match=r"(?i)not on message"):
        tg.user_presses(alice, msg.message_id, "forged")
    forged = tg.user_presses(alice, msg.message_id, "forged", strict=False)
    assert forged.data == "forged"


async def test_application_long_polling_receives_command_and_callback(tg: FakeTelegram) -> None:
    alice = tg.add_user("Alice", username="alice", language_code="de")
    group = tg.add_group("Game night", members=[alice])
    got: dict[str, Any] = {}
    done = asyncio.Event()

    async def newgame(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        assert update.effective_chat is not None and update.effective_user is not None
        got["args"] = context.args
        got["lang"] = update.effective_user.language_code
        await context.bot.send_message(
            update.effective_chat.id, "Lobby", reply_markup=keyboard([("Join", "join")])
        )

    async def pressed(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        query = update.callback_query
        assert query is not None and query.message is not None
        got["data"] = query.data
        got["from"] = query.from_user.id
        await query.answer("Joined")
        await query.edit_message_text("Lobby: Alice")
        done.set()

    async def text(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        got.setdefault("texts", []).append(
            update.effective_message and update.effective_message.text
        )

    app: Application[Any, Any, Any, Any, Any, Any] = (
        ApplicationBuilder()
        .token(tg.token)
        .base_url(tg.base_url)
        .base_file_url(tg.base_file_url)
        .build()
    )
    app.add_handler(CommandHandler("newgame", newgame))
    app.add_handler(CallbackQueryHandler(pressed))
    app.add_handler(MessageHandler(filters.TEXT & ~filters.COMMAND, text))

    async with app:
        await app.start()
        assert app.updater is not None
        await app.updater.start_polling(poll_interval=0.0, timeout=1)
        try:
            # privacy mode: plain chatter and other bots' commands never reach the bot
            assert tg.user_says(alice, group, "hello all").update_id is None
            assert tg.user_says(alice, group, "/newgame@other_bot").update_id is None
            tg.user_says(alice, group, "/newgame@campfire_test_bot 4")
            await wait_until(lambda: tg.messages_in(group), what="the lobby")
            lobby = tg.last_message(group)
            assert tg.keyboard(lobby) == [("Join", "join")]
            tg.user_presses(alice, lobby, "join")
            await asyncio.wait_for(done.wait(), 10)  # a safety net only
        finally:
            await app.updater.stop()
            await app.stop()

    assert got["args"] == ["4"] and got["lang"] == "de"
    assert (got["data"], got["from"]) == ("join", alice.id)
    assert "texts" not in got
    assert tg.last_message(group).text == "Lobby: Alice"
    assert [a.text for a in tg.answered_callbacks] == ["Joined"]
    assert tg.calls_to("deleteWebhook")  # PTB's polling bootstrap
    assert tg.pending_updates == []  # everything was confirmed via offset


async def test_get_updates_offset_timeout_and_allowed_updates(tg: FakeTelegram, bot: Bot) -> None:
    alice = tg.add_user("Alice")
    first = tg.user_starts_bot(alice, payload="invite_42")
    tg.user_blocks_bot(alice)  # -> my_chat_member update

    assert first.update_id is not None
    updates = await bot.get_updates(timeout=0)
    assert [u.update_id for u in updates] == [first.update_id, first.update_id + 1]
    assert updates[0].message is not None and updates[0].message.text == "/start invite_42"
    assert updates[1].my_chat_member is not None
    # not confirmed yet: asked again, the same updates come back
    assert len(await bot.get_updates(timeout=0)) == 2
    # a higher offset confirms them; a long poll then waits for new ones (its timeout
    # is far longer than the test could take: it only ends with the new update)
    offset = updates[-1].update_id + 1
    polls = len(tg.calls_to("getUpdates"))
    poll = asyncio.create_task(bot.get_updates(offset=offset, timeout=60, read_timeout=70))
    await wait_until(lambda: len(tg.calls_to("getUpdates")) > polls, what="the long poll")
    await asyncio.sleep(0)
    assert not poll.done() and not tg.calls_to("getUpdates")[-1].finished  # it waits
    tg.user_says(alice, None, "hi")
    later = await asyncio.wait_for(poll, 10)  # a safety net only
    assert [u.message.text for u in later if u.message] == ["hi"]

    tg.redeliver(later[0].update_id)  # the same update again (dedupe tests)
    again = await bot.get_updates(offset=later[0].update_id + 1, timeout=0)
    assert [u.update_id for u in again] == [later[0].update_id]

    # allowed_updates filters (and drops) other kinds
    tg.user_blocks_bot(tg.add_user("Bob"))
    tg.user_says(alice, None, "only messages")
    only = await bot.get_updates(
        offset=again[-1].update_id + 1, timeout=0, allowed_updates=["message"]
    )
    assert [u.message.text for u in only if u.message] == ["only messages"]
    assert len(only) == 1


# PTB's own RetryAfter.__init__ reads the deprecated int-valued retry_after.
@pytest.mark.filterwarnings("ignore::telegram.warnings.PTBDeprecationWarning")
async def test_retry_after_from_injection_and_rate_limits(tg: FakeTelegram, bot: Bot) -> None:
    alice = tg.add_user("Alice")
    group = tg.add_group("G", members=[alice])

    tg.fail_next("sendMessage", 429, retry_after=3)
    with pytest.raises(RetryAfter) as caught:
        await bot.send_message(group.id, "hi")
    assert seconds(caught.value) == 3
    assert tg.calls[-1].error_code == 429 and tg.calls[-1].retry_after == 3
    assert tg.messages_in(group) == []  # a failed call has no effect
    await bot.send_message(group.id, "hi")  # one-off

    tg.rate_limits = RateLimits(group_messages=3, group_window=60, global_messages=None)
    tg.advance_time(1)
    t0 = tg.now()
    await bot.send_message(group.id, "2")
    await bot.send_message(group.id, "3")
    with pytest.raises(RetryAfter) as limited:
        await bot.send_message(group.id, "4")
    assert seconds(limited.value) == 59  # the window of "hi", sent a second before t0
    assert [(h.chat_id, h.scope) for h in tg.rate_limited] == [(group.id, "chat")]
    assert tg.sent_count(group, since=t0) == 2 and tg.sent_count(group) == 3
    tg.advance_time(61)
    await bot.send_message(group.id, "after the window")

    tg.rate_limits = RateLimits(group_messages=None, global_messages=2, global_window=1)
    tg.advance_time(61)
    await bot.send_message(group.id, "a")
    await bot.send_message(group.id, "b")
    with pytest.raises(RetryAfter):
        await bot.send_message(group.id, "c")
    assert tg.rate_limited[-1].scope == "global"


async def test_forbidden_and_network_errors(tg: FakeTelegram, bot: Bot) -> None:
    alice = tg.add_user("Alice")
    with pytest.raises(Forbidden, match=r"(?i)bot can't initiate conversation with a user"):
        await bot.send_message(alice.id, "psst")
    tg.user_starts_bot(alice)
    await bot.send_message(alice.id, "psst")
    tg.user_blocks_bot(alice)
    with pytest.raises(Forbidden, match=r"(?i)bot was blocked by the user"):
        await bot.send_message(alice.id, "psst")

    group = tg.add_group("G", members=[alice])
    tg.fail_next("sendMessage", 403, chat_id=group.id)
    with pytest.raises(Forbidden):
        await bot.send_message(group.id, "x")
    tg.fail_next("sendMessage", 502)
    with pytest.raises(NetworkError, match=r"(?i)Bad Gateway"):
        await bot.send_message(group.id, "x")
    # after_effect: delivered, but the answer was lost
    tg.fail_next("sendMessage", 500, after_effect=True)
    with pytest.raises(NetworkError):
        await bot.send_message(group.id, "lost answer")
    assert tg.last_message(group).text == "lost answer"
    with pytest.raises(BadRequest, match=r"(?i)chat not found"):
        await bot.send_message(-100999, "x")


async def test_a_dropped_connection_and_lasting_failures(tg: FakeTelegram, bot: Bot) -> None:
    """``drop_next`` answers nothing (the client sees a network error, not an HTTP
    status), before or after acting; ``ALWAYS`` lasts, per chat, until cleared."""
    alice = tg.add_user("Alice")
    group = tg.add_group("G", members=[alice])
    other = tg.add_group("H", members=[alice])
    tg.drop_next("sendMessage", chat_id=group.id)
    with pytest.raises(NetworkError) as caught:
        await bot.send_message(group.id, "x")
    assert not isinstance(caught.value, (BadRequest, Forbidden, RetryAfter))
    assert tg.messages_in(group) == []
    (dropped,) = tg.errors()
    assert (dropped.method, dropped.error_code) == ("sendMessage", NETWORK)
    tg.drop_next("sendMessage", chat_id=group.id, after_effect=True)
    with pytest.raises(NetworkError):
        await bot.send_message(group.id, "arrived")
    assert tg.last_message(group).text == "arrived"

    tg.fail_next("sendPhoto", 500, times=ALWAYS, chat_id=group.id)
    for _ in range(3):
        with pytest.raises(NetworkError, match="Internal Server Error"):
            await bot.send_photo(group.id, make_png())
    await bot.send_photo(other.id, make_png())  # another chat is not affected
    tg.clear_failures("sendPhoto")
    await bot.send_photo(group.id, make_png())
    assert tg.last_message(group).photo_bytes is not None


async def test_mini_app_buttons_only_in_private_chats_and_on_https(
        tg: FakeTelegram, bot: Bot) -> None:
    alice = tg.add_user("Alice", started=True)
    group = tg.add_group("G", members=[alice])

    def mini_app(url: str) -> InlineKeyboardMarkup:
        return InlineKeyboardMarkup([[InlineKeyboardButton("Page", web_app=WebAppInfo(url))]])

    await bot.send_message(alice.id, "x", reply_markup=mini_app("https://pages.test/t/ab"))
    with pytest.raises(BadRequest, match=r"(?i)BUTTON_TYPE_INVALID"):
        await bot.send_message(group.id, "x", reply_markup=mini_app("https://pages.test/t/ab"))
    with pytest.raises(BadRequest, match=r"(?i)Only HTTPS links are allowed"):
        await bot.send_message(alice.id, "x", reply_markup=mini_app("http://localhost:8088/t/ab"))


async def test_bad_requests_like_telegram(tg: FakeTelegram, bot: Bot) -> None:
    alice = tg.add_user("Alice")
    group = tg.add_group("G", members=[alice])
    with pytest.raises(BadRequest, match=r"(?i)BUTTON_DATA_INVALID"):
        await bot.send_message(group.id, "x", reply_markup=keyboard([("Too long", "x" * 65)]))
    await bot.send_message(group.id, "x", reply_markup=keyboard([("OK", "é" * 32)]))  # 64 bytes
    with pytest.raises(BadRequest, match=r"(?i)can't parse entities: Can't find end tag"):
        await bot.send_message(group.id, "<b>bold", parse_mode="HTML")
    with pytest.raises(BadRequest, match=r'(?i)Unsupported start tag "br"'):
        await bot.send_message(group.id, "a<br>b", parse_mode="HTML")
    with pytest.raises(BadRequest, match=r"(?i)Unmatched end tag"):
        await bot.send_message(group.id, "<b><i>x</b></i>", parse_mode="HTML")
    with pytest.raises(BadRequest, match=r'(?i)Unsupported start tag "" at byte offset 6'):
        await bot.send_message(group.id, "Bob's < 3 stones", parse_mode="HTML")
    ok = await bot.send_message(group.id, "1 &lt; 3 &amp;&amp; &quot;x&quot;", parse_mode="HTML")
    assert ok.text == '1 < 3 && "x"'
    with pytest.raises(BadRequest, match=r"(?i)message is too long"):
        await bot.send_message(group.id, "x" * 4097)
    await bot.send_message(group.id, "<b>" + "x" * 4096 + "</b>", parse_mode="HTML")
    with pytest.raises(BadRequest, match=r"(?i)message text is empty"):
        await bot.send_message(group.id, "  <b> </b> ", parse_mode="HTML")
    with pytest.raises(EndPointNotFound):
        await bot.do_api_request("sendHologram", api_kwargs={"chat_id": group.id})
    assert tg.calls[-1].error_code == 404


async def test_members_commands_and_actions(tg: FakeTelegram, bot: Bot) -> None:
    boss, alice = tg.add_user("Boss"), tg.add_user("Alice")
    group = tg.add_group("G", members=[alice], admins=[boss], bot_status="administrator")
    assert (await bot.get_chat_member(group.id, boss.id)).status == "administrator"
    assert (await bot.get_chat_member(group.id, alice.id)).status == "member"
    tg.set_member_status(group, alice, "creator")
    assert (await bot.get_chat_member(group.id, alice.id)).status == "creator"
    assert (await bot.get_chat_member(group.id, bot.id)).status == "administrator"
    chat = await bot.get_chat(group.id)
    assert (chat.type, chat.title) == ("supergroup", "G")

    await bot.set_my_commands([BotCommand("newgame", "Start a game")])
    await bot.set_my_commands(
        [BotCommand("newgame", "Neues Spiel")],
        scope=BotCommandScopeAllGroupChats(),
        language_code="de",
    )
    assert tg.my_commands() == [("newgame", "Start a game")]
    assert tg.my_commands("all_group_chats", "de") == [("newgame", "Neues Spiel")]
    with pytest.raises(BadRequest, match=r"(?i)BOT_COMMAND_INVALID"):
        await bot.set_my_commands([BotCommand("New-Game", "bad")])

    assert await bot.send_chat_action(group.id, "typing")
    assert tg.chat_actions[-1][:2] == (group.id, "typing")


async def test_webhook_delivery_with_secret_and_duplicates(tg: FakeTelegram, bot: Bot) -> None:
    received: list[tuple[str | None, dict[str, Any]]] = []

    async def hook(request: web.Request) -> web.Response:
        received.append(
            (request.headers.get("X-Telegram-Bot-Api-Secret-Token"), await request.json())
        )
        return web.Response(text="ok")

    receiver = web.Application()
    receiver.router.add_post("/hook", hook)
    runner = web.AppRunner(receiver)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = runner.addresses[0][1]
    try:
        url = f"http://127.0.0.1:{port}/hook"
        assert await bot.set_webhook(url, secret_token="s3cret-token")
        alice = tg.add_user("Alice")
        message = tg.user_starts_bot(alice)
        info = await bot.get_webhook_info()
        assert (info.url, info.pending_update_count) == (url, 1)
        with pytest.raises(Conflict, match=r"(?i)webhook is active"):
            await bot.get_updates(timeout=0)

        deliveries = await tg.deliver_webhook(times=2)
        assert [d.status for d in deliveries] == [200, 200]
        assert [secret for secret, _ in received] == ["s3cret-token"] * 2
        assert [u["update_id"] for _, u in received] == [message.update_id] * 2
        assert received[0][1]["message"]["text"] == "/start"
        assert (await bot.get_webhook_info()).pending_update_count == 0

        tg.user_says(alice, None, "hi")
        await tg.deliver_webhook(secret_token="wrong")
        assert received[-1][0] == "wrong"

        assert await bot.delete_webhook()
        assert [kind for kind, _ in tg.webhook_history] == ["set", "delete"]
        assert await bot.get_updates(timeout=0) == ()
    finally:
        await runner.cleanup()


class SlowHook:
    """A webhook that holds every request until ``gate`` opens, noting how many were
    under way at once, overall and per chat, and what it received."""

    def __init__(self, fail: frozenset[str] = frozenset()) -> None:
        self.gate = asyncio.Event()
        self.fail = fail
        self.active = 0
        self.most = 0
        self.per_chat: dict[int, int] = {}
        self.overlapped: list[int] = []  # chats that had two requests under way at once
        self.received: list[tuple[int, str]] = []

    async def __call__(self, request: web.Request) -> web.Response:
        update = await request.json()
        chat, text = update["message"]["chat"]["id"], update["message"]["text"]
        self.received.append((chat, text))
        self.active += 1
        self.most = max(self.most, self.active)
        self.per_chat[chat] = self.per_chat.get(chat, 0) + 1
        if self.per_chat[chat] > 1:
            self.overlapped.append(chat)
        try:
            await self.gate.wait()
        finally:
            self.active -= 1
            self.per_chat[chat] -= 1
        return web.Response(status=500 if text in self.fail else 200)


@contextlib.asynccontextmanager
async def serving(hook: SlowHook) -> AsyncIterator[str]:
    """``hook`` on a loopback port; yields its URL."""
    receiver = web.Application()
    receiver.router.add_post("/hook", hook.__call__)  # a coroutine function, as aiohttp wants
    runner = web.AppRunner(receiver)
    await runner.setup()
    await web.TCPSite(runner, "127.0.0.1", 0).start()
    try:
        yield f"http://127.0.0.1:{runner.addresses[0][1]}/hook"
    finally:
        await runner.cleanup()


async def test_webhook_delivery_runs_chats_in_parallel_up_to_max_connections(
    tg: FakeTelegram, bot: Bot
) -> None:
    """Like Telegram: up to ``max_connections`` requests at once, one chat's updates one
    after another and in order, updates that arrive meanwhile delivered too."""
    hook = SlowHook()
    users = [tg.add_user(f"U{i}", started=True) for i in range(5)]
    async with serving(hook) as url:
        assert await bot.set_webhook(url, max_connections=3)
        for user in users:  # each chat's two updates next to each other
            for n in (1, 2):
                tg.user_says(user, None, f"{user.first_name}-{n}")
        delivering = asyncio.create_task(tg.deliver_webhook())
        await wait_until(lambda: hook.active == 3, 5.0, "three requests under way")
        await asyncio.sleep(0.05)  # room for a fourth, which must not come
        assert hook.active == 3
        # The oldest update of the first three chats; each chat's second one waits.
        assert sorted(text for _, text in hook.received) == ["U0-1", "U1-1", "U2-1"]
        late = tg.add_user("Late", started=True)
        tg.user_says(late, None, "Late-1")
        hook.gate.set()
        deliveries = await asyncio.wait_for(delivering, 10.0)
    assert hook.most == 3 and hook.overlapped == []
    assert [d.status for d in deliveries] == [200] * 11
    assert [d.update_id for d in deliveries] == sorted(d.update_id for d in deliveries)
    for user in [*users, late]:
        texts = [text for chat, text in hook.received if chat == user.id]
        expected = [f"{user.first_name}-{n}" for n in (1, 2)] if user is not late else ["Late-1"]
        assert texts == expected
    assert tg.pending_updates == [] and tg.webhook_last_error is None


async def test_a_failed_webhook_delivery_holds_back_the_rest_of_its_chat(
    tg: FakeTelegram, bot: Bot
) -> None:
    """An update the webhook refuses stays pending and nothing of its chat overtakes it;
    the requests already under way for other chats finish."""
    hook = SlowHook(fail=frozenset({"A-1"}))
    anna, boris = (tg.add_user(name, started=True) for name in ("A", "B"))
    async with serving(hook) as url:
        assert await bot.set_webhook(url, max_connections=2)
        first = tg.user_says(anna, None, "A-1")
        other = tg.user_says(boris, None, "B-1")
        second = tg.user_says(anna, None, "A-2")
        delivering = asyncio.create_task(tg.deliver_webhook())
        await wait_until(lambda: hook.active == 2, 5.0, "both chats under way")
        hook.gate.set()
        deliveries = await asyncio.wait_for(delivering, 10.0)
    assert [(d.update_id, d.status) for d in deliveries] == [
        (first.update_id, 500), (other.update_id, 200)]
    assert "A-2" not in [text for _, text in hook.received]
    assert [u["update_id"] for u in tg.pending_updates] == [first.update_id, second.update_id]
    assert tg.webhook_last_error is not None and "500" in tg.webhook_last_error[1]
    assert (await bot.get_webhook_info()).max_connections == 2


async def test_auto_delivery_follows_its_switch(tg: FakeTelegram, bot: Bot) -> None:
    """Turned off, automatic delivery takes no new update (a test delivers it itself);
    turned on again, what is pending goes out, even while the last requests finish."""
    hook = SlowHook()
    anna, boris, carl = (tg.add_user(name, started=True) for name in ("A", "B", "C"))
    async with serving(hook) as url:
        assert await bot.set_webhook(url)
        tg.auto_deliver_webhook = True
        tg.user_says(anna, None, "A-1")
        await wait_until(lambda: hook.active == 1, 5.0, "the first request")
        tg.auto_deliver_webhook = False
        tg.user_says(boris, None, "B-1")
        await asyncio.sleep(0.05)  # room for a delivery that must not happen
        assert [text for _, text in hook.received] == ["A-1"]
        tg.auto_deliver_webhook = True
        tg.user_says(carl, None, "C-1")
        hook.gate.set()
        await wait_until(lambda: not tg.pending_updates, 5.0, "every update delivered")
    assert sorted(text for _, text in hook.received) == ["A-1", "B-1", "C-1"]


def test_parameters_are_read_as_json_except_strings() -> None:
    """Form values are JSON unless the parameter is a string one; numbers are read as
    JSON reads them (a leading zero is no JSON number: the text stays)."""
    decode = FakeTelegram._decode_value
    assert decode("chat_id", "-100123") == -100123
    assert decode("message_id", "0") == 0
    assert decode("message_id", "007") == "007"
    assert decode("message_id", " 7") == 7  # JSON allows the space
    assert decode("text", "123") == "123"
    assert decode("reply_markup", '{"inline_keyboard": []}') == {"inline_keyboard": []}
    assert decode("disable_notification", "true") is True


def test_html_parser_offsets_are_utf16() -> None:
    text, entities = parse_html('🎲 <b>Dé</b> <a href="https://x.y/?a=1&amp;b=2">link</a>')
    assert text == "🎲 Dé link"
    assert entities == [
        {"type": "bold", "offset": 3, "length": 2},
        {"type": "text_link", "offset": 6, "length": 4, "url": "https://x.y/?a=1&b=2"},
    ]
    text, entities = parse_html('<pre><code class="language-python">x = 1</code></pre>')
    assert entities == [{"type": "pre", "offset": 0, "length": 5, "language": "python"}]


def test_html_errors_give_the_tags_utf8_byte_offset() -> None:
    """Like tdlib: the offset of the faulty tag counts UTF-8 bytes, not characters."""
    with pytest.raises(HtmlParseError, match=r'^Unsupported start tag "x" at byte offset 4$'):
        parse_html("Dé <x>")
    with pytest.raises(HtmlParseError, match=r"^Unmatched end tag at byte offset 9, "):
        parse_html("🎲 <b>x</i>")


async def test_a_silent_send_is_recorded_and_a_message_can_be_dated(
    tg: FakeTelegram, bot: Bot
) -> None:
    alice = tg.add_user("Alice", username="alice")
    tg.user_starts_bot(alice)
    await bot.send_message(alice.id, "loud")
    await bot.send_message(alice.id, "quiet", disable_notification=True)
    await bot.send_photo(alice.id, photo=make_png(), disable_notification=True)
    assert [m.silent for m in tg.messages_in(alice)] == [False, True, True]
    late = tg.user_says(alice, None, "/move 1", date=1_600_000_000)
    update = next(u for u in tg.pending_updates if u["update_id"] == late.update_id)
    assert update["message"]["date"] == 1_600_000_000
