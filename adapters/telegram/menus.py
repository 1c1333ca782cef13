"""Telegram's command menus (``setMyCommands``), generated from the one command schema."""

from __future__ import annotations

import re

from bot.i18n import LANGS, Lang
from bot.input.command_schema import schema

TELEGRAM_NAME = re.compile(r"^[a-z0-9_]{1,32}$")


def telegram_menus() -> dict[Lang, list[tuple[str, str]]]:
    """``setMyCommands`` lists by language: (command, description) in help order.

    Telegram command names are Latin (``[a-z0-9_]``), so every language lists the
    canonical names; the descriptions are the language's own (at most 256 characters).
    """
    menus: dict[Lang, list[tuple[str, str]]] = {}
    for lang in LANGS:
        menus[lang] = [(c.name, c.about.of(lang)[:256]) for c in schema()
                       if TELEGRAM_NAME.match(c.name)]
    return menus
