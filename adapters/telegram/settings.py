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
    # How many requests Telegram may have open to the webhook at once (its setWebhook
    # ``max_connections``, 1-100; Telegram's own default is 40). Updates of different
    # chats are handled side by side up to this many; raise it for a busy bot whose
    # workers can take more.
    webhook_connections: int = 40
    # Telegram's documented limits: about 20 messages a minute in one group and about
    # 30 a second overall; private chats get a little more than 1 a second.
    group_per_window: int = 20
    group_window_s: float = 60.0
    private_per_window: int = 1
    private_window_s: float = 1.0
    global_per_second: int = 30
    due_every_s: float = 5.0
    # A picture that keeps failing (server errors, network trouble) is tried this many
    # times, ``picture_retry_s`` apart and then twice as long each time, before its
    # message goes as text; one Telegram refuses (a 4xx) goes as text at once. Either way
    # the chat then takes no pictures for ``picture_pause_s``, after which the picture
    # follows on its own (tried up to ``picture_attempts`` times, one pause apart, then
    # dropped). Meanwhile nothing else of the chat waits for it.
    picture_attempts: int = 3
    picture_retry_s: float = 2.0
    picture_pause_s: float = 120.0
    # How long a message that keeps failing (not a picture) holds its chat's later
    # messages back so they keep their order; after that they go, and it is retried on
    # its own until it is given up.
    hold_chat_s: float = 120.0
    # On SIGTERM/SIGINT: how long updates being handled, and the sender's calls under
    # way, may take to finish before they are handed back for the next start (below
    # docker's default stop timeout of 10 s, after which it kills).
    shutdown_grace_s: float = 8.0

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

        def number(name: str, default: float) -> float:
            value = (e.get(name) or "").strip()
            try:
                return float(value) if value else default
            except ValueError:
                raise ValueError(f"{name} must be a number, not {value!r}") from None

        return cls(
            token=token,
            base_url=e.get("TELEGRAM_BASE_URL") or None,
            base_file_url=e.get("TELEGRAM_BASE_FILE_URL") or None,
            webhook_url=webhook_url,
            webhook_secret=secret,
            listen=host or "0.0.0.0",
            port=int(port or 8080),
            webhook_connections=min(100, max(1, int(number(
                "TELEGRAM_WEBHOOK_CONNECTIONS", cls.webhook_connections)))),
            picture_attempts=max(1, int(number("TELEGRAM_PICTURE_ATTEMPTS",
                                               cls.picture_attempts))),
            picture_retry_s=number("TELEGRAM_PICTURE_RETRY_S", cls.picture_retry_s),
            picture_pause_s=number("TELEGRAM_PICTURE_PAUSE_S", cls.picture_pause_s),
            hold_chat_s=number("TELEGRAM_HOLD_CHAT_S", cls.hold_chat_s),
            shutdown_grace_s=number("TELEGRAM_SHUTDOWN_GRACE_S", cls.shutdown_grace_s),
        )
