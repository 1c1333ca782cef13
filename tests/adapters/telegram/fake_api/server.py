"""``FakeTelegram``: the fake's parts in one object, served over HTTP on loopback, each
call routed to its ``_m_<method>`` (by name, case-insensitively) and recorded."""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
import socket
from collections.abc import Awaitable, Callable
from typing import Any

from aiohttp import ClientSession, ClientTimeout, web

from tests.adapters.telegram.fake_api.chats import ChatsMixin
from tests.adapters.telegram.fake_api.errors import ApiError, bad_request
from tests.adapters.telegram.fake_api.failures import NETWORK, FailuresMixin, RateLimits
from tests.adapters.telegram.fake_api.media import MediaMixin
from tests.adapters.telegram.fake_api.messages import MessagesMixin
from tests.adapters.telegram.fake_api.state import DEFAULT_TOKEN
from tests.adapters.telegram.fake_api.updates import UpdatesMixin
from tests.adapters.telegram.fake_api.webhook import WebhookMixin, is_loopback_url
from tests.adapters.telegram.fake_api.world import ApiCall, JSONDict, UploadedFile

# Parameters that PTB sends as raw strings (never JSON-decode these, "123" must stay "123").
STRING_PARAMS = frozenset(
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

_JSON_INT = re.compile(r"-?(?:0|[1-9][0-9]*)")


def _answer(body: JSONDict, status: int) -> web.Response:
    """A JSON answer as the Bot API writes it: compact. Non-ASCII is escaped: a test's
    name with a lone surrogate must reach the bot as JSON can carry it."""
    text = json.dumps(body, separators=(",", ":"))
    return web.Response(body=text.encode(), status=status, content_type="application/json")


class FakeTelegram(
    ChatsMixin, MessagesMixin, MediaMixin, UpdatesMixin, WebhookMixin, FailuresMixin
):
    """The fake Bot API server plus the simulated world. See the package docstring."""

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
        clock: Callable[[], float] | None = None,
    ) -> None:
        """``clock`` is the fake's time (default: monotonic seconds): a test that drives
        the bot's clock passes the same one, so call times and flood windows follow it."""
        if not is_loopback_url(f"http://{host}/"):
            raise ValueError("FakeTelegram only listens on loopback")
        super().__init__(
            token, bot_username=bot_username, bot_first_name=bot_first_name,
            can_join_groups=can_join_groups,
            can_read_all_group_messages=can_read_all_group_messages,
            rate_limits=rate_limits, strict_images=strict_images, clock=clock,
        )
        self.host = host
        self._requested_port = port
        self.port = 0
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

    # ------------------------------------------------------------------ HTTP and routing

    async def _read_params(self, request: web.Request) -> tuple[JSONDict, dict[str, UploadedFile]]:
        raw: dict[str, Any] = dict(request.query)
        files: dict[str, UploadedFile] = {}
        if request.content_type == "application/json":
            body = await request.read()
            if body:
                decoded = json.loads(body)
                if not isinstance(decoded, dict):
                    raise bad_request("request body must be a JSON object")
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
        if not isinstance(value, str) or key in STRING_PARAMS:
            return value
        # Ids are most of what arrives: read as JSON would, without the JSON parser.
        if _JSON_INT.fullmatch(value):
            return int(value)
        try:
            return json.loads(value)
        except ValueError:
            return value

    async def _handle_api(self, request: web.Request) -> web.Response:
        if request.match_info["token"] != self.token:
            return _answer({"ok": False, "error_code": 401, "description": "Unauthorized"}, 401)
        try:
            params, files = await self._read_params(request)
        except ApiError as exc:
            return _answer(exc.body(), exc.code)
        status, body = await self.dispatch(request.match_info["method"], params, files)
        if status == NETWORK and request.transport is not None:
            request.transport.abort()  # no answer at all: the client sees the connection die
        return _answer(body, status or 500)

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
            if exc.code == NETWORK:
                return NETWORK, {}
            return exc.code, exc.body()
        except asyncio.CancelledError:
            call.cancelled = True
            raise
        call.result = result
        call.finished = True
        return 200, {"ok": True, "result": result}
