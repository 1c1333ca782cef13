"""Settings from the environment through one declared model per platform.

A platform declares its variables once, as the fields of an ``EnvModel`` subclass
with its ``env_prefix`` (``TELEGRAM_``, ``DISCORD_``; the AI players' ``CAMPFIRE_AI_``,
``AiEnv``, for every platform alike): each field is read from
``<prefix><FIELD>``, typed and validated by pydantic-settings, and an empty variable
means the field's default. ``read`` turns what pydantic reports into one line naming
the variable, as an operator would look for it (``TELEGRAM_TOKEN is not set``,
``DISCORD_SHARDS must be a number, not 'two'``).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any, Literal, Self

from pydantic import Field, ValidationError, field_validator
from pydantic_settings import (
    BaseSettings,
    EnvSettingsSource,
    PydanticBaseSettingsSource,
    SettingsConfigDict,
)

from bot.table.thinking import DEFAULT_BUDGET_S, DEFAULT_WORKERS, Thinker

# pydantic's error types for a value that is not the number a field wants.
NOT_A_NUMBER = frozenset({"float_parsing", "int_parsing", "int_from_float", "float_type",
                          "int_type"})


class _Given(EnvSettingsSource):
    """The environment source over a given mapping (tests pass one) instead of
    ``os.environ``; otherwise pydantic-settings' own, same parsing and all. A variable
    of only spaces counts as empty (the default), as an operator means it."""

    def __init__(self, settings_cls: type[BaseSettings], environ: Mapping[str, str]) -> None:
        self._given = environ  # before ``super().__init__``: it loads the variables
        super().__init__(settings_cls)

    def _load_env_vars(self) -> Mapping[str, str | None]:
        return {key if self.case_sensitive else key.lower(): value
                for key, value in self._given.items() if value.strip()}


class EnvModel(BaseSettings):
    """A platform's variables, declared once (subclass with ``env_prefix``)."""

    model_config = SettingsConfigDict(env_ignore_empty=True, frozen=True, extra="ignore")

    @classmethod
    def settings_customise_sources(
        cls, settings_cls: type[BaseSettings], init_settings: PydanticBaseSettingsSource,
        env_settings: PydanticBaseSettingsSource,
        dotenv_settings: PydanticBaseSettingsSource,
        file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        """Only the values handed in: ``read`` reads the environment it is given (the
        process's by default) itself; pydantic-settings would read the process's again
        on top of a mapping a test passed."""
        return (init_settings,)

    @classmethod
    def read(cls, environ: Mapping[str, str] | None = None) -> Self:
        """The model read from ``environ`` (by default the process's); ``ValueError``
        with one line naming the variable when one is missing or wrong."""
        source = _Given(cls, os.environ if environ is None else environ)
        try:
            return cls.model_validate(source())
        except ValidationError as exc:
            raise ValueError(cls._say(exc.errors()[0])) from None

    @classmethod
    def variable(cls, field: str) -> str:
        """The environment variable of ``field``."""
        return f"{cls.model_config.get('env_prefix', '')}{field}".upper()

    @classmethod
    def _say(cls, error: Any) -> str:
        """One line for pydantic's first error, naming the variable."""
        loc = error.get("loc") or ()
        if not loc:  # a check of the whole model: its own message says it all
            return str(error.get("ctx", {}).get("error") or error["msg"])
        name = cls.variable(str(loc[0]))
        if error["type"] == "missing":
            return f"{name} is not set"
        if error["type"] in NOT_A_NUMBER:
            return f"{name} must be a number, not {error.get('input')!r}"
        if error["type"] == "value_error":  # a field's own check: its message
            return f"{name}: {error.get('ctx', {}).get('error')}"
        return f"{name}: {error['msg']}, not {error.get('input')!r}"


class AiEnv(EnvModel, env_prefix="CAMPFIRE_AI_"):
    """How AI players think, whatever the platform: ``CAMPFIRE_AI_BUDGET_S`` seconds per
    decision, in ``CAMPFIRE_AI_WORKERS`` processes beside the bot's (0: in the bot's
    own, holding up everything else while an AI thinks)."""

    budget_s: float = Field(default=DEFAULT_BUDGET_S, gt=0, le=600)
    workers: int = Field(default=DEFAULT_WORKERS, ge=0, le=64)

    def thinker(self) -> Thinker:
        """The place to think these settings make (its processes start on first use)."""
        return Thinker(self.workers, self.budget_s)


class WebEnv(EnvModel, env_prefix="CAMPFIRE_WEB_"):
    """The table's page (``adapters.web``): served when ``CAMPFIRE_WEB_URL`` (the public
    address the pages are reached at, e.g. ``https://campfire.example.org``) is set, or
    on the console at ``http://localhost:<port>``; it listens on ``listen``:``port``."""

    url: str | None = None
    listen: str = "127.0.0.1"
    port: int = Field(default=8088, ge=0, le=65535)
    # How long a page link given in Discord or on the console opens the page.
    link_days: float = Field(default=7.0, gt=0, le=365)
    # The Mini App's direct link for group chats (``https://t.me/<bot>/<app>``), once
    # it is registered with BotFather (see the README).
    mini_app: str | None = None


def host_port(value: str) -> tuple[str, int]:
    """``host:port`` read (``ValueError`` when it is not one)."""
    host, _, port = value.rpartition(":")
    if not host or not port.isdigit() or int(port) > 65535:
        raise ValueError(f"must be host:port, not {value!r}")
    return host.strip("[]"), int(port)  # an IPv6 address comes bracketed: [::1]:9100


class OpsEnv(EnvModel, env_prefix="CAMPFIRE_OPS_"):
    """The operator's endpoints (``adapters.ops``: ``/healthz``, ``/readyz``,
    ``/metrics``), served while the bot serves its platforms when
    ``CAMPFIRE_OPS_LISTEN`` is set (``host:port``; port 0: any free port)."""

    listen: str | None = None
    # A loop (a sender, a due loop) whose last turn is older than this is not ready.
    # Generous: a due round that runs many AI moves in a row turns only once.
    stale_s: float = Field(default=120.0, gt=0, le=3600)
    # How long ``/readyz`` waits for Redis to answer a PING.
    ping_timeout_s: float = Field(default=1.0, gt=0, le=30)

    @field_validator("listen")
    @classmethod
    def _host_port(cls, value: str | None) -> str | None:
        if value is not None:
            host_port(value)
        return value

    @property
    def address(self) -> tuple[str, int] | None:
        """(host, port) to listen on; None: no endpoints."""
        return None if self.listen is None else host_port(self.listen)


class LogEnv(EnvModel, env_prefix="CAMPFIRE_LOG_"):
    """How the log reads: ``CAMPFIRE_LOG_FORMAT=text`` (lines for people, the default)
    or ``json`` (one JSON object a line, for a log collector)."""

    format: Literal["text", "json"] = "text"
