"""The buttons each console message offered, kept in Redis under the message's number.

The console prints a message's buttons as ``[n] label`` under a header that carries the
message's number (``#12``), and a user presses one by typing ``12.3`` (or ``3`` for the
newest message they see: ``adapters.console.chat``). The numbers come from one counter
in Redis and each message's buttons are kept beside it, so a number typed after a
restart, or in another console on the same Redis, presses exactly the button it was
printed with — whose token the core then judges (a stale one is refused as stale) — and
never a button printed later.

Keys (with the store's prefix ``p``)::

    p console:seq            int   the last message number given out
    p console:buttons:<m>    hash  button number -> JSON [chat id, private, token],
                                   kept for ``KEEP`` after the message was printed
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import timedelta

from redis.asyncio import Redis

from adapters.store.client import unavailable_on_outage
from adapters.store.keys import DEFAULT_PREFIX

#: How long a printed message's buttons can still be typed.
KEEP = timedelta(days=30)

# KEYS: the counter.  ARGV: the buttons' key without the number, seconds to keep,
# then button number and its JSON, pairs.  Returns the new message's number.
_KEEP_BUTTONS = """
local number = redis.call('INCR', KEYS[1])
local key = ARGV[1] .. number
redis.call('HSET', key, unpack(ARGV, 3))
redis.call('EXPIRE', key, ARGV[2])
return number
"""


@dataclass(frozen=True, slots=True)
class PrintedButton:
    """One printed button: the chat it was shown in and the token it sends."""

    chat_id: str
    private: bool
    token: str


class ConsoleButtons:
    """Message numbers and the buttons printed under them (see the module)."""

    def __init__(self, redis: Redis, *, prefix: str = DEFAULT_PREFIX,
                 keep: timedelta = KEEP) -> None:
        """Keep the numbers under ``<prefix>console:``."""
        self._redis = redis
        self._seq = f"{prefix}console:seq"
        self._buttons = f"{prefix}console:buttons:"
        self._keep = max(1, int(keep.total_seconds()))
        self._script = redis.register_script(_KEEP_BUTTONS)

    async def keep(self, buttons: dict[int, PrintedButton]) -> int:
        """Give a printed message its number and keep its ``buttons`` (by the number
        each is printed with) under it; the message's number. ``buttons`` is not empty."""
        pairs: list[str | int] = []
        for number, button in buttons.items():
            pairs += [number, json.dumps([button.chat_id, button.private, button.token])]
        with unavailable_on_outage("number console buttons"):
            found = await self._script(keys=[self._seq],
                                       args=[self._buttons, self._keep, *pairs])
        return int(found)

    async def find(self, message: int, button: int) -> PrintedButton | None:
        """Button ``button`` of message ``message``, or None when there is none (never
        printed, or kept no longer)."""
        with unavailable_on_outage("read console buttons"):
            raw = await self._redis.hget(f"{self._buttons}{message}", str(button))
        if raw is None:
            return None
        chat_id, private, token = json.loads(raw)
        return PrintedButton(str(chat_id), bool(private), str(token))
