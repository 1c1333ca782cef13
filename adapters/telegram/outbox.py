"""A Redis-backed outbox: nothing sent to Telegram is lost, and no chat is flooded.

Items wait in a ready list; a sender takes one under a lease (a crashed sender's items
come back when the lease runs out), and removes it only after Telegram accepted it.
Items that update a kept message (a slot) share one id per slot, so a burst of updates
to a table's message collapses into its latest version instead of a string of edits.
Rate limits are sliding windows per chat and overall, kept in Redis so that several
processes of one bot share them.
"""

from __future__ import annotations

import base64
import json
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from redis.asyncio import Redis

from bot.i18n import Markup
from bot.ui import Button, Message, Outgoing, Picture, ToChat, ToUser

ENQUEUE = """
-- KEYS: item, queued, ready, seq ; ARGV: id, body, renew, limit key, per, window
local rev = redis.call('HINCRBY', KEYS[1], 'rev', 1)
redis.call('HSET', KEYS[1], 'lkey', ARGV[4], 'per', ARGV[5], 'win', ARGV[6])
-- The first queuing fixes an item's place in line (kept while a slot is coalesced).
if redis.call('HEXISTS', KEYS[1], 'seq') == 0 then
  redis.call('HSET', KEYS[1], 'seq', redis.call('INCR', KEYS[4]))
end
redis.call('HSET', KEYS[1], 'body', ARGV[2])
-- A request for a fresh message sticks until a send has honoured it, even if a plain
-- edit of the same slot replaces the body before the sender gets to it.
if ARGV[3] == '1' then redis.call('HSET', KEYS[1], 'renew', rev) end
if redis.call('SADD', KEYS[2], ARGV[1]) == 1 then
  redis.call('RPUSH', KEYS[3], ARGV[1])
end
return rev
"""

TAKE = """
-- KEYS: ready, inflight, delayed, global window
-- ARGV: now, lease_until, prefix, global_per_second, max_scan
-- Release what is due, then walk the ready list until an item may be sent now: an item
-- whose chat is blocked (Telegram said wait) or whose chat or the bot as a whole is at
-- its rate limit goes back to the delayed set, offset by its place in line. All in one
-- round trip, because this runs once per message sent.
local now = tonumber(ARGV[1])
local prefix = ARGV[3]
for _, key in ipairs({KEYS[2], KEYS[3]}) do
  local due = redis.call('ZRANGEBYSCORE', key, '-inf', now)
  for i = #due, 1, -1 do
    redis.call('ZREM', key, due[i])
    redis.call('LPUSH', KEYS[1], due[i])
  end
end
local function window_wait(key, per, win)
  redis.call('ZREMRANGEBYSCORE', key, '-inf', now - win)
  if redis.call('ZCARD', key) < per then return 0 end
  local oldest = redis.call('ZRANGE', key, 0, 0, 'WITHSCORES')
  return tonumber(oldest[2]) + win
end
for _ = 1, tonumber(ARGV[5]) do
  local id = redis.call('LPOP', KEYS[1])
  if not id then return false end
  local ikey = prefix .. 'item:' .. id
  local item = redis.call('HMGET', ikey, 'body', 'rev', 'attempts', 'renew', 'seq',
                          'lkey', 'per', 'win')
  if not item[1] then
    redis.call('SREM', prefix .. 'queued', id)
  else
    local seq = tonumber(item[5] or '0') % 100000
    local lkey = item[6] or 'none'
    local wait = tonumber(redis.call('GET', prefix .. 'block:' .. lkey) or '0')
    if wait <= now then
      wait = window_wait(prefix .. 'rate:' .. lkey, tonumber(item[7] or '1'),
                         tonumber(item[8] or '1'))
    end
    if wait <= now then
      wait = window_wait(KEYS[4], tonumber(ARGV[4]), 1)
    end
    if wait > now then
      redis.call('ZADD', KEYS[3], wait + seq * 0.000001, id)
    else
      local member = now .. ':' .. id
      redis.call('ZADD', prefix .. 'rate:' .. lkey, now, member)
      redis.call('PEXPIRE', prefix .. 'rate:' .. lkey,
                 math.ceil(tonumber(item[8] or '1') * 1000) + 1000)
      redis.call('ZADD', KEYS[4], now, member)
      redis.call('PEXPIRE', KEYS[4], 2000)
      redis.call('ZADD', KEYS[2], ARGV[2], id)
      return {id, item[1], item[2] or '0', item[3] or '0', item[4] or '0', item[5] or '0'}
    end
  end
end
return false
"""

DONE = """
-- KEYS: item, queued, ready, inflight ; ARGV: id, rev
redis.call('ZREM', KEYS[4], ARGV[1])
if redis.call('HGET', KEYS[1], 'rev') == ARGV[2] then
  redis.call('DEL', KEYS[1])
  redis.call('SREM', KEYS[2], ARGV[1])
  return 1
end
local renew = tonumber(redis.call('HGET', KEYS[1], 'renew') or '0')
if renew > 0 and renew <= tonumber(ARGV[2]) then redis.call('HDEL', KEYS[1], 'renew') end
-- A newer version arrived while this one was being sent: send that one too.
redis.call('RPUSH', KEYS[3], ARGV[1])
return 0
"""

DELAY = """
-- KEYS: item, inflight, delayed ; ARGV: id, until, count_attempt
redis.call('ZREM', KEYS[2], ARGV[1])
if ARGV[3] == '1' then redis.call('HINCRBY', KEYS[1], 'attempts', 1) end
redis.call('ZADD', KEYS[3], ARGV[2], ARGV[1])
return 1
"""


