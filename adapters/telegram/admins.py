"""Admin rights on Telegram: the core's ``AdminPort`` answered with ``getChatMember``.

The core asks only when an action needs the rights (aborting a table someone else
opened), so most updates cost no extra call. A failed call is logged and counts as
"not an admin": the safe answer for the one thing the rights allow.
"""

from __future__ import annotations

import logging

from telegram import Bot
from telegram.constants import ChatMemberStatus
from telegram.error import TelegramError

from adapters.telegram.delivery import failed_call, named
from adapters.telegram.ids import parse_chat, parse_user
from bot.identity import Chat, User

log = logging.getLogger(__name__)
ADMIN_STATUSES = (ChatMemberStatus.ADMINISTRATOR, ChatMemberStatus.OWNER)


class TelegramAdmins:
    """``AdminPort`` over the Bot API."""

    def __init__(self, bot: Bot) -> None:
        """Ask through ``bot``."""
        self.bot = bot

    async def is_admin(self, chat: Chat, user: User) -> bool:
        """Is ``user`` an administrator or the owner of ``chat`` (its group, for a
        forum topic)?"""
        if chat.private:
            return False
        try:
            chat_id, user_id = parse_chat(chat.id)[0], parse_user(user.id)
        except ValueError:  # not a Telegram chat or user: no rights here
            return False
        try:
            member = await named("getChatMember", self.bot.get_chat_member(chat_id, user_id))
        except TelegramError as exc:
            log.warning("getChatMember for %s failed (%s): not treated as an admin", chat.id,
                        failed_call(exc))
            return False
        return member.status in ADMIN_STATUSES
