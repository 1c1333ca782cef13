"""Which queued items are one: slots coalesce their edits, keys make repeats one message.

Items that update a kept message (a slot) share one outbox id per slot, so a burst of
updates to a table's message collapses into its latest version instead of a string of
edits, and the slot keeps the place in line its first queuing took. Other items with
an idempotency key (``item_key``) share one id per key; the rest get ids that sort by
the time they were queued.

Whether a slot has shown an item already is decided in Lua (``SHOWN``) from what the
slot was delivered at: its newest version, and the first fresh message of that version
with its content digest.
"""

from __future__ import annotations

import time
import uuid

from adapters.delivery.codec import content_digest, destination
from bot.ui.message import Outgoing

# Has a slot shown an item already? (KEYS[5] is the hash of what slots were delivered
# at: the version, and the first fresh message of that version with its digest.) It has
# if the item shows an older version, or redoes the version the slot shows: an edit of
# it, or the same fresh message as the first one sent at that version (a repair after a
# crash re-deriving the turn that went out). A different fresh message of that version
# (a reminder) has not been shown, nor has one someone asked for (``asked``: queued for
# an update, like /status typed twice).
SHOWN = """
local function shown(sfield, version, renew, digest, asked)
  local sent = tonumber(redis.call('HGET', KEYS[5], sfield) or '0')
  local v = tonumber(version)
  if v < sent then return true end
  if v > sent then return false end
  if not renew then return true end
  if asked then return false end
  return redis.call('HGET', KEYS[5], sfield .. '#r') == version .. ':' .. digest
end
"""


def slot_field(item: Outgoing) -> str:
    """Where the record of the message kept for the item's slot lives ('' without a slot)."""
    return f"{destination(item)}|{item.message.slot}" if item.message.slot else ""


def item_key(item: Outgoing) -> str:
    """The item's idempotency key ('' for none): what makes two queuings one message.

    Chat platforms have no idempotency key of their own, so the outbox keeps one per
    item, derived from what the item shows, never from when it was queued, so that the
    core's repair after a crash — which re-derives the same messages — finds the ones
    that went out already. A message of a table version (``Outgoing.version``) is keyed
    by (recipient, table, version, kind), its kind being its slot for a kept message,
    else the core's key or a digest of its content (one version may say several things
    to one chat).

    A slot's items share one id (``item_id``), so its key is honoured through what the
    slot was delivered at (``SHOWN``): an edit of a version the slot shows is dropped; a
    fresh message is dropped if it repeats the first one of that version, and sent if
    it differs (the core reminds a player with a fresh message of the same version).
    Any other keyed item is remembered as sent for a while (``outbox.SENT_TTL_S``).
    Messages without a version (answers to commands, page turns) have no key: nothing
    re-derives them, and two of them may rightly be equal.
    """
    if item.version <= 0:
        return ""
    m = item.message
    kind = f"slot:{m.slot}" if m.slot else f"msg:{item.key or content_digest(m)}"
    return f"{destination(item)}|{item.table or ''}|{item.version}|{kind}"


def slot_digest(item: Outgoing) -> str:
    """What tells a slot's fresh messages of one version apart ('' where unused)."""
    if item.message.slot is None or item.version <= 0:
        return ""
    return item.key or content_digest(item.message)


def item_id(item: Outgoing, key: str) -> str:
    """The item's id in the outbox: one per slot, one per key, else unique."""
    slot = item.message.slot
    if slot:
        return f"slot|{destination(item)}|{slot}"
    if key:
        return "key|" + key  # queued twice, it is still one item
    # Other plain messages get ids that sort by time, so items released together
    # (after a rate-limit wait) leave in the order they were queued.
    return f"msg|{time.time_ns():020d}|{uuid.uuid4().hex[:8]}"
