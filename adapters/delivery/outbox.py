"""A Redis-backed outbox: nothing sent to a platform is lost, and no chat is flooded.

Items wait in a ready list; a sender takes one under a lease (a crashed sender's items
come back when the lease runs out), and removes it only after the platform accepted it.
Items that update a kept message (a slot) share one id per slot (``coalesce``), so a
burst of updates to a table's message collapses into its latest version instead of a
string of edits. Rate limits are sliding windows per chat and overall (``rates``), kept
in Redis so that several processes of one bot share them.

Order is kept only where it matters. A chat's messages leave one at a time, in the
order they were queued, and each chat waits on its own (a busy chat never holds
another). An item that failed and waits to be tried again holds only its *lane* — the
messages to its chat about the same table (``lane``), which must not overtake it — and
that for a bounded time (``Sender``); the chat's unrelated messages (another table's,
answers to commands) go on meanwhile. A slot's edits coalesce into one item, so they
never arrive out of order. A picture following its text holds nobody.

Each platform has an outbox of its own under ``<prefix><platform>out:``, its slot
records under ``<prefix><platform>slots`` (Telegram's platform name ``tg`` keeps the
keys it used before the layer was shared).

Delivery is at least once, and as close to exactly once as the platform lets it be.
Chat APIs have no idempotency key and no way to ask "did this message arrive?"; all
the bot ever learns of a sent message is the id in the answer. So:

- each item has a key derived from what it shows (``coalesce.item_key``); the ack
  stores, in one step, the slot's new message record, the table version the slot now
  shows and the item's key. An item acknowledged once is never sent again: queued
  again with the same key (the core repairing a table after a crash re-derives the same
  messages) it is dropped. A slot item of a version the slot already shows is dropped
  too, unless it is a fresh message that differs from the first one of that version (a
  reminder) or one someone has just asked for (/status twice);
- a take marks the body attempted before the call. Should it come back unacknowledged
  (the sender died between the platform's acceptance and the ack, or the answer was
  lost on the way), the retry cannot know whether the first call arrived, nor the id of
  the message it may have made: a kept message is edited again (edits are idempotent),
  and a new message is sent again without notification (``Taken.retried``), so nobody
  is pinged twice — at worst a silent copy shows, whose buttons the core refuses as
  stale once the table moves on.
"""

from __future__ import annotations

import asyncio
import enum
from dataclasses import dataclass, replace

from redis.asyncio import Redis

from adapters.delivery.coalesce import SHOWN, item_id, item_key, slot_digest, slot_field
from adapters.delivery.codec import decode, destination, encode
from adapters.delivery.rates import WINDOW_WAIT, Limits, no_limits
from adapters.delivery.recent import RecentBodies
from adapters.delivery.updates import UpdateClaim
from adapters.store.client import unavailable_on_outage
from adapters.store.scripts import CLAIM_UPDATE, SETTLE_TABLE
from bot.storage.ports import ScriptPart
from bot.ui.message import Outgoing

