"""Text from Telegram made safe before it reaches the bot core.

Telegram's JSON may carry what Python happily holds but nothing downstream can store:
a lone UTF-16 surrogate (``"\\ud800"`` in the JSON decodes to a ``str`` that UTF-8, and
so Redis, pydantic's JSON and ``json.dumps(ensure_ascii=False)`` refuse). A name is also
shown on every table and in every prompt: control characters, line breaks and the
direction overrides that turn the rest of a line around have no place in it, nor has a
name longer than Telegram itself allows.
"""

from __future__ import annotations

import unicodedata

NAME_LIMIT = 64  # Telegram caps first and last name at 64 characters each
# Explicit direction embeddings, overrides and isolates: they reorder what follows them.
BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


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
    text = valid_unicode(name)
    kept = []
    for char in text:
        if char in BIDI_CONTROLS:
            continue
        category = unicodedata.category(char)
        # Cc: controls (line breaks and tabs among them) — replaced by a space so that
        # words stay apart; Cs cannot occur any more; Cf (joiners of emoji sequences,
        # soft hyphens) stays.
        kept.append(" " if category == "Cc" else char)
    cleaned = " ".join("".join(kept).split())
    if len(cleaned) > NAME_LIMIT:
        cleaned = cleaned[: NAME_LIMIT - 1].rstrip() + "…"
    return cleaned or fallback
