"""Telegram settings, read from the environment through one declared model
(``TelegramEnv``, ``adapters.edge.settings``)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Self

from pydantic import model_validator

from adapters.edge.settings import EnvModel


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
        """Read ``TELEGRAM_*`` variables (``TelegramEnv``; ``TELEGRAM_TOKEN`` is
        required); ``ValueError`` naming the variable when one is wrong."""
        e = TelegramEnv.read(env)
        host, _, port = e.webhook_listen.rpartition(":")
        if not port.isdigit():
            raise ValueError("TELEGRAM_WEBHOOK_LISTEN must be host:port, not "
                             f"{e.webhook_listen!r}")
        return cls(
            token=e.token, base_url=e.base_url, base_file_url=e.base_file_url,
            webhook_url=e.webhook_url, webhook_secret=e.webhook_secret,
            listen=host or cls.listen, port=int(port),
            # Telegram takes 1-100 (its setWebhook ``max_connections``).
            webhook_connections=min(100, max(1, int(e.webhook_connections))),
            picture_attempts=max(1, int(e.picture_attempts)),
            picture_retry_s=e.picture_retry_s, picture_pause_s=e.picture_pause_s,
            hold_chat_s=e.hold_chat_s, shutdown_grace_s=e.shutdown_grace_s,
        )


class TelegramEnv(EnvModel, env_prefix="TELEGRAM_"):
    """The ``TELEGRAM_*`` variables (each field's, upper-cased, after the prefix); an
    empty one means the default, which is ``TelegramSettings``'s."""

    token: str
    base_url: str | None = None
    base_file_url: str | None = None
    webhook_url: str | None = None
    webhook_secret: str | None = None
    webhook_listen: str = f"{TelegramSettings.listen}:{TelegramSettings.port}"
    # Numbers as given (``64.0`` reads as 64); ``from_env`` rounds and bounds them.
    webhook_connections: float = TelegramSettings.webhook_connections
    picture_attempts: float = TelegramSettings.picture_attempts
    picture_retry_s: float = TelegramSettings.picture_retry_s
    picture_pause_s: float = TelegramSettings.picture_pause_s
    hold_chat_s: float = TelegramSettings.hold_chat_s
    shutdown_grace_s: float = TelegramSettings.shutdown_grace_s

    @model_validator(mode="after")
    def _webhook_has_its_secret(self) -> Self:
        # Without the secret anyone who finds the URL could post updates as Telegram.
        if self.webhook_url and not self.webhook_secret:
            raise ValueError("TELEGRAM_WEBHOOK_SECRET is required with TELEGRAM_WEBHOOK_URL")
        return self
