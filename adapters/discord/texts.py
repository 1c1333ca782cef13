"""Texts only the Discord adapter says (``texts.yaml``), in Russian and English."""

from __future__ import annotations

from functools import cache
from importlib import resources
from typing import Any

from bot.i18n import Lang
from engine.core.data import load_yaml


@cache
def _texts() -> dict[str, dict[str, str]]:
    text = resources.files("adapters.discord").joinpath("texts.yaml").read_text("utf-8")
    data: dict[str, dict[str, str]] = load_yaml(text)
    return data


def say(lang: Lang, code: str, **args: Any) -> str:
    """The text ``code`` in ``lang`` with ``args`` filled in (plain markdown text)."""
    return _texts()[code][lang].format(**args)
