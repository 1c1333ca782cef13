"""Telegram ids as Campfire ids: ``tg:<chat>`` or ``tg:<chat>/<topic>``, ``tg:<user>``.

A forum topic is its own chat for Campfire: a table lives in the topic where it was
opened, and everything about it is sent there.
"""

from __future__ import annotations

PREFIX = "tg:"


def chat_key(chat_id: int, thread_id: int | None = None) -> str:
    """The Campfire id of a chat, or of a topic inside a forum group."""
    return f"{PREFIX}{chat_id}" + (f"/{thread_id}" if thread_id else "")


def user_key(user_id: int) -> str:
    """The Campfire id of a Telegram user."""
    return f"{PREFIX}{user_id}"


def parse_chat(key: str) -> tuple[int, int | None]:
    """Telegram chat id and topic id of a Campfire chat id."""
    body = key.removeprefix(PREFIX)
    chat, _, thread = body.partition("/")
    return int(chat), (int(thread) if thread else None)


def parse_user(key: str) -> int:
    """Telegram user id of a Campfire user id (which is also their private chat id)."""
    return int(key.removeprefix(PREFIX))
