"""``AiohttpRequest`` against a tiny aiohttp server on 127.0.0.1: the wire format (one JSON
body carrying what PTB's own ``HTTPXRequest`` sends as a form; uploads as its multipart),
status and body passed through, timeouts and refused connections as PTB's errors, and the
session's lifecycle."""

from __future__ import annotations

import asyncio
import io
import json
import socket
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

import pytest
from aiohttp import web
from PIL import Image
from telegram import Bot, InlineKeyboardButton, InlineKeyboardMarkup, InputFile
from telegram.error import BadRequest, NetworkError, RetryAfter, TimedOut
from telegram.request import BaseRequest, HTTPXRequest, RequestData
from telegram.request._requestparameter import RequestParameter

from adapters.delivery.outbox import LEASE_S
from adapters.telegram.delivery import retry_seconds
from adapters.telegram.http import AiohttpRequest

TOKEN = "123456:TEST-token"
CHAT = -100123
MESSAGE: dict[str, Any] = {"message_id": 7, "date": 0,
                           "chat": {"id": CHAT, "type": "supergroup"}, "text": "hi"}
PHOTO_MESSAGE: dict[str, Any] = {
    "message_id": 8, "date": 0, "chat": {"id": CHAT, "type": "supergroup"},
    "photo": [{"file_id": "f", "file_unique_id": "u", "width": 2, "height": 2}],
}


@dataclass
class Seen:
    """One request as the server got it."""

    method: str
    path: str
    content_type: str
    user_agent: str
    fields: dict[str, str]
    files: dict[str, tuple[str | None, str, bytes]]  # name -> (filename, type, bytes)
    body: Any = None  # a JSON body, decoded


@dataclass
class Server:
    """What the server saw, and how it answers: ``status``/``body``, or never (``hang``,
    until ``release`` is set), or once ``gather`` requests are in at the same time."""

    url: str = ""
    seen: list[Seen] = field(default_factory=list)
    status: int = 200
    body: bytes = b'{"ok": true, "result": true}'
    hang: bool = False
    release: asyncio.Event = field(default_factory=asyncio.Event)
    arrived: asyncio.Event = field(default_factory=asyncio.Event)  # a request came in
    gather: int = 0
    all_in: asyncio.Event = field(default_factory=asyncio.Event)
    active: int = 0
    most_active: int = 0

    async def handle(self, request: web.Request) -> web.Response:
        self.active += 1
        self.most_active = max(self.most_active, self.active)
        try:
            fields: dict[str, str] = {}
            files: dict[str, tuple[str | None, str, bytes]] = {}
            body: Any = None
            if request.method == "POST" and request.content_type == "application/json":
                body = json.loads(await request.read())
            elif request.method == "POST" and request.can_read_body:
                for name, value in (await request.post()).items():
                    if isinstance(value, web.FileField):
                        files[name] = (value.filename, value.content_type, value.file.read())
                    else:
                        fields[name] = str(value)
            self.seen.append(Seen(request.method, request.path, request.content_type,
                                  request.headers.get("User-Agent", ""), fields, files,
                                  body))
            self.arrived.set()
            if self.hang:
                await self.release.wait()
            if self.gather:
                if self.active >= self.gather:
                    self.all_in.set()
                await self.all_in.wait()
            return web.Response(status=self.status, body=self.body,
                                content_type="application/json")
        finally:
            self.active -= 1

    def answer(self, result: Any, status: int = 200) -> None:
        """Answer every request with ``{"ok": true, "result": result}``."""
        self.status = status
        self.body = json.dumps({"ok": True, "result": result}).encode()


@pytest.fixture
async def server() -> AsyncIterator[Server]:
    """The server on an ephemeral loopback port."""
    state = Server()
    app = web.Application()
    app.router.add_route("*", "/{tail:.*}", state.handle)
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = runner.addresses[0][1]
    state.url = f"http://127.0.0.1:{port}"
    yield state
    state.release.set()
    await runner.cleanup()


