"""Reading numbers out of option keys strictly.

Keys arrive from buttons and typed commands, so they may be anything. Only the
canonical spelling of a number is accepted — ASCII digits, no sign, no leading zero —
so one choice can never be reached under two different keys.
"""

from __future__ import annotations


def parse_number(text: str) -> int | None:
    """The number ``text`` spells canonically, or None."""
    if not text or not text.isascii() or not text.isdigit():
        return None
    if len(text) > 1 and text[0] == "0":
        return None
    return int(text)


def keyed_number(key: str, head: str) -> int | None:
    """The number of a ``<head>:<number>`` key, or None for any other key."""
    prefix, _, text = key.partition(":")
    return parse_number(text) if prefix == head else None
