"""Webhooks: setting one (which stops long polling), posting updates to it with the
secret header, and executing a method the webhook answers with."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import ipaddress
import json
import re
from dataclasses import dataclass
from urllib.parse import urlsplit

from aiohttp import ClientError

from tests.adapters.telegram.fake_api.errors import bad_request
from tests.adapters.telegram.fake_api.state import FakeState
from tests.adapters.telegram.fake_api.updates import Pending
from tests.adapters.telegram.fake_api.world import JSONDict, UploadedFile

_SECRET_TOKEN_RE = re.compile(r"^[A-Za-z0-9_-]{1,256}$")


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


def chat_key(update: JSONDict) -> object:
    """The chat an update belongs to, for keeping one chat's updates in order: the chat
    of its message (or of the message a button sits on), else its sender."""
    for kind, body in update.items():
        if kind == "update_id" or not isinstance(body, dict):
            continue
        chat = body.get("chat") or (body.get("message") or {}).get("chat")
        if isinstance(chat, dict) and "id" in chat:
            return ("chat", chat["id"])
        user = body.get("from") or body.get("user")
        if isinstance(user, dict) and "id" in user:
            return ("user", user["id"])
    return "other"


@functools.lru_cache(maxsize=64)  # asked before every delivery, of a handful of URLs
def is_loopback_url(url: str) -> bool:
    host = urlsplit(url).hostname or ""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


class WebhookMixin(FakeState):
    """The webhook methods and the delivery of updates to a webhook."""

    async def _m_setWebhook(self, params: JSONDict, files: dict[str, UploadedFile]) -> bool:
        url = str(params.get("url") or "")
        if params.get("drop_pending_updates"):
            self._pending.clear()
        if not url:
            self.webhook = None
            self.webhook_history.append(("set", None))
            return True
        if urlsplit(url).scheme not in ("http", "https"):
            raise bad_request(
                "bad webhook: Webhook can be set up only on ports 80, 88, 443 or 8443"
            )
        secret = params.get("secret_token")
        if secret is not None and not _SECRET_TOKEN_RE.match(str(secret)):
            raise bad_request("secret token contains unallowed characters")
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

    def _maybe_auto_deliver(self) -> None:
        if not (self.auto_deliver_webhook and self.webhook and self._session):
            return
        # One pump that still takes updates at a time: it takes up whatever arrives while
        # it runs, so a task per update (each parked on the lock behind a pump that never
        # ends under load) would only pile up.
        if self._auto_taker is not None and not self._auto_taker.done():
            return
        task = asyncio.get_running_loop().create_task(self._deliver_auto())
        self._auto_taker = task
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def deliver_webhook(
        self,
        url: str | None = None,
        secret_token: str | None = None,
        *,
        times: int = 1,
    ) -> list[WebhookDelivery]:
        """POST every pending update (JSON, one per request) to the webhook, as Telegram
        does: up to the webhook's ``max_connections`` requests at once, but one chat's
        updates one after another, in order (the next is sent once the previous was
        answered). Updates that arrive meanwhile are delivered too.

        ``url``/``secret_token`` default to what setWebhook configured (``secret_token=""``
        sends no header).  ``times=2`` posts each update twice in a row (duplicate
        delivery).  An update is confirmed by any 2xx answer; on a failure it stays
        pending, ``webhook_last_error`` says why, and no further update is sent (those
        under way finish).  A JSON answer with a "method" key is executed like
        Telegram's webhook reply.  Returns the deliveries in update order.
        """
        if self._session is None:
            raise RuntimeError("FakeTelegram is not started")
        if times < 1:
            raise ValueError("times must be at least 1")
        if url is None and self.webhook is None:
            raise RuntimeError("no webhook URL: call setWebhook or pass url")
        self._route(url, secret_token)  # a bad URL fails here, not in the middle
        async with self._webhook_lock:
            return await self._deliver_all(url, secret_token, times)

    async def _deliver_auto(self) -> list[WebhookDelivery]:
        """``deliver_webhook`` for ``auto_deliver_webhook``: it takes no more updates once
        a test turns that off (those under way finish), so the test's own
        ``deliver_webhook`` gets the next one."""
        if self.webhook is None:
            return []
        async with self._webhook_lock:
            return await self._deliver_all(None, None, 1, auto=True)

    def _route(
        self, url: str | None, secret_token: str | None
    ) -> tuple[str, str | None, frozenset[str], int] | None:
        """Where the next update goes now, with which secret, which update types and how
        many requests at once; None once the webhook is gone. Without ``url`` it follows
        setWebhook (a new URL takes the next updates, like Telegram)."""
        webhook = self.webhook
        target = url or (webhook.url if webhook is not None else None)
        if not target:
            return None
        if not is_loopback_url(target):
            raise ValueError(f"refusing to deliver to non-loopback URL {target}")
        if secret_token is None and webhook is not None:
            secret_token = webhook.secret_token
        allowed = (
            webhook.allowed_updates
            if webhook is not None and webhook.allowed_updates is not None
            else self._allowed_updates
        )
        limit = webhook.max_connections if webhook is not None else 40
        return target, secret_token or None, allowed, limit

    async def _deliver_all(
        self, url: str | None, secret_token: str | None, times: int, *, auto: bool = False
    ) -> list[WebhookDelivery]:
        done: list[tuple[int, list[WebhookDelivery]]] = []
        in_flight: dict[asyncio.Task[list[WebhookDelivery]], tuple[Pending, object]] = {}
        busy: set[object] = set()  # chats with an update under way
        changed = asyncio.Event()  # an update arrived, or a delivery ended
        self._webhook_changed = changed
        stopped = False
        try:
            while True:
                if auto and not self.auto_deliver_webhook:
                    stopped = True
                if stopped and auto and self._auto_taker is asyncio.current_task():
                    self._auto_taker = None  # what arrives now needs a pump of its own
                route = None if stopped else self._route(url, secret_token)
                if route is not None and len(in_flight) < route[3]:
                    target, secret, allowed, limit = route
                    for item in self._deliverable(allowed):
                        key = chat_key(item.payload)
                        if key in busy:  # wait for the chat's previous update
                            continue
                        busy.add(key)
                        task = asyncio.get_running_loop().create_task(
                            self._post_times(target, secret, item.payload, times))
                        task.add_done_callback(lambda _: changed.set())
                        in_flight[task] = (item, key)
                        if len(in_flight) >= limit:
                            break
                if not in_flight:
                    break
                changed.clear()
                await changed.wait()
                for task in [t for t in in_flight if t.done()]:
                    item, key = in_flight.pop(task)
                    busy.discard(key)
                    deliveries = task.result()
                    done.append((item.update_id, deliveries))
                    last = deliveries[-1]
                    if last.status is not None and 200 <= last.status < 300:
                        if item in self._pending:
                            self._pending.remove(item)
                    else:
                        self.webhook_last_error = (
                            self._unix(),
                            last.error or f"Wrong response from the webhook: {last.status}",
                        )
                        stopped = True  # it stays pending; nothing after it overtakes it
        finally:
            if auto and self._auto_taker is asyncio.current_task():
                self._auto_taker = None
            if self._webhook_changed is changed:
                self._webhook_changed = None
            for task in in_flight:
                task.cancel()
        done.sort(key=lambda pair: pair[0])
        return [delivery for _, deliveries in done for delivery in deliveries]

    async def _post_times(
        self, url: str, secret_token: str | None, update: JSONDict, times: int
    ) -> list[WebhookDelivery]:
        deliveries = []
        for _ in range(times):
            deliveries.append(await self._post_update(url, secret_token, update))
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
