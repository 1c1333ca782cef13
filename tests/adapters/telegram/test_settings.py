"""Telegram settings read from the environment (adapters/telegram/settings.py)."""

from __future__ import annotations

import pytest

from adapters.telegram.settings import TelegramSettings

HOOK = {"TELEGRAM_TOKEN": "1:x", "TELEGRAM_WEBHOOK_URL": "https://bot.example/tg",
        "TELEGRAM_WEBHOOK_SECRET": "s1", "TELEGRAM_WEBHOOK_LISTEN": "127.0.0.1:8443"}


def test_a_token_is_required() -> None:
    with pytest.raises(ValueError, match="TELEGRAM_TOKEN"):
        TelegramSettings.from_env({})


def test_a_webhook_needs_its_secret() -> None:
    with pytest.raises(ValueError, match="SECRET"):
        TelegramSettings.from_env({**HOOK, "TELEGRAM_WEBHOOK_SECRET": ""})


def test_webhook_settings_are_read() -> None:
    settings = TelegramSettings.from_env(HOOK)
    assert (settings.webhook_url, settings.webhook_secret) == ("https://bot.example/tg", "s1")
    assert (settings.listen, settings.port) == ("127.0.0.1", 8443)
    assert settings.webhook_connections == 40  # Telegram's own default


@pytest.mark.parametrize(("given", "used"), [("64", 64), ("0", 1), ("500", 100), ("", 40)])
def test_webhook_connections_stay_within_what_telegram_takes(given: str, used: int) -> None:
    settings = TelegramSettings.from_env({**HOOK, "TELEGRAM_WEBHOOK_CONNECTIONS": given})
    assert settings.webhook_connections == used


def test_a_garbled_number_is_named() -> None:
    with pytest.raises(ValueError, match="TELEGRAM_WEBHOOK_CONNECTIONS"):
        TelegramSettings.from_env({**HOOK, "TELEGRAM_WEBHOOK_CONNECTIONS": "lots"})