ENQUEUE = SETTLE_TABLE + CLAIM_UPDATE + """
-- KEYS: queued, ready, seq, slot versions queued, slots delivered, update's done flag,
--       update's claim, update's legacy done flag, then (if any) a table's to settle
--       (SETTLE_TABLE)
-- ARGV: prefix, count, finish, claim token, done ms, asked, claim ms (0: the update is
--       claimed already), then per item: id, body, renew, limit key, per, window, slot
--       field, table version, idempotency key, digest, lane, then (if any) the table's
--       to settle
-- Every message one update produced goes in with one round trip. A slot item showing
-- an older table version than the slot already got is dropped: racing updates may be
-- queued in either order, and the slot must end on the newest. A slot item the slot
-- has shown already is dropped too, and so is a keyed item already queued or delivered
-- (see ``item_key``): what a repair re-derives after a crash does not show twice. With
-- ``finish`` the update that produced the items is marked done in the same step, unless
-- another worker finished it first: then nothing is queued and the script answers 0.
-- An update not claimed yet is claimed here (CLAIM_UPDATE); if another worker holds it,
-- nothing is queued and the script answers -1.
-- With a table to settle, the messages are its follow-ups: it is settled in the same
-- step (so a table never owes what is already queued, and costs no round trip more).
local prefix = ARGV[1]
""" + SHOWN + """
if ARGV[3] == '1' then
  if ARGV[7] ~= '0' then
    local claim = claim_update(KEYS[6], KEYS[7], KEYS[8], ARGV[4], ARGV[7])
    if claim[1] == 'done' then return 0 end
    if claim[1] == 'held' then return -1 end
  elseif redis.call('EXISTS', KEYS[6]) == 1 then
    return 0
  end
end
local asked = ARGV[6] == '1'
for i = 0, tonumber(ARGV[2]) - 1 do
  local b = 8 + i * 11
  local id = ARGV[b]
  local ikey = prefix .. 'item:' .. id
  local sfield, version, idem = ARGV[b + 6], tonumber(ARGV[b + 7]), ARGV[b + 8]
  local skip = false
  if sfield ~= '' and version > 0 then
    local seen = tonumber(redis.call('HGET', KEYS[4], sfield) or '0')
    if version < seen
       or shown(sfield, ARGV[b + 7], ARGV[b + 2] == '1', ARGV[b + 9], asked) then
      skip = true
    else
      redis.call('HSET', KEYS[4], sfield, version)
    end
  elseif idem ~= '' then
    skip = redis.call('EXISTS', prefix .. 'sent:' .. idem) == 1
           or redis.call('EXISTS', ikey) == 1
  end
  if not skip then
    local rev = redis.call('HINCRBY', ikey, 'rev', 1)
    redis.call('HSET', ikey, 'body', ARGV[b + 1], 'lkey', ARGV[b + 3], 'per', ARGV[b + 4],
               'win', ARGV[b + 5], 'sfield', ARGV[b + 6], 'ver', ARGV[b + 7],
               'dig', ARGV[b + 9], 'asked', asked and '1' or '0', 'lane', ARGV[b + 10])
    -- The first queuing fixes an item's place in line (kept while a slot is coalesced),
    -- and the time its wait began (Redis's clock, ms: the outbox's age, ``backlog``).
    if redis.call('HEXISTS', ikey, 'seq') == 0 then
      local clock = redis.call('TIME')
      redis.call('HSET', ikey, 'seq', redis.call('INCR', KEYS[3]),
                 'at', clock[1] * 1000 + math.floor(clock[2] / 1000))
    end
    -- A request for a fresh message sticks until a send has honoured it, even if a plain
    -- edit of the same slot replaces the body before the sender gets to it.
    if ARGV[b + 2] == '1' then redis.call('HSET', ikey, 'renew', rev) end
    if redis.call('SADD', KEYS[1], id) == 1 then
      redis.call('RPUSH', KEYS[2], id)
    end
  end
end
if ARGV[3] == '1' then
  redis.call('SET', KEYS[6], '1', 'PX', ARGV[5])
  if redis.call('GET', KEYS[7]) == ARGV[4] then redis.call('DEL', KEYS[7]) end
end
if #KEYS > 8 then settle_table(8, 7 + tonumber(ARGV[2]) * 11) end
return 1
"""

