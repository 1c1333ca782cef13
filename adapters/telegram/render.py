"""A neutral message as the Bot API takes it: HTML text within a limit, an inline keyboard.

Text is the core's markup tree rendered in Telegram's HTML parse mode (every literal
escaped; a mention of a Telegram user links to them). A text longer than Telegram
takes loses whole lines first (``bot.markup.fit_rich``: the header and scores stay,
the oldest log lines go), so the HTML stays well formed. Choices are laid out from
Telegram's declared capabilities (``bot.layout.TELEGRAM``): inline keyboard rows;
Telegram has no select menus, so a menu's options become rows of buttons.
"""

from __future__ import annotations

from typing import Any

from bot.layout import TELEGRAM, ButtonRow, lay_out
from bot.markup import Rich, fit_rich, render_html
from bot.ui import Message

CAPTION_LIMIT = 1024
TEXT_LIMIT = 4096
JSONDict = dict[str, Any]


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


def keyboard(message: Message) -> JSONDict | None:
    """The message's choices as a Bot API inline keyboard (None without choices)."""
    if message.choices is None:
        return None
    rows: list[list[JSONDict]] = []
    for row in lay_out(message.choices, TELEGRAM).rows:
        if isinstance(row, ButtonRow):
            rows.append([{"text": b.label, "callback_data": b.token} for b in row.buttons])
            continue
        buttons = [{"text": o.label, "callback_data": o.token} for o in row.options]
        rows += [buttons[i:i + TELEGRAM.per_row]
                 for i in range(0, len(buttons), TELEGRAM.per_row)]
    return {"inline_keyboard": rows} if rows else None
