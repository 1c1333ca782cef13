"""Updates trimmed to what the bot reads, before python-telegram-bot parses them.

A callback query carries the whole message its button sat on: the text with its
entities and the inline keyboard, every button of it. PTB turns all of that into objects
for every press, while the bot reads only where the message is (its chat, id, topic).
Parsing the keyboard and entities cost about as much CPU as the rest of the update
(``bench/telegram_updates.py``), so they are dropped first. Everything else stays, so a
field PTB or the bot comes to need is not silently lost; what goes is listed in
``UNREAD_MESSAGE_FIELDS``.
"""

from __future__ import annotations

from typing import Any

# Fields of the pressed message that nothing reads (see ``inbound.chat_of`` for what
# is read). Media and formatting only; never ids, chat, topic or date.
UNREAD_MESSAGE_FIELDS = ("reply_markup", "entities", "caption_entities", "photo",
                         "link_preview_options")


def prune_update(update: Any) -> Any:
    """The update with its callback query's message trimmed (in place; returned for
    chaining). Anything that is not a well-formed update passes through untouched, for
    PTB to judge."""
    if not isinstance(update, dict):
        return update
    query = update.get("callback_query")
    if isinstance(query, dict):
        message = query.get("message")
        if isinstance(message, dict):
            for field in UNREAD_MESSAGE_FIELDS:
                message.pop(field, None)
    return update


def prune_updates(payload: Any) -> Any:
    """A ``getUpdates`` answer with each of its updates trimmed (in place)."""
    if isinstance(payload, dict) and isinstance(payload.get("result"), list):
        for update in payload["result"]:
            prune_update(update)
    return payload
