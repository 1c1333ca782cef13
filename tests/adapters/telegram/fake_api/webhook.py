"""Webhooks: setting one (which stops long polling), posting updates to it with the
secret header, and executing a method the webhook answers with."""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import json
import re
from dataclasses import dataclass
from urllib.parse import urlsplit

from aiohttp import ClientError

from tests.adapters.telegram.fake_api.errors import bad_request
from tests.adapters.telegram.fake_api.state import FakeState
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
        if not is_loopback_url(target):
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
