"""Telegram settings from the environment."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass


@dataclass(frozen=True)
class TelegramSettings:
    """How to reach Telegram and how fast the bot may talk.

    Long polling unless ``webhook_url`` is set; then an HTTP server listens on
    ``listen``/``port`` and checks ``webhook_secret`` on every request, so several
    processes can serve one bot behind a load balancer.
    """

    token: str
    base_url: str | None = None
    base_file_url: str | None = None
    webhook_url: str | None = None
    webhook_secret: str | None = None
    listen: str = "0.0.0.0"
    port: int = 8080
    # Telegram's documented limits: about 20 messages a minute in one group and about
    # 30 a second overall; private chats get a little more than 1 a second.
    group_per_window: int = 20
    group_window_s: float = 60.0
    private_per_window: int = 1
    private_window_s: float = 1.0
    global_per_second: int = 30
    due_every_s: float = 5.0

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> TelegramSettings:
        """Read ``TELEGRAM_*`` variables (``TELEGRAM_TOKEN`` is required)."""
        e = os.environ if env is None else env
        token = e.get("TELEGRAM_TOKEN", "")
        if not token:
            raise ValueError("TELEGRAM_TOKEN is not set")
        webhook_url = e.get("TELEGRAM_WEBHOOK_URL") or None
        secret = e.get("TELEGRAM_WEBHOOK_SECRET") or None
        if webhook_url and not secret:
            raise ValueError("TELEGRAM_WEBHOOK_SECRET is required with TELEGRAM_WEBHOOK_URL")
        listen = e.get("TELEGRAM_WEBHOOK_LISTEN") or "0.0.0.0:8080"
        host, _, port = listen.rpartition(":")
        return cls(
            token=token,
            base_url=e.get("TELEGRAM_BASE_URL") or None,
            base_file_url=e.get("TELEGRAM_BASE_FILE_URL") or None,
            webhook_url=webhook_url,
            webhook_secret=secret,
            listen=host or "0.0.0.0",
            port=int(port or 8080),
        )