@pytest.fixture
async def request_() -> AsyncIterator[AiohttpRequest]:
    """An initialized ``AiohttpRequest``, shut down afterwards."""
    req = AiohttpRequest(read_timeout=0.3, write_timeout=0.1, connect_timeout=0.5)
    await req.initialize()
    yield req
    await req.shutdown()


def png() -> bytes:
    """A small real PNG."""
    out = io.BytesIO()
    Image.new("RGB", (2, 2), (200, 80, 20)).save(out, format="PNG")
    return out.getvalue()


def free_port() -> int:
    """A loopback port nothing listens on."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
    return port


async def send_both_ways(server: Server, call: str, **kwargs: Any) -> tuple[Seen, Seen]:
    """Make the same Bot call through PTB's ``HTTPXRequest`` and through ours; what the
    server saw each time."""
    seen: list[Seen] = []
    for request in (HTTPXRequest(), AiohttpRequest()):
        bot = Bot(TOKEN, base_url=f"{server.url}/bot", request=request)
        await request.initialize()
        try:
            await getattr(bot, call)(**kwargs)
        finally:
            await request.shutdown()
        seen.append(server.seen[-1])
    return seen[0], seen[1]


# ----------------------------------------------------------------- wire format


async def test_parameters_arrive_as_one_json_body_saying_what_ptb_would(
        server: Server) -> None:
    """A call without files is a JSON POST to the method's URL whose values are what
    ``HTTPXRequest`` sends form-encoded (strings verbatim, the rest JSON in the form),
    non-ASCII text as it is; the parsed result comes back."""
    server.answer(MESSAGE)
    keyboard = InlineKeyboardMarkup([[InlineKeyboardButton("Go", callback_data="g:1")]])
    theirs, ours = await send_both_ways(
        server, "send_message", chat_id=CHAT, text="<b>hi</b> & 1 — ход", parse_mode="HTML",
        reply_markup=keyboard, disable_notification=True)
    assert ours.method == "POST"
    assert ours.path == f"/bot{TOKEN}/sendMessage"
    assert ours.content_type == "application/json"
    assert ours.fields == {} and ours.files == {}
    assert ours.body == {
        "chat_id": CHAT, "text": "<b>hi</b> & 1 — ход", "parse_mode": "HTML",
        "disable_notification": True,
        "reply_markup": {"inline_keyboard": [[{"text": "Go", "callback_data": "g:1"}]]}}
    assert theirs.content_type == "application/x-www-form-urlencoded"
    assert set(theirs.fields) == set(ours.body)
    for name, value in theirs.fields.items():
        sent = ours.body[name]
        assert value == (sent if isinstance(sent, str) else json.dumps(sent)) \
            or json.loads(value) == sent


async def test_bot_call_returns_the_parsed_result(server: Server) -> None:
    """The body comes back to PTB intact: ``send_message`` builds the Message from it."""
    server.answer(MESSAGE)
    request = AiohttpRequest()
    bot = Bot(TOKEN, base_url=f"{server.url}/bot", request=request)
    async with request:
        sent = await bot.send_message(CHAT, "hi")
    assert sent.message_id == 7
    assert sent.chat.id == CHAT


async def test_upload_arrives_as_multipart_with_the_file_bytes(server: Server) -> None:
    """A call with a file is multipart: parameters as fields, the file as a part with
    its bytes, as ``HTTPXRequest`` sends it."""
    server.answer(PHOTO_MESSAGE)
    picture = png()
    theirs, ours = await send_both_ways(
        server, "send_photo", chat_id=CHAT, photo=InputFile(picture, filename="board.png"),
        caption="the board", parse_mode="HTML")
    assert ours.path == f"/bot{TOKEN}/sendPhoto"
    assert ours.content_type == "multipart/form-data"
    assert ours.fields["chat_id"] == str(CHAT)
    assert ours.fields["caption"] == "the board"
    assert list(ours.files) == ["photo"]
    assert ours.files["photo"] == ("board.png", "image/png", picture)
    assert ours.files == theirs.files
    assert ours.fields == theirs.fields


async def test_user_agent_is_ptbs(server: Server, request_: AiohttpRequest) -> None:
    """Requests carry PTB's User-Agent."""
    await request_.do_request(f"{server.url}/x", "POST")
    assert server.seen[0].user_agent == BaseRequest.USER_AGENT


