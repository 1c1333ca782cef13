"""Who may address a table from where: the one check every table-addressed command and
button shares, so that a table id typed or pressed in another chat acts on nothing."""

from __future__ import annotations

from bot.identity import Chat, User
from bot.storage import TableRecord


def belongs_here(record: TableRecord, chat: Chat, user: User) -> bool:
    """May ``user`` in ``chat`` address this table? In a group: only the group's own
    tables; in a private chat: only tables where the user holds a seat."""
    if chat.private:
        return user.id in record.seats
    return record.chat_id == chat.id


def admin_here(record: TableRecord, chat: Chat, user: User) -> bool:
    """Is ``user`` an admin of the table's own chat? The platform reports admin rights
    for the chat a command came from, so only a command from that chat counts."""
    return user.is_admin and not chat.private and record.chat_id == chat.id