TAKE = """
-- KEYS: ready, inflight, delayed, global window, slots, later (pictures to follow)
-- ARGV: now, lease_until, prefix, global_per_second, max_scan, max_items, lease_ms
-- Release what is due, then walk the ready list taking items that may be sent now, at
-- most one per chat: a chat with a message in flight (here or in another sender) has its
-- later messages parked on a list of its own until that one is done, so a chat's
-- messages arrive in order however many senders run, and a busy chat's backlog never
-- stands in the way of other chats. An item whose chat is blocked (the platform said wait)
-- or whose chat or the bot as a whole is at its rate limit goes to the delayed set until
-- it may go. Each taken item comes with the record of the message its slot keeps, and
-- the time until which its chat takes no pictures (0: it takes them).
local now = tonumber(ARGV[1])
local prefix = ARGV[3]
local max_items = tonumber(ARGV[6])
-- Due items (leases run out, waits over) go to the front of the line in the order they
-- were first queued, whenever each was put aside.
local due = {}
for _, key in ipairs({KEYS[2], KEYS[3], KEYS[6]}) do
  for _, id in ipairs(redis.call('ZRANGEBYSCORE', key, '-inf', now)) do
    redis.call('ZREM', key, id)
    local seq = redis.call('HGET', prefix .. 'item:' .. id, 'seq')
    table.insert(due, {tonumber(seq or '0'), id})
  end
end
table.sort(due, function(a, b) return a[1] < b[1] end)
for i = #due, 1, -1 do redis.call('LPUSH', KEYS[1], due[i][2]) end
""" + WINDOW_WAIT + """local taken, claimed = {}, {}
for _ = 1, tonumber(ARGV[5]) do
  if #taken >= max_items then break end
  local id = redis.call('LPOP', KEYS[1])
  if not id then break end
  local ikey = prefix .. 'item:' .. id
  local item = redis.call('HMGET', ikey, 'body', 'rev', 'attempts', 'renew', 'seq',
                          'lkey', 'per', 'win', 'sfield', 'tries', 'follow', 'lane')
  if not item[1] then
    redis.call('SREM', prefix .. 'queued', id)
  else
    local lkey = item[6] or 'none'
    local busy = prefix .. 'busy:' .. lkey
    local holder = redis.call('GET', busy)
    local lane = item[12] or ''
    local lholder = lane ~= '' and redis.call('GET', prefix .. 'hold:' .. lane)
    if lholder and lholder ~= id then
      -- An earlier message of its lane is being tried again: it waits behind that one.
      redis.call('RPUSH', prefix .. 'lpark:' .. lane, id)
    elseif claimed[lkey] or (holder and holder ~= id) then
      redis.call('RPUSH', prefix .. 'park:' .. lkey, id)
    else
      local wait = tonumber(redis.call('GET', prefix .. 'block:' .. lkey) or '0')
      if wait <= now then
        wait = window_wait(prefix .. 'rate:' .. lkey, tonumber(item[7] or '1'),
                           tonumber(item[8] or '1'))
      end
      if wait <= now then
        wait = window_wait(KEYS[4], tonumber(ARGV[4]), 1)
      end
      if wait > now then
        redis.call('ZADD', item[11] == '1' and KEYS[6] or KEYS[3], wait, id)
      else
        -- One member per send: the same slot item taken again at the same ``now`` (the
        -- clock's resolution) must count again, not replace its earlier send.
        local member = now .. ':' .. id .. ':' .. redis.call('INCR', prefix .. 'sends')
        redis.call('ZADD', prefix .. 'rate:' .. lkey, now, member)
        redis.call('PEXPIRE', prefix .. 'rate:' .. lkey,
                   math.ceil(tonumber(item[8] or '1') * 1000) + 1000)
        redis.call('ZADD', KEYS[4], now, member)
        redis.call('PEXPIRE', KEYS[4], 2000)
        redis.call('ZADD', KEYS[2], ARGV[2], id)
        redis.call('SET', busy, id, 'PX', ARGV[7])
        claimed[lkey] = true
        -- Marked as attempted before the call: a later take of the same body knows that
        -- the platform may have it already (the sender died, or the answer was lost).
        redis.call('HINCRBY', ikey, 'tries', 1)
        local kept = false
        if item[9] and item[9] ~= '' then kept = redis.call('HGET', KEYS[5], item[9]) end
        local nopic = redis.call('GET', prefix .. 'nopic:' .. lkey) or '0'
        table.insert(taken, {id, item[1], item[2] or '0', item[3] or '0', item[4] or '0',
                             item[5] or '0', kept or '', lkey, item[10] or '0',
                             item[11] or '0', nopic})
      end
    end
  end
end
return taken
"""

# Frees a chat (``release``) or a lane (``release_lane``) its item held, and puts the
# messages parked behind it back at the front of the line in their order (shared by DONE
# and DELAY; KEYS[2] is the ready list in both).
RELEASE = """
local function unpark(park)
  local parked = redis.call('LRANGE', park, 0, -1)
  if #parked > 0 then
    redis.call('DEL', park)
    for i = #parked, 1, -1 do redis.call('LPUSH', KEYS[2], parked[i]) end
  end
end
-- A chat's turn (busy/park) and a lane's hold (hold/lpark) are let go alike: only by
-- the item holding it, and what waited behind it goes back to the ready list.
local function let_go(held, parked, id)
  local holder = redis.call('GET', held)
  if holder and holder ~= id then return end
  if holder then redis.call('DEL', held) end
  unpark(parked)
end
local function release(lkey, id)
  let_go(prefix .. 'busy:' .. lkey, prefix .. 'park:' .. lkey, id)
end
local function release_lane(lane, id)
  if not lane or lane == '' then return end
  let_go(prefix .. 'hold:' .. lane, prefix .. 'lpark:' .. lane, id)
end
"""

