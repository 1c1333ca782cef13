"""Admin rights on Discord: the core's ``AdminPort`` for Discord's channels.

A moderator of a channel is a member with Manage Messages there, or an administrator of
the server. Every interaction carries the member's resolved permissions in its channel,
so the client reports them with the user (``User.is_admin``) and most questions cost no
call. When the report says no (or there was none), Discord is asked once: the channel,
the member, and their permissions in it (channel overwrites included). A failed call
is logged and counts as "not an admin", the safe answer for what the rights allow.
Chats of another platform (Telegram beside Discord in one process) go to ``fallback``.
"""

from __future__ import annotations

import logging

import discord

from adapters.discord.ids import parse_id
from bot.identity import Chat, User
from bot.table.access import AdminPort, ReportedAdmins

log = logging.getLogger(__name__)


def moderates(permissions: discord.Permissions) -> bool:
    """Whether these permissions make a member a moderator of the channel."""
    return bool(permissions.administrator or permissions.manage_messages)


class DiscordAdmins:
    """``AdminPort`` for ``dc:`` chats; any other chat goes to ``fallback``."""

    def __init__(self, client: discord.Client, fallback: AdminPort | None = None) -> None:
        """Ask through ``client``'s REST."""
        self.client = client
        self.fallback = fallback or ReportedAdmins()

    async def is_admin(self, chat: Chat, user: User) -> bool:
        """Is ``user`` a moderator of ``chat`` (Manage Messages or Administrator)?"""
        channel_id, member_id = parse_id(chat.id), parse_id(user.id)
        if channel_id is None or member_id is None:
            return await self.fallback.is_admin(chat, user)
        if chat.private:
            return False
        if user.is_admin:  # the interaction's own report of the member's permissions
            return True
        try:
            channel = await self.client.fetch_channel(channel_id)
            guild = getattr(channel, "guild", None)
            if guild is None or not isinstance(channel, discord.abc.GuildChannel
                                                  | discord.Thread):
                return False
            member = await guild.fetch_member(member_id)
            return moderates(channel.permissions_for(member))
        except discord.HTTPException as exc:
            log.warning("asking Discord for %s's rights in %s failed (HTTP %s): not treated "
                        "as an admin", user.id, chat.id, exc.status)
            return False