# ----------------------------------------------------------------- status and body


async def test_status_and_body_are_returned_unchanged(server: Server,
                                                      request_: AiohttpRequest) -> None:
    """``do_request`` hands back the server's status and raw bytes, whatever they are."""
    server.status, server.body = 418, b"\x00not json\xff"
    assert await request_.do_request(f"{server.url}/x", "POST") == (418, b"\x00not json\xff")
    params = RequestData([RequestParameter.from_input("chat_id", CHAT)])
    server.status, server.body = 200, b'{"ok": true, "result": [1, 2]}'
    assert await request_.do_request(f"{server.url}/x", "POST", params) == (
        200, b'{"ok": true, "result": [1, 2]}')


@pytest.mark.filterwarnings("ignore::telegram.warnings.PTBDeprecationWarning")
async def test_429_with_retry_after_raises_retry_after(server: Server,
                                                       request_: AiohttpRequest) -> None:
    """Telegram's flood answer reaches PTB as is, which raises RetryAfter."""
    server.status = 429
    server.body = json.dumps({"ok": False, "error_code": 429,
                              "description": "Too Many Requests: retry after 7",
                              "parameters": {"retry_after": 7}}).encode()
    with pytest.raises(RetryAfter) as caught:
        await request_.post(f"{server.url}/bot{TOKEN}/sendMessage")
    assert retry_seconds(caught.value) == 7


async def test_400_raises_bad_request_with_the_description(server: Server,
                                                           request_: AiohttpRequest) -> None:
    """A rejected request becomes BadRequest carrying Telegram's description."""
    server.status = 400
    server.body = json.dumps({"ok": False, "error_code": 400,
                              "description": "Bad Request: chat not found"}).encode()
    with pytest.raises(BadRequest, match=r"[Cc]hat not found"):
        await request_.post(f"{server.url}/bot{TOKEN}/sendMessage")


# ----------------------------------------------------------------- failures


#: Only a safety net against a hang: every call below ends (or fails) long before it.
SAFETY_S = 10.0


async def test_server_that_never_answers_times_out(server: Server,
                                                   request_: AiohttpRequest) -> None:
    """No answer within the read timeout: TimedOut (not a hang, nor another error)."""
    server.hang = True
    with pytest.raises(TimedOut):
        await asyncio.wait_for(request_.do_request(f"{server.url}/x", "POST"), SAFETY_S)


async def test_per_call_timeouts_override_the_defaults(server: Server) -> None:
    """Timeouts given with the call win over the defaults (which outlast the safety
    net: were they used, the call would not end in TimedOut)."""
    server.hang = True
    req = AiohttpRequest(read_timeout=60.0, write_timeout=60.0)
    async with req:
        with pytest.raises(TimedOut):
            await asyncio.wait_for(
                req.post(f"{server.url}/x", read_timeout=0.2, write_timeout=0.1), SAFETY_S)


def test_timeouts_as_aiohttp_takes_them() -> None:
    """PTB's four timeouts become aiohttp's: the pool one bounds getting a connection,
    the read one (plus the write allowance) each wait for the answer, and their sum the
    whole exchange; uploads get the media write allowance; PTB's "not given" marker
    means this request's default, an explicit None no bound."""
    req = AiohttpRequest(connect_timeout=1.0, read_timeout=2.0, write_timeout=3.0,
                         media_write_timeout=20.0, pool_timeout=4.0)
    default = BaseRequest.DEFAULT_NONE
    plain = req.timeout(False, default, default, default, default)
    assert (plain.connect, plain.sock_connect, plain.sock_read, plain.total) == (
        4.0, 1.0, 5.0, 9.0)
    upload = req.timeout(True, default, default, default, default)
    assert (upload.sock_read, upload.total) == (22.0, 26.0)
    given = req.timeout(False, 0.2, 0.1, 0.3, 0.4)
    assert (given.connect, given.sock_connect, given.sock_read) == (0.4, 0.3, 0.2 + 0.1)
    assert given.total == 0.4 + 0.1 + 0.2
    unbounded = req.timeout(False, None, default, None, default)
    assert (unbounded.sock_read, unbounded.sock_connect, unbounded.total) == (None, None, None)
    assert req.timeout(False, default, None, default, default).sock_read == 2.0