DONE = """
-- KEYS: queued, ready, inflight, slots, slots delivered
-- ARGV: prefix, count, sent ms, then per item: id, rev, limit key, slot field, slot
--       record, table version, idempotency key, fresh ('1': sent as a new message),
--       digest
-- The slot's new message record, what the slot now shows and the item's key (kept for
-- ``sent ms``) are stored in the same step as the ack: an item acknowledged once is
-- never sent again, whoever queues it again.
local prefix = ARGV[1]
""" + RELEASE + SHOWN + """
for i = 0, tonumber(ARGV[2]) - 1 do
  local b = 4 + i * 9
  local id = ARGV[b]
  local ikey = prefix .. 'item:' .. id
  local sfield, version, idem = ARGV[b + 3], tonumber(ARGV[b + 5]), ARGV[b + 6]
  redis.call('ZREM', KEYS[3], id)
  release(ARGV[b + 2], id)
  release_lane(redis.call('HGET', ikey, 'lane'), id)
  if sfield ~= '' and ARGV[b + 4] ~= '' then
    redis.call('HSET', KEYS[4], sfield, ARGV[b + 4])
  end
  if sfield ~= '' and version > 0 then
    if version > tonumber(redis.call('HGET', KEYS[5], sfield) or '0') then
      redis.call('HSET', KEYS[5], sfield, version)
    end
    if ARGV[b + 7] == '1' then
      local first = redis.call('HGET', KEYS[5], sfield .. '#r')
      if not first or version > tonumber(string.match(first, '^(%d+):') or '0') then
        redis.call('HSET', KEYS[5], sfield .. '#r', ARGV[b + 5] .. ':' .. ARGV[b + 8])
      end
    end
  end
  if idem ~= '' then redis.call('SET', prefix .. 'sent:' .. idem, '1', 'PX', ARGV[3]) end
  local held = redis.call('HMGET', ikey, 'rev', 'ver', 'renew', 'dig', 'asked')
  local again = held[1] ~= false and held[1] ~= ARGV[b + 1]
  if again and sfield ~= '' and tonumber(held[2] or '0') > 0 then
    -- What arrived meanwhile may be something the slot has just shown.
    local fresh = tonumber(held[3] or '0') > tonumber(ARGV[b + 1])
    again = not shown(sfield, held[2], fresh, held[4] or '', held[5] == '1')
  end
  if not again then
    redis.call('DEL', ikey)
    redis.call('SREM', KEYS[1], id)
  else
    local renew = tonumber(held[3] or '0')
    if renew > 0 and renew <= tonumber(ARGV[b + 1]) then redis.call('HDEL', ikey, 'renew') end
    -- A newer version arrived while this one was being sent: send that one too, first
    -- in line, where the slot's place already was (it keeps its first queuing's seq).
    -- Nobody has tried to send that one yet.
    redis.call('HDEL', ikey, 'tries')
    redis.call('LPUSH', KEYS[2], id)
  end
end
return 1
"""

DELAY = """
-- KEYS: item, ready, inflight, delayed
-- ARGV: id, until, count_attempt, hold_ms, prefix, limit key, unsent
-- With hold_ms the item keeps its lane (its chat's messages about the same table) until
-- it is tried again, so the lane's later messages cannot overtake it, while the chat's
-- other messages go on; without, the lane is free too (a block may hold the chat).
-- ``unsent``: the platform certainly did not act on the call (it asked us to wait), so the
-- attempt the take recorded is taken back.
local prefix = ARGV[5]
""" + RELEASE + """
if ARGV[7] == '1' and tonumber(redis.call('HGET', KEYS[1], 'tries') or '0') > 0 then
  redis.call('HINCRBY', KEYS[1], 'tries', -1)
end
redis.call('ZREM', KEYS[3], ARGV[1])
release(ARGV[6], ARGV[1])
local lane = redis.call('HGET', KEYS[1], 'lane')
if tonumber(ARGV[4]) > 0 and lane and lane ~= '' then
  redis.call('SET', prefix .. 'hold:' .. lane, ARGV[1], 'PX', ARGV[4])
else
  release_lane(lane, ARGV[1])
end
if ARGV[3] == '1' then redis.call('HINCRBY', KEYS[1], 'attempts', 1) end
redis.call('ZADD', KEYS[4], ARGV[2], ARGV[1])
return 1
"""


