"""Message markup: text that is safe to show, and the escaping of everything else.

Message texts are a small HTML subset (``<b>``, ``<i>``, ``<code>``) that every adapter
knows how to show. A value filled into a text is escaped unless it is ``Markup`` (text
the catalog already produced), so a user name can never inject markup.
"""

from __future__ import annotations

import html
import re
from typing import TYPE_CHECKING, Any

from bot.ui.markup import COMMAND, Rich

if TYPE_CHECKING:
    from bot.i18n.catalog import Lang


class Markup(str):
    """Text that is already safe markup: inserted into other texts without escaping."""

    __slots__ = ()


def escape(value: Any) -> Markup:
    """Escape any value for insertion into a message text (Markup passes through)."""
    if isinstance(value, Markup):
        return value
    return Markup(html.escape(str(value), quote=False))


_TAG = re.compile(r"</?(?:b|i|u|s|code|pre)>")


def to_plain(text: str | Rich) -> str:
    """Markup (catalog markup or a markup tree) to plain text."""
    if isinstance(text, Rich):
        return text.plain()
    return html.unescape(_TAG.sub("", COMMAND.sub(r"/\1", text)))


def command(name: str, lang: Lang) -> Markup:
    """The command ``name`` (the schema's canonical name) in catalog markup, as a reader
    of ``lang`` types it on their platform (``bot.ui.markup.Command``)."""
    return Markup(f'<cmd lang="{lang}">{name}</cmd>')
