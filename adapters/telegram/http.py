"""PTB's networking on aiohttp instead of httpx.

Every press makes several Bot API calls, so the client's cost per call decides how many
presses one process serves. Against the local fake Bot API (tests/adapters/telegram/
fake_api), a ``sendMessage`` round trip through PTB costs more than twice the CPU over
httpx that it does here (the fake's own share included in both); and aiohttp is a
direct dependency anyway, for the webhook server in ``service.py``. PTB supports this
swap officially: ``BaseRequest`` is its extension point for other HTTP libraries.

Parameters go out as one JSON body (the Bot API takes ``application/json`` for every
call without a file), files as multipart the way PTB's own ``HTTPXRequest`` sends them.
JSON rather than PTB's form encoding: a form JSON-encodes each parameter on its own and
then URL-quotes the lot, which cost a press about as much CPU as the rest of its HTTP
request (bench/telegram_updates.py).
"""

from __future__ import annotations

import json
from contextvars import ContextVar
from urllib.parse import urlsplit

import aiohttp
from telegram._utils.defaultvalue import DefaultValue
from telegram._utils.types import JSONDict, ODVInput
from telegram.error import NetworkError, TimedOut
from telegram.request import BaseRequest, RequestData

from adapters.telegram.pruning import prune_updates

# The HTTP status of the last answer a Bot API call of this task got (None: no answer,
# the call failed on the network). PTB turns most statuses into one ``NetworkError``
# whose message may not name the status (a 500 reads "Internal Server Error"), so the
# status is kept here for the log lines that say why a call failed (see
# ``delivery.note_failure``). A context variable: each task (each delivery of a batch
# runs in its own) sees the answers of its own calls only.
LAST_STATUS: ContextVar[int | None] = ContextVar("telegram_last_status", default=None)
JSON_HEADERS = {"Content-Type": "application/json"}


def _seconds(value: ODVInput[float], default: float | None) -> float | None:
    """A PTB timeout argument as seconds (PTB passes a marker when the caller gave none)."""
    if isinstance(value, DefaultValue):
        return default
    return value


class AiohttpRequest(BaseRequest):
    """A ``BaseRequest`` over one pooled ``aiohttp.ClientSession``."""

    def __init__(
        self, *, pool_size: int = 64, connect_timeout: float = 5.0, read_timeout: float = 5.0,
        write_timeout: float = 5.0, media_write_timeout: float = 20.0,
        pool_timeout: float = 10.0,
    ) -> None:
        """Timeouts in seconds; ``pool_size`` caps connections open at once, and a call
        waits at most ``pool_timeout`` for one (never long enough to outlast the
        outbox's lease and be sent twice)."""
        self._pool_timeout = pool_timeout
        self._pool_size = pool_size
        self._connect_timeout = connect_timeout
        self._read_timeout = read_timeout
        self._write_timeout = write_timeout
        self._media_write_timeout = media_write_timeout
        self._session: aiohttp.ClientSession | None = None

    @property
    def read_timeout(self) -> float | None:
        """The default read timeout (PTB adds it to long-polling timeouts)."""
        return self._read_timeout

    async def initialize(self) -> None:
        """Open the session (idempotent, as PTB expects)."""
        if self._session is None or self._session.closed:
            connector = aiohttp.TCPConnector(limit=self._pool_size)
            self._session = aiohttp.ClientSession(
                connector=connector, headers={"User-Agent": self.USER_AGENT})

    async def shutdown(self) -> None:
        """Close the session (idempotent)."""
        if self._session is not None and not self._session.closed:
            await self._session.close()
        self._session = None

    def timeout(
        self, has_files: bool, read_timeout: ODVInput[float], write_timeout: ODVInput[float],
        connect_timeout: ODVInput[float], pool_timeout: ODVInput[float],
    ) -> aiohttp.ClientTimeout:
        """PTB's four timeouts of one call (its own, else this request's defaults) as
        aiohttp's."""
        write = _seconds(write_timeout,
                         self._media_write_timeout if has_files else self._write_timeout)
        read = _seconds(read_timeout, self._read_timeout)
        pool = _seconds(pool_timeout, self._pool_timeout)
        return aiohttp.ClientTimeout(
            # ``connect`` bounds getting a connection: the wait for a free one in the pool
            # and, for a new one, opening it (``sock_connect`` bounds the TCP connect).
            connect=pool,
            sock_connect=_seconds(connect_timeout, self._connect_timeout),
            # aiohttp has no write timeout, and its read timeout starts only once the
            # body is sent, bounding each wait for the answer; the write allowance is
            # added there (Telegram answers an upload once it has processed it) ...
            sock_read=None if read is None else read + (write or 0.0),
            # ... and the whole exchange, the upload included, is bounded by the sum, so
            # a stalled request cannot outlast the outbox's lease and be sent twice.
            total=None if pool is None or read is None or write is None
            else pool + write + read,
        )

    async def do_request(
        self,
        url: str,
        method: str,
        request_data: RequestData | None = None,
        read_timeout: ODVInput[float] = BaseRequest.DEFAULT_NONE,
        write_timeout: ODVInput[float] = BaseRequest.DEFAULT_NONE,
        connect_timeout: ODVInput[float] = BaseRequest.DEFAULT_NONE,
        pool_timeout: ODVInput[float] = BaseRequest.DEFAULT_NONE,
    ) -> tuple[int, bytes]:
        """One HTTP request; the status and the raw body, or PTB's network errors."""
        if self._session is None or self._session.closed:
            raise RuntimeError("AiohttpRequest is not initialized")
        body: aiohttp.FormData | bytes | None = None
        headers: dict[str, str] | None = None
        has_files = request_data is not None and request_data.contains_files
        if request_data is not None:
            if has_files:
                body = _multipart(request_data)
            else:
                body = json.dumps(request_data.parameters, ensure_ascii=False).encode()
                headers = JSON_HEADERS
        timeout = self.timeout(has_files, read_timeout, write_timeout, connect_timeout,
                               pool_timeout)
        LAST_STATUS.set(None)
        try:
            async with self._session.request(method, url, data=body, headers=headers,
                                             timeout=timeout) as res:
                data = await res.read()
                LAST_STATUS.set(res.status)
                return res.status, data
        except TimeoutError as err:
            raise TimedOut from err
        except aiohttp.ClientError as err:
            # aiohttp's own message (and so its traceback) may quote the request URL, which
            # holds the bot token: name the error and the host only, and drop the chain.
            host = urlsplit(url).hostname or "?"
            raise NetworkError(f"aiohttp.{type(err).__name__} talking to {host}") from None


class PollingRequest(AiohttpRequest):
    """The request ``getUpdates`` goes through: its answer is trimmed to what the bot
    reads before PTB parses it (``adapters.telegram.pruning``). PTB documents
    ``parse_json_payload`` as the place to change how answers are read."""

    @staticmethod
    def parse_json_payload(payload: bytes) -> JSONDict:
        """The answer as PTB would read it, with each update's unread parts dropped."""
        return prune_updates(BaseRequest.parse_json_payload(payload))  # type: ignore[no-any-return]


def _multipart(request_data: RequestData) -> aiohttp.FormData:
    """Parameters and files as one multipart form, the way Telegram takes uploads."""
    form = aiohttp.FormData()
    for name, value in request_data.json_parameters.items():
        form.add_field(name, value)
    for name, upload in request_data.multipart_data.items():
        filename, content, *rest = upload
        form.add_field(name, content, filename=filename,
                       content_type=rest[0] if rest else "application/octet-stream")
    return form
