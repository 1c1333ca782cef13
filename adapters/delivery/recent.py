"""The items this process queued, by the body it stored, so taking one back is free.

Most items are queued and sent by the same process moments apart: the outbox stores the
body (``codec.encode``) and the sender takes it back. Decoding it again rebuilds the
whole markup tree and choice block, and loses what was derived from the message
(``Message.derived``: its digests), which the sender needs anew: about a third of the
delivery layer's CPU per message (``bench/telegram_updates.py``). A body this process
stored is the very item it encoded, so the item itself is handed back.

Only the exact body counts (a string comparison), so an item changed in Redis since, or
queued by another process, is decoded as before. Large bodies (pictures) are not kept:
the cache stays small, and their decoding is not what costs.
"""

from __future__ import annotations

from collections import OrderedDict

from bot.ui.message import Outgoing

MAX_ITEMS = 1024
MAX_BODY_CHARS = 16_384


class RecentBodies:
    """A bounded map from stored bodies to the items they encode (oldest dropped)."""

    def __init__(self, max_items: int = MAX_ITEMS, max_body_chars: int = MAX_BODY_CHARS
                 ) -> None:
        """Keep at most ``max_items`` bodies of at most ``max_body_chars`` each."""
        self.max_items = max_items
        self.max_body_chars = max_body_chars
        self._items: OrderedDict[str, Outgoing] = OrderedDict()

    def keep(self, body: str, item: Outgoing) -> None:
        """Remember that ``body`` encodes ``item``."""
        if len(body) > self.max_body_chars:
            return
        self._items[body] = item
        self._items.move_to_end(body)
        while len(self._items) > self.max_items:
            self._items.popitem(last=False)

    def take(self, body: str) -> Outgoing | None:
        """The item ``body`` encodes, if this process stored it (forgotten then: an
        item is taken back once, and a retry decodes)."""
        return self._items.pop(body, None)

    def __len__(self) -> int:
        """How many bodies are kept."""
        return len(self._items)
