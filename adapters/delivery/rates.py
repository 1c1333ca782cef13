"""Rate windows: how many messages a chat (and the bot as a whole) may get per window.

Each item counts in one window, named by its platform (a chat; every thread of a group
shares the group's), with the platform's declared size: private chats and groups have
windows of their own length. The windows are sliding ones kept in Redis sorted sets by
the outbox's take script (``WINDOW_WAIT``), so several processes of one bot share them.
"""

from __future__ import annotations

from collections.abc import Callable

from adapters.delivery.codec import destination
from adapters.delivery.platform import Platform
from bot.ui.message import Outgoing

#: (window key, messages per window, window seconds).
Window = tuple[str, int, float]
#: Which window a message counts in.
Limits = Callable[[Outgoing], Window]


def no_limits(item: Outgoing) -> Window:
    """For tools and tests that do not rate-limit: a generous window per chat."""
    return ("chat:" + destination(item), 1_000_000, 1.0)


def platform_windows(platform: Platform) -> Limits:
    """The platform's declared limits as outbox windows, one per chat."""
    limits = platform.limits

    def window(item: Outgoing) -> Window:
        key, private = platform.rate_key(item)
        if private:
            return key, limits.private_per_window, limits.private_window_s
        return key, limits.group_per_window, limits.group_window_s
    return window


# Lua, for the take script (``now`` is defined before it): until when a window is full
# (0: there is room now), after dropping the sends that left it.
WINDOW_WAIT = """
local function window_wait(key, per, win)
  redis.call('ZREMRANGEBYSCORE', key, '-inf', now - win)
  if redis.call('ZCARD', key) < per then return 0 end
  local oldest = redis.call('ZRANGE', key, 0, 0, 'WITHSCORES')
  return tonumber(oldest[2]) + win
end
"""