def encode(item: Outgoing) -> str:
    """An outgoing message as JSON (pictures base64)."""
    m = item.message
    to = {"chat": item.to.chat_id} if isinstance(item.to, ToChat) else {"user": item.to.user_id}
    return json.dumps({
        "to": to,
        "table": item.table,
        "text": str(m.text),
        "buttons": [[[b.label, b.token] for b in row] for row in m.buttons],
        "picture": base64.b64encode(m.picture.png).decode() if m.picture else None,
        "picture_name": m.picture.name if m.picture else None,
        "slot": m.slot,
        "renew": m.renew,
    })


def decode(body: str) -> Outgoing:
    """Back from ``encode``."""
    raw: dict[str, Any] = json.loads(body)
    to: ToChat | ToUser = (
        ToChat(raw["to"]["chat"]) if "chat" in raw["to"] else ToUser(raw["to"]["user"])
    )
    picture = None
    if raw.get("picture"):
        picture = Picture(png=base64.b64decode(raw["picture"]),
                          name=raw.get("picture_name") or "board.png")
    buttons = tuple(tuple(Button(label, token) for label, token in row)
                    for row in raw.get("buttons", []))
    message = Message(text=Markup(raw["text"]), buttons=buttons, picture=picture,
                      slot=raw.get("slot"), renew=bool(raw.get("renew")))
    return Outgoing(to=to, message=message, table=raw.get("table"))


def destination(item: Outgoing) -> str:
    """The Campfire id of the chat the item goes to (a user's private chat is theirs)."""
    return item.to.chat_id if isinstance(item.to, ToChat) else item.to.user_id


@dataclass(frozen=True)
class Taken:
    """An item under lease."""

    id: str
    item: Outgoing
    rev: str
    attempts: int
    seq: int = 0  # place in line: items waiting for the same moment leave in this order


# What a message counts against: (window key, messages per window, window seconds).
Limits = Callable[[Outgoing], tuple[str, int, float]]


def no_limits(item: Outgoing) -> tuple[str, int, float]:
    """For tools and tests that do not rate-limit: one shared, generous window."""
    return ("none", 1_000_000, 1.0)


class Outbox:
    """The queue and the rate limits, under ``<prefix>tgout:``."""

    def __init__(
        self, redis: Redis, prefix: str = "campfire:", *, limits: Limits = no_limits,
        global_per_second: int = 1_000_000,
    ) -> None:
        """Use ``redis`` (decode_responses=True); ``limits`` says which window each
        message counts in, ``global_per_second`` caps the bot as a whole."""
        self.r = redis
        self.p = prefix + "tgout:"
        self.limits = limits
        self.global_per_second = global_per_second
        self._enqueue = redis.register_script(ENQUEUE)
        self._take = redis.register_script(TAKE)
        self._done = redis.register_script(DONE)
        self._delay = redis.register_script(DELAY)

    async def put(self, item: Outgoing) -> str:
        """Queue an item; a slot update replaces an older one still waiting."""
        slot = item.message.slot
        # Plain messages get ids that sort by time, so items released together (after a
        # rate-limit wait) leave in the order they were queued.
        item_id = (f"slot|{destination(item)}|{slot}" if slot
                   else f"msg|{time.time_ns():020d}|{uuid.uuid4().hex[:8]}")
        key, per, window = self.limits(item)
        await self._enqueue(
            keys=[self.p + "item:" + item_id, self.p + "queued", self.p + "ready",
                  self.p + "seq"],
            args=[item_id, encode(item), "1" if item.message.renew else "0", key, per,
                  repr(window)],
        )
        return item_id

    async def take(self, now: float, lease_s: float = 60.0, scan: int = 50) -> Taken | None:
        """The next item that may be sent now (within its limits), leased until
        ``now + lease_s``; None when nothing can go now."""
        row = await self._take(
            keys=[self.p + "ready", self.p + "inflight", self.p + "delayed",
                  self.p + "rate:global"],
            args=[repr(now), repr(now + lease_s), self.p, self.global_per_second, scan],
        )
        if not row:
            return None
        item_id, body, rev, attempts, renew, seq = row
        item = decode(body)
        if renew != "0" and not item.message.renew:
            item = replace(item, message=replace(item.message, renew=True))
        return Taken(item_id, item, str(rev), int(attempts), int(seq))

    async def done(self, taken: Taken) -> None:
        """Telegram accepted it (or it can never be delivered): remove it."""
        await self._done(keys=[self.p + "item:" + taken.id, self.p + "queued",
                               self.p + "ready", self.p + "inflight"], args=[taken.id, taken.rev])

    async def delay(self, taken: Taken, until: float, *, failed: bool = False) -> None:
        """Try again at ``until`` (counting an attempt when it ``failed``).

        Items held until the same moment are released in the order they were queued:
        each is offset by its place in line, a microsecond per place.
        """
        score = until + (taken.seq % 100_000) * 1e-6
        await self._delay(keys=[self.p + "item:" + taken.id, self.p + "inflight",
                                self.p + "delayed"], args=[taken.id, repr(score),
                                                           "1" if failed else "0"])

    async def block(self, key: str, until: float, now: float) -> None:
        """Hold every message for ``key`` until ``until`` (Telegram asked us to wait)."""
        await self.r.set(self.p + "block:" + key, repr(until),
                         px=max(1, int((until - now) * 1000) + 1000))

    async def pending(self) -> int:
        """Items not yet delivered."""
        return int(await self.r.scard(self.p + "queued"))
