"""Who acts and where: platform-neutral users and chats.

Ids are namespaced by platform (``tg:123``, ``dc:456``, ``con:anna``) so that ids of
different platforms never collide in storage.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class User:
    """A person: stable id, display name, and the language their client reports."""

    id: str
    name: str
    lang: str | None = None
    is_admin: bool = False


@dataclass(frozen=True, slots=True)
class Chat:
    """A conversation: a group (or forum topic), or the private chat with the bot."""

    id: str
    private: bool = False
    title: str = ""