def test_the_defaults_cannot_outlast_the_outbox_lease() -> None:
    """A call with the default timeouts, an upload included, ends before the outbox
    gives its item to another sender (which would send it twice)."""
    default = BaseRequest.DEFAULT_NONE
    for has_files in (False, True):
        total = AiohttpRequest().timeout(has_files, default, default, default, default).total
        assert total is not None and total < LEASE_S


@pytest.mark.parametrize("per_call", [True, False], ids=["per-call", "default"])
async def test_pool_timeout_when_every_connection_is_busy(server: Server,
                                                          per_call: bool) -> None:
    """With the pool full, a call waits for a connection no longer than the pool
    timeout (given with the call, or the request's default; the other one outlasts the
    safety net)."""
    server.hang = True
    req = AiohttpRequest(pool_size=1, read_timeout=60.0, write_timeout=0.0,
                         pool_timeout=60.0 if per_call else 0.2)
    async with req:
        first = asyncio.create_task(req.do_request(f"{server.url}/x", "POST"))
        try:
            await asyncio.wait_for(server.arrived.wait(), SAFETY_S)
            call = (req.do_request(f"{server.url}/y", "POST", pool_timeout=0.2) if per_call
                    else req.do_request(f"{server.url}/y", "POST"))
            with pytest.raises(TimedOut):
                await asyncio.wait_for(call, SAFETY_S)
        finally:
            server.release.set()
        assert (await asyncio.wait_for(first, SAFETY_S))[0] == 200
    assert [s.path for s in server.seen] == ["/x"]


async def test_pool_size_caps_concurrent_connections(server: Server) -> None:
    """``pool_size`` connections at most: with one, concurrent calls take turns; with
    four, three calls are in at once (the server answers only when all three are)."""
    req = AiohttpRequest(pool_size=1)
    async with req:
        results = await asyncio.wait_for(asyncio.gather(
            *(req.do_request(f"{server.url}/{i}", "POST") for i in range(3))), SAFETY_S)
    assert [status for status, _ in results] == [200, 200, 200]
    assert server.most_active == 1

    server.most_active, server.gather = 0, 3
    req = AiohttpRequest(pool_size=4)
    async with req:
        results = await asyncio.wait_for(asyncio.gather(
            *(req.do_request(f"{server.url}/{i}", "POST") for i in range(3))), SAFETY_S)
    assert [status for status, _ in results] == [200, 200, 200]
    assert server.most_active == 3


async def test_refused_connection_raises_network_error(request_: AiohttpRequest) -> None:
    """Nobody listening: NetworkError (not a timeout)."""
    with pytest.raises(NetworkError) as caught:
        await request_.do_request(f"http://127.0.0.1:{free_port()}/x", "POST")
    assert not isinstance(caught.value, TimedOut)


# ----------------------------------------------------------------- lifecycle


async def test_initialize_and_shutdown_are_idempotent(server: Server) -> None:
    """A second initialize keeps the session; a second shutdown is harmless; a shut
    down request refuses to work until initialized again."""
    req = AiohttpRequest()
    await req.initialize()
    session = req._session
    await req.initialize()
    assert req._session is session
    await req.shutdown()
    await req.shutdown()
    assert session is not None and session.closed
    with pytest.raises(RuntimeError):
        await req.do_request(f"{server.url}/x", "POST")
    with pytest.raises(NetworkError):  # what PTB makes of it
        await req.post(f"{server.url}/x")
    await req.initialize()
    try:
        assert (await req.do_request(f"{server.url}/x", "POST"))[0] == 200
    finally:
        await req.shutdown()


def test_read_timeout_property_is_the_default() -> None:
    """PTB reads ``read_timeout`` to size long-polling waits."""
    assert AiohttpRequest(read_timeout=2.5).read_timeout == 2.5
