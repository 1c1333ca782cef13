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
from dataclasses import dataclass, replace
from typing import Any

from redis.asyncio import Redis

from bot.i18n import Markup
from bot.ui import Button, Message, Outgoing, Picture, ToChat, ToUser

ENQUEUE = """
-- KEYS: item, queued, ready, seq ; ARGV: id, body, renew
local rev = redis.call('HINCRBY', KEYS[1], 'rev', 1)
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
-- KEYS: ready, inflight ; ARGV: lease_until, item_prefix
local id = redis.call('LPOP', KEYS[1])
if not id then return false end
redis.call('ZADD', KEYS[2], ARGV[1], id)
local item = redis.call('HMGET', ARGV[2] .. id, 'body', 'rev', 'attempts', 'renew', 'seq')
return {id, item[1] or '', item[2] or '0', item[3] or '0', item[4] or '0', item[5] or '0'}
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

PROMOTE = """
-- KEYS: delayed, inflight, ready ; ARGV: now
-- Released items are older than anything still waiting in the ready list (they were
-- taken before it), so they go to its head, oldest first.
local moved = 0
for _, key in ipairs({KEYS[2], KEYS[1]}) do
  local due = redis.call('ZRANGEBYSCORE', key, '-inf', ARGV[1])
  for i = #due, 1, -1 do
    redis.call('ZREM', key, due[i])
    redis.call('LPUSH', KEYS[3], due[i])
    moved = moved + 1
  end
end
return moved
"""

RATE = """
-- KEYS: window ; ARGV: now, window_s, limit, member
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1] - ARGV[2])
if redis.call('ZCARD', KEYS[1]) < tonumber(ARGV[3]) then
  redis.call('ZADD', KEYS[1], ARGV[1], ARGV[4])
  redis.call('PEXPIRE', KEYS[1], math.ceil(ARGV[2] * 1000) + 1000)
  return '0'
end
local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
return tostring(oldest[2] + ARGV[2])
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


class Outbox:
    """The queue and the rate limits, under ``<prefix>tgout:``."""

    def __init__(self, redis: Redis, prefix: str = "campfire:") -> None:
        """Use ``redis`` (decode_responses=True)."""
        self.r = redis
        self.p = prefix + "tgout:"
        self._enqueue = redis.register_script(ENQUEUE)
        self._take = redis.register_script(TAKE)
        self._done = redis.register_script(DONE)
        self._delay = redis.register_script(DELAY)
        self._promote = redis.register_script(PROMOTE)
        self._rate = redis.register_script(RATE)

    async def put(self, item: Outgoing) -> str:
        """Queue an item; a slot update replaces an older one still waiting."""
        slot = item.message.slot
        # Plain messages get ids that sort by time, so items released together (after a
        # rate-limit wait) leave in the order they were queued.
        item_id = (f"slot|{destination(item)}|{slot}" if slot
                   else f"msg|{time.time_ns():020d}|{uuid.uuid4().hex[:8]}")
        await self._enqueue(keys=[self.p + "item:" + item_id, self.p + "queued",
                                  self.p + "ready", self.p + "seq"],
                            args=[item_id, encode(item), "1" if item.message.renew else "0"])
        return item_id

    async def take(self, now: float, lease_s: float = 60.0) -> Taken | None:
        """The next ready item, leased until ``now + lease_s``."""
        await self._promote(keys=[self.p + "delayed", self.p + "inflight", self.p + "ready"],
                            args=[now])
        row = await self._take(keys=[self.p + "ready", self.p + "inflight"],
                               args=[now + lease_s, self.p + "item:"])
        if not row:
            return None
        item_id, body, rev, attempts, renew, seq = row
        if not body:  # the item vanished (sent by another worker): nothing to do
            await self._done(keys=[self.p + "item:" + item_id, self.p + "queued",
                                   self.p + "ready", self.p + "inflight"], args=[item_id, rev])
            return None
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

    async def allowed_at(self, key: str, now: float, window_s: float, limit: int) -> float:
        """0 when one more message fits the window for ``key`` now (and counts it), else the
        time when it will."""
        value = await self._rate(keys=[self.p + "rate:" + key],
                                 args=[now, window_s, limit, uuid.uuid4().hex])
        return float(value)

    async def block(self, key: str, until: float, now: float) -> None:
        """Hold every message for ``key`` until ``until`` (Telegram asked us to wait)."""
        await self.r.set(self.p + "block:" + key, repr(until),
                         px=max(1, int((until - now) * 1000) + 1000))

    async def blocked_until(self, key: str) -> float:
        """When ``key`` may be written to again (0 if it is not blocked)."""
        value = await self.r.get(self.p + "block:" + key)
        return float(value) if value else 0.0

    async def pending(self) -> int:
        """Items not yet delivered."""
        return int(await self.r.scard(self.p + "queued"))
