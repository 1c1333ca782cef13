"""A neutral message as the Bot API takes it: HTML text within a limit, an inline keyboard.

Text is the core's markup tree rendered in Telegram's HTML parse mode (every literal
escaped; a mention of a Telegram user links to them). A text longer than Telegram
takes loses whole lines first (``bot.ui.markup.fit_rich``: the header and scores stay,
the oldest log lines go), so the HTML stays well formed. Choices are laid out from
Telegram's declared capabilities (``TELEGRAM``): inline keyboard rows;
Telegram has no select menus, so a menu's options become rows of buttons.
"""

from __future__ import annotations

import html as html_text
from collections.abc import Callable
from typing import Any

from adapters.telegram.page_buttons import PageButtons
from bot.ui.choices import Choice
from bot.ui.layout import ButtonRow, Capabilities, lay_out
from bot.ui.markup import Link, Mention, Node, Rich, Span, Style, fit_rich, walk
from bot.ui.message import Message

CAPTION_LIMIT = 1024
TEXT_LIMIT = 4096
JSONDict = dict[str, Any]
# Inline keyboards take up to 100 buttons; two per row keeps labels readable on a phone,
# and 16 options a page keeps the keyboard shorter than the screen. A row takes up to 8
# buttons: short labels (a site's numbers of people, "🌲3") go 8 to a row.
TELEGRAM = Capabilities(per_row=2, max_rows=12, max_buttons=100, page_size=16,
                        label_chars=120, token_bytes=64, narrow_per_row=8)


_HTML_TAGS: dict[Style, str] = {
    "bold": "b", "italic": "i", "underline": "u", "strike": "s", "code": "code", "pre": "pre",
}


def render_html(value: Rich, mention_url: Callable[[str], str | None] = lambda _: None,
                ) -> str:
    """Telegram's HTML: every text escaped; ``mention_url`` maps a Campfire user id to a
    link (``tg://user?id=…``) or None to show the name alone."""
    def wrap(node: Node, inner: str) -> str:
        if isinstance(node, Span):
            tag = _HTML_TAGS[node.style]
            return f"<{tag}>{inner}</{tag}>"
        if isinstance(node, Link):
            return f'<a href="{html_text.escape(node.url, quote=True)}">{inner}</a>'
        if isinstance(node, Mention):
            url = mention_url(node.user_id)
            return f'<a href="{html_text.escape(url, quote=True)}">{inner}</a>' if url else inner
        return inner
    return walk(value.nodes, lambda s: html_text.escape(s, quote=False), wrap)


def mention_url(user_id: str) -> str | None:
    """A link to a Telegram user (None for another platform's user)."""
    body = user_id.removeprefix("tg:")
    if body == user_id or not body.isdigit():
        return None
    return f"tg://user?id={body}"


def html(text: Rich) -> str:
    """The tree in Telegram's HTML."""
    return render_html(text, mention_url)


def fit(text: Rich, limit: int) -> str:
    """The text as HTML within ``limit`` characters, still well formed."""
    return html(fit_rich(text, limit, html))


def keyboard(message: Message, pages: PageButtons | None = None,
             private: bool = False) -> JSONDict | None:
    """The message's choices as a Bot API inline keyboard (None without choices); with
    ``pages``, an item that opens the table's page is Telegram's own button for that
    (``private``: the message goes to a private chat)."""
    if message.choices is None:
        return None

    def button(b: Choice) -> JSONDict:
        made = pages.button(b, private) if pages is not None and b.kind == "web" else None
        return made or {"text": b.label, "callback_data": b.token}

    rows: list[list[JSONDict]] = []
    for row in lay_out(message.choices, TELEGRAM).rows:
        if isinstance(row, ButtonRow):
            rows.append([button(b) for b in row.buttons])
            continue
        buttons = [{"text": o.label, "callback_data": o.token} for o in row.options]
        rows += [buttons[i:i + TELEGRAM.per_row]
                 for i in range(0, len(buttons), TELEGRAM.per_row)]
    return {"inline_keyboard": rows} if rows else None
