"""The catalog's small HTML subset as Discord markdown.

Text between tags is unescaped from HTML and escaped for markdown, so a player's name
can never turn into formatting or a mention (mentions are also switched off for the
bot's messages, see ``client``); code keeps its text as is, without backticks.
"""

from __future__ import annotations

import html
import re

import discord

_SPLIT = re.compile(r"(</?(?:b|i|u|s|code|pre)>)")
_MARKS = {"b": "**", "i": "*", "u": "__", "s": "~~", "code": "`", "pre": "```\n"}
_CLOSE = {"pre": "\n```"}


def to_markdown(text: str) -> str:
    """Discord markdown for catalog markup."""
    out: list[str] = []
    code = 0
    for part in _SPLIT.split(text):
        if not part:
            continue
        tag = part.strip("</>")
        if part.startswith("<") and tag in _MARKS:
            closing = part.startswith("</")
            if tag in ("code", "pre"):
                code += -1 if closing else 1
            out.append(_CLOSE.get(tag, _MARKS[tag]) if closing else _MARKS[tag])
            continue
        plain = html.unescape(part)
        out.append(plain.replace("`", "ˋ") if code else discord.utils.escape_markdown(plain))
    return "".join(out)