LATER = """
-- KEYS: the picture's item, later, seq
-- ARGV: id, body, limit key, per, window, slot field, at
-- The picture of a message that went as text, to follow at ``at``: an item of its own,
-- kept apart from the queue proper (``later``), so it never holds its chat and is not
-- counted as pending. Queued again (a newer version of the same slot went as text
-- meanwhile), it shows the newest body and keeps its time and its failed attempts.
local fresh = redis.call('EXISTS', KEYS[1]) == 0
redis.call('HINCRBY', KEYS[1], 'rev', 1)
redis.call('HSET', KEYS[1], 'body', ARGV[2], 'lkey', ARGV[3], 'per', ARGV[4],
           'win', ARGV[5], 'sfield', ARGV[6], 'follow', '1')
redis.call('HDEL', KEYS[1], 'tries')
if fresh then
  redis.call('HSET', KEYS[1], 'seq', redis.call('INCR', KEYS[3]))
  redis.call('ZADD', KEYS[2], ARGV[7], ARGV[1])
end
return fresh and 1 or 0
"""


class Finish(enum.Enum):
    """What became of an update's messages (``Outbox.finish_update``)."""

    QUEUED = 1
    DONE = 0  # another worker finished the update first: nothing was queued
    HELD = -1  # another worker holds the update (not claimed here): nothing was queued

    def __bool__(self) -> bool:
        """True when the messages were queued."""
        return self is Finish.QUEUED


@dataclass(frozen=True)
class Taken:
    """An item under lease, with the record of the message its slot keeps (if any)."""

    id: str
    item: Outgoing
    rev: str
    attempts: int
    seq: int = 0  # place in line: items released together leave in this order
    lkey: str = "none"  # the chat (rate-limit window) it counts against
    kept: str | None = None  # JSON record of the slot's message (``records``), or None
    # This very body was taken before and never acknowledged: the platform may have it
    # already (a sender died between its call and the ack, or the answer was lost).
    retried: bool = False
    # The picture of a message that went as text, following it (``Outbox.follow``).
    follow: bool = False
    # Until when the chat takes no pictures (``Outbox.pause_pictures``; 0: it takes them).
    pictures_off_until: float = 0.0


def lane(item: Outgoing) -> str:
    """The messages ``item`` must stay in order with: those to the same chat about the
    same table (for a message about no table, the chat's other such messages)."""
    return f"{destination(item)}|{item.table or ''}"


LEASE_S = 60.0  # how long a taken item is a sender's before it goes back in line
SENT_TTL_S = 2 * 24 * 3600.0  # how long a keyed item is remembered as delivered


