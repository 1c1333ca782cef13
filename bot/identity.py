"""Who acts and where: platform-neutral users and chats, and the cleaning every one of
them gets as it reaches the core.

Ids are namespaced by platform (``tg:123``, ``dc:456``, ``con:anna``) so that ids of
different platforms never collide in storage. An AI player seated at a table has an id
of its own kind, ``ai:<level>:<n>`` (``ai_id``): no platform hands out an ``ai:`` id, so
nobody can act as one, and every place that would send to a user asks ``is_ai`` first
(an AI is never sent anything).

A platform may hand over what Python happily holds but nothing downstream can store: a
lone UTF-16 surrogate (``"\\ud800"`` in Telegram's JSON, a Discord display name, a
console line of bad bytes) decodes to a ``str`` that UTF-8, and so Redis, pydantic's
JSON and ``json.dumps(ensure_ascii=False)`` refuse. A name is also shown on every
table and in every prompt: control characters, line breaks and the direction overrides
that turn the rest of a line around have no place in it, nor has a name of hundreds of
characters. ``bot.app.Campfire`` cleans every user, chat and text it receives here
(``arrived``, ``clean_text``), once, so that no platform has to remember to.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass, replace

AI_PREFIX = "ai:"
NAME_LIMIT = 64  # Telegram's cap on a first (or last) name, and room for any real one
# Explicit direction embeddings, overrides and isolates: they reorder what follows them.
BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
# Controls a typed text may keep: they separate words and lines of a command.
TEXT_WHITESPACE = frozenset("\t\n\r")


@dataclass(frozen=True, slots=True)
class User:
    """A person: stable id, display name, and the language their client reports."""

    id: str
    name: str
    lang: str | None = None
    is_admin: bool = False


@dataclass(frozen=True, slots=True)
class Chat:
    """A conversation: a group (or forum topic), or the private chat with the bot."""

    id: str
    private: bool = False
    title: str = ""


def ai_id(level: str, n: int) -> str:
    """The user id of a table's ``n``-th AI player, playing at ``level``."""
    return f"{AI_PREFIX}{level}:{n}"


def is_ai(user_id: str) -> bool:
    """Is ``user_id`` an AI player's (never a person's: no platform's ids look so)?"""
    return user_id.startswith(AI_PREFIX)


def ai_parts(user_id: str) -> tuple[str, int]:
    """The level and the number of an AI player's id (``ai_id`` read back)."""
    level, _, n = user_id.removeprefix(AI_PREFIX).partition(":")
    return level, int(n)


def valid_unicode(text: str) -> str:
    """``text`` with every lone surrogate replaced by U+FFFD; a surrogate pair that
    arrived as two halves becomes the one character it stands for."""
    try:
        text.encode("utf-8")
        return text  # the usual case: nothing to mend
    except UnicodeEncodeError:
        return text.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "replace")


def clean_name(name: str, fallback: str) -> str:
    """A display name that every store and every chat can take: valid Unicode, no
    control characters or direction overrides, spaces collapsed, at most
    ``NAME_LIMIT`` characters; ``fallback`` when nothing is left."""
    kept = []
    for char in valid_unicode(name):
        if char in BIDI_CONTROLS:
            continue
        # Cc: controls (line breaks and tabs among them) — replaced by a space so that
        # words stay apart; Cs cannot occur any more; Cf (joiners of emoji sequences,
        # soft hyphens) stays.
        kept.append(" " if unicodedata.category(char) == "Cc" else char)
    cleaned = " ".join("".join(kept).split())
    if len(cleaned) > NAME_LIMIT:
        cleaned = cleaned[: NAME_LIMIT - 1].rstrip() + "…"
    return cleaned or fallback


def clean_text(text: str) -> str:
    """A typed text (or a button's token) the core can parse, store and quote: valid
    Unicode, and no control characters but tabs and line breaks."""
    text = valid_unicode(text)
    if text.isprintable():
        return text  # the usual case: nothing to drop
    return "".join(ch for ch in text if ch in TEXT_WHITESPACE
                   or unicodedata.category(ch) != "Cc")


def arrived(chat: Chat, user: User) -> tuple[Chat, User]:
    """``chat`` and ``user`` as the core keeps them: names and titles cleaned. A name
    with nothing left shows as ``#`` and the id within its platform."""
    fallback = "#" + user.id.partition(":")[2] if ":" in user.id else user.id
    name = clean_name(user.name, fallback)
    title = clean_name(chat.title, "")
    return (chat if title == chat.title else replace(chat, title=title),
            user if name == user.name else replace(user, name=name))
