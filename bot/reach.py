"""Whom the bot may write to privately.

A platform refuses a private message for good when the user blocked the bot or allows
no messages from it (Telegram 403 "blocked by the user", Discord 50007). Writing again
on every turn only piles up refused calls, which the platforms count against the bot
(Discord bans a bot for a while past 10,000 invalid requests in ten minutes). So the
first refusal closes the user's private line: what the bot would send them unasked
(turn prompts, reminders, "you're next") is dropped without a call, and the table's
chat keeps the game going as it always does. The line opens again when the user
writes to the bot privately, which shows that it reaches them; a message they ask for
from a group (``/board``, ``/turn``) is tried either way (``Outgoing.asked``).

The mark is a preference of the user's (``user:<id>:dm``), read through the worker's
short-lived preference cache, so checking it costs no round trip on most messages.
"""

from __future__ import annotations

from bot.storage import PrefsPort

CLOSED = "closed"


def _key(user_id: str) -> str:
    return f"user:{user_id}:dm"


async def dm_closed(prefs: PrefsPort, user_id: str) -> bool:
    """Has a platform refused private messages to ``user_id`` since they last wrote to
    the bot privately?"""
    return await prefs.get_pref(_key(user_id)) == CLOSED


async def close_dm(prefs: PrefsPort, user_id: str) -> None:
    """A platform refused a private message to ``user_id`` for good: write no more
    unasked ones."""
    await prefs.set_pref(_key(user_id), CLOSED)


async def heard_privately(prefs: PrefsPort, user_id: str) -> None:
    """``user_id`` wrote to the bot in a private chat: that chat reaches them again.
    Writes only when the line was closed."""
    if await dm_closed(prefs, user_id):
        await prefs.set_pref(_key(user_id), "")