class Outbox:
    """The queue and the rate limits of one platform, under ``<prefix><platform>out:``;
    slot records in ``<prefix><platform>slots``."""

    def __init__(
        self, redis: Redis, prefix: str = "campfire:", *, platform: str,
        limits: Limits = no_limits, global_per_second: int = 1_000_000,
    ) -> None:
        """Use ``redis`` (decode_responses=True) for ``platform`` (its short name);
        ``limits`` says which window each message counts in, ``global_per_second`` caps
        the bot as a whole on that platform."""
        self.r = redis
        self.prefix = prefix
        self.platform = platform
        self.p = f"{prefix}{platform}out:"
        self.slots = f"{prefix}{platform}slots"
        self.limits = limits
        self.global_per_second = global_per_second
        self._enqueue = redis.register_script(ENQUEUE)
        self._take = redis.register_script(TAKE)
        self._done = redis.register_script(DONE)
        self._delay = redis.register_script(DELAY)
        self._later = redis.register_script(LATER)
        # Set whenever this process queues something: the sender resting here wakes at
        # once (``Sender.run``) instead of at the end of its idle pause.
        self.nudged = asyncio.Event()
        # What this process queued, so that its sender takes it back undecoded.
        self.recent = RecentBodies()

    async def put(self, item: Outgoing) -> str:
        """Queue an item; a slot update replaces an older one still waiting."""
        return (await self.put_many([item]))[0]

    async def put_many(self, items: list[Outgoing],
                       settle: ScriptPart | None = None) -> list[str]:
        """Queue items in order, all in one round trip; returns their ids. An item whose
        key (``item_key``) was delivered or is queued already is left out. ``settle``
        (``GameStore.settle_part``) settles the table the items follow up, in the same
        step."""
        if not items and settle is None:
            return []
        ids, _ = await self._put(items, None, settle)
        return ids

    async def finish_update(self, claim: UpdateClaim, items: list[Outgoing],
                            settle: ScriptPart | None = None) -> Finish:
        """Queue an update's messages and mark the update done, in one step, taking
        the claim first if it was not taken (``UpdateClaim.taken``). Nothing is queued
        when another worker marked the update done first (``Finish.DONE``) or holds
        the claim not taken here (``Finish.HELD``). ``settle``
        (``GameStore.settle_part``) settles the table the messages are the follow-ups
        of, in the same step."""
        _, outcome = await self._put(items, claim, settle)
        return outcome

    async def _put(self, items: list[Outgoing], claim: UpdateClaim | None,
                   settle: ScriptPart | None = None) -> tuple[list[str], Finish]:
        """Queue ``items``; with ``claim`` they answer that update, so a fresh message
        among them was asked for now, even if it repeats one (``SHOWN``)."""
        ids: list[str] = []
        args: list[str | int] = [self.p, len(items), "1" if claim else "0",
                                 claim.token if claim else "",
                                 claim.done_ttl_ms if claim else 0, "1" if claim else "0",
                                 claim.claim_ms if claim and not claim.taken else 0]
        bodies: list[tuple[str, Outgoing]] = []
        for item in items:
            key = item_key(item)
            this_id = item_id(item, key)
            ids.append(this_id)
            window_key, per, window = self.limits(item)
            slotted = item.message.slot is not None
            body = encode(item)
            bodies.append((body, item))
            args += [this_id, body, "1" if item.message.renew else "0", window_key,
                     per, repr(window), slot_field(item), item.version,
                     "" if slotted else key, slot_digest(item), lane(item)]
        keys = [self.p + "queued", self.p + "ready", self.p + "seq", self.p + "slotver",
                self.p + "slotsent",
                claim.done_key if claim else self.p + "noupdate",
                claim.claim_key if claim else self.p + "noupdate",
                claim.legacy_key if claim else self.p + "noupdate"]
        if settle is not None:
            keys += settle[0]
            args += settle[1]
        with unavailable_on_outage("queue messages"):
            outcome = Finish(int(await self._enqueue(keys=keys, args=args)))
        if outcome is Finish.QUEUED:
            for body, item in bodies:
                self.recent.keep(body, item)
            self.nudged.set()
        return ids, outcome

    async def take(self, now: float, lease_s: float = LEASE_S, scan: int = 200) -> Taken | None:
        """The next item that may be sent now (within its limits), leased until
        ``now + lease_s``; None when nothing can go now."""
        batch = await self.take_many(now, 1, lease_s, scan)
        return batch[0] if batch else None

    async def take_many(
        self, now: float, most: int, lease_s: float = LEASE_S, scan: int = 200
    ) -> list[Taken]:
        """Up to ``most`` items that may be sent now, each to a different chat and none to
        a chat with a message still in flight, leased until ``now + lease_s``."""
        rows = await self._take(
            keys=[self.p + "ready", self.p + "inflight", self.p + "delayed",
                  self.p + "rate:global", self.slots, self.p + "later"],
            args=[repr(now), repr(now + lease_s), self.p, self.global_per_second, scan, most,
                  int(lease_s * 1000)],
        )
        batch = []
        for (taken_id, body, rev, attempts, renew, seq, kept, lkey, tries, follow,
             nopic) in rows or []:
            item = self.recent.take(body) or decode(body)
            if renew != "0" and not item.message.renew:
                item = replace(item, message=replace(item.message, renew=True))
            # The chat key comes back as stored: the busy and park keys the scripts use.
            batch.append(Taken(taken_id, item, str(rev), int(attempts), int(seq), lkey,
                               kept or None, retried=int(tries) > 0, follow=follow == "1",
                               pictures_off_until=float(nopic)))
        return batch

    async def done(self, taken: Taken, kept: str | None = None) -> None:
        """The platform accepted it (or it can never be delivered): remove it, and store
        ``kept`` as its slot's message record — in the same step, with the version the
        slot now shows and the item's key, so that the item is never sent again."""
        await self.done_many([(taken, kept)])

    async def done_many(self, finished: list[tuple[Taken, str | None]]) -> None:
        """``done`` for several items in one round trip."""
        if not finished:
            return
        args: list[str | int] = [self.p, len(finished), int(SENT_TTL_S * 1000)]
        for taken, kept in finished:
            item = taken.item
            slotted = item.message.slot is not None
            args += [taken.id, taken.rev, taken.lkey, slot_field(item), kept or "",
                     item.version, "" if slotted else item_key(item),
                     "1" if item.message.renew else "0", slot_digest(item)]
        await self._done(keys=[self.p + "queued", self.p + "ready", self.p + "inflight",
                               self.slots, self.p + "slotsent"], args=args)

    async def delay(
        self, taken: Taken, until: float, now: float, *, failed: bool = False,
        hold: bool = False, unsent: bool = False,
    ) -> None:
        """Try again at ``until`` (counting an attempt when it ``failed``); with ``hold``
        the later messages of its lane (``lane``) wait for this one (at most a lease past
        ``until``, should no sender ever come back for it); the chat's others go on. Items
        released together go back in the order they were first queued. ``unsent``: the
        platform certainly did not act on it (a 429), so the next try is not a retry of
        something that may have arrived.
        """
        score = until
        hold_ms = int((max(until - now, 0.0) + LEASE_S) * 1000) if hold else 0
        later = self.p + ("later" if taken.follow else "delayed")
        await self._delay(keys=[self.p + "item:" + taken.id, self.p + "ready",
                                self.p + "inflight", later],
                          args=[taken.id, repr(score), "1" if failed else "0", hold_ms, self.p,
                                taken.lkey, "1" if unsent else "0"])

    async def follow(self, taken: Taken, at: float) -> str:
        """Queue the picture of ``taken`` (which went as text) to follow at ``at``, as an
        item of its own (``Taken.follow``) that holds no chat and is not ``pending``;
        for a slot, one per slot, showing the newest version that went as text. Its id."""
        item = taken.item
        follow_id = "pic|" + taken.id
        window_key, per, window = self.limits(item)
        plain = replace(item, message=replace(item.message, renew=False))
        await self._later(keys=[self.p + "item:" + follow_id, self.p + "later",
                                self.p + "seq"],
                          args=[follow_id, encode(plain), window_key, per, repr(window),
                                slot_field(item), repr(at)])
        return follow_id

    async def pause_pictures(self, key: str, until: float, now: float) -> None:
        """Send no pictures to the chat of ``key`` until ``until``: its messages go as
        text meanwhile (a picture failed there)."""
        await self.r.set(self.p + "nopic:" + key, repr(until),
                         px=max(1, int((until - now) * 1000) + 1000))

    async def slot_version(self, taken: Taken) -> int:
        """The newest table version queued for ``taken``'s slot (0: none recorded)."""
        field = slot_field(taken.item)
        if not field:
            return 0
        return int(await self.r.hget(self.p + "slotver", field) or 0)

    async def following(self) -> int:
        """Pictures waiting to follow their text (``follow``)."""
        return int(await self.r.zcard(self.p + "later"))

    async def block(self, key: str, until: float, now: float) -> None:
        """Hold every message for ``key`` until ``until`` (the platform asked us to wait)."""
        await self.r.set(self.p + "block:" + key, repr(until),
                         px=max(1, int((until - now) * 1000) + 1000))

    async def pending(self) -> int:
        """Items not yet delivered."""
        return int(await self.r.scard(self.p + "queued"))

    async def backlog(self) -> tuple[int, float]:
        """How many items wait to be delivered, and how long the oldest has waited, in
        seconds (0 when none waits; items queued before their time was kept count
        in the number only). One pass over the queue: for a scrape, not for a loop."""
        ids = [str(item_id) for item_id in await self.r.smembers(self.p + "queued")]
        if not ids:
            return 0, 0.0
        async with self.r.pipeline(transaction=False) as pipe:
            pipe.time()
            for item_id in ids:
                pipe.hget(self.p + "item:" + item_id, "at")
            now, *stamps = await pipe.execute()
        now_ms = now[0] * 1000 + now[1] // 1000
        oldest = min((int(at) for at in stamps if at), default=now_ms)
        return len(ids), max(0.0, (now_ms - oldest) / 1000)

    async def waiting(self) -> int:
        """Items put aside until a time comes (a rate limit, the platform's wait, a retry)."""
        return int(await self.r.zcard(self.p + "delayed"))

    async def next_wake(self) -> float | None:
        """The earliest time an item put aside may go (None: nothing is put aside)."""
        first = await self.r.zrange(self.p + "delayed", 0, 0, withscores=True)
        return float(first[0][1]) if first else None
