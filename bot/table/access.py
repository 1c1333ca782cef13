"""Who may address a table from where: the one check every table-addressed command and
button shares, so that a table id typed or pressed in another chat acts on nothing; and
who is an admin of a chat, asked through a port when a command needs it.

``AdminPort.is_admin(chat, user)`` is how the core learns admin rights: only when an
action needs them (aborting someone else's table), never on every update. Telegram
implements it with ``getChatMember``; a platform that reports rights with each update
(Discord's member permissions; the console; tests) sets ``User.is_admin`` and uses
``ReportedAdmins``, the default.
"""

from __future__ import annotations

from typing import Protocol

from bot.identity import Chat, User
from bot.storage import TableRecord


class AdminPort(Protocol):
    """Tells whether a user administers a chat."""

    async def is_admin(self, chat: Chat, user: User) -> bool:
        """Is ``user`` an admin of ``chat`` (a group; never asked for a private chat)?"""
        ...


class ReportedAdmins:
    """Admin rights as the platform reported them with the update (``User.is_admin``)."""

    async def is_admin(self, chat: Chat, user: User) -> bool:
        """What the update said."""
        return user.is_admin


def belongs_here(record: TableRecord, chat: Chat, user: User) -> bool:
    """May ``user`` in ``chat`` address this table? In a group: only the group's own
    tables; in a private chat: only tables where the user holds a seat."""
    if chat.private:
        return user.id in record.seats
    return record.chat_id == chat.id


async def admin_here(admins: AdminPort, record: TableRecord, chat: Chat, user: User) -> bool:
    """Is ``user`` an admin of the table's own chat? Rights are asked for the chat the
    command came from, so only a command from that chat counts (and only then is the
    port asked)."""
    if chat.private or record.chat_id != chat.id:
        return False
    return await admins.is_admin(chat, user)
