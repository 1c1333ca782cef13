"""The bot core's fixtures (a Campfire over a real Redis store with a fake clock, and the
chat harness ``h``), for whole games of Hunters and Gatherers played through the app."""

from __future__ import annotations

from tests.bot.conftest import (
    bot_app,
    clock,
    core_redis_url,
    h,
    key_prefix,
    make_app,
)

__all__ = ["bot_app", "clock", "core_redis_url", "h", "key_prefix", "make_app"]
