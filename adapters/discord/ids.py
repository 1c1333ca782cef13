"""Discord ids as Campfire ids: ``dc:<channel>`` for a channel, a thread or a DM channel,
``dc:<user>`` for a member.

A thread is a channel of its own in Discord, so a table opened in a thread lives there:
its chat id is the thread's id.
"""

from __future__ import annotations

PREFIX = "dc:"


def chat_key(channel_id: int) -> str:
    """The Campfire id of a channel (or thread, or DM channel)."""
    return f"{PREFIX}{channel_id}"


def user_key(user_id: int) -> str:
    """The Campfire id of a Discord user."""
    return f"{PREFIX}{user_id}"


def parse_id(key: str) -> int | None:
    """The Discord snowflake in a Campfire id, or None when the id is not Discord's."""
    if not key.startswith(PREFIX):
        return None
    body = key.removeprefix(PREFIX)
    return int(body) if body.isdigit() else None
