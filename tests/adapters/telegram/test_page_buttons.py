"""The button that opens a table's page, as Telegram makes it (page_buttons.py)."""

from __future__ import annotations

from adapters.telegram.page_buttons import PageButtons
from adapters.telegram.render import keyboard
from bot.ui.choices import Choice, block
from bot.ui.message import Message

WEB = Choice("🌐 Page", "w.ab12.0123456789", "web", table="ab12")
MOVE = Choice("Forest", "m.ab12.1.0.deadbeef.0.mac", "option", mark=1)
MESSAGE = Message(text="t", choices=block([MOVE, WEB]))


def buttons(markup: dict[str, object] | None) -> list[dict[str, object]]:
    assert markup is not None
    rows = markup["inline_keyboard"]
    assert isinstance(rows, list)
    return [b for row in rows for b in row]


def test_in_a_private_chat_the_page_opens_as_a_mini_app() -> None:
    pages = PageButtons("https://play.example.org/")
    web = buttons(keyboard(MESSAGE, pages, private=True))[-1]
    assert web == {"text": "🌐 Page", "web_app": {"url": "https://play.example.org/t/ab12"}}


def test_in_a_group_the_page_opens_by_the_direct_link_or_else_by_a_press() -> None:
    linked = PageButtons("https://play.example.org", "https://t.me/campfire_bot/table")
    web = buttons(keyboard(MESSAGE, linked, private=False))[-1]
    assert web == {"text": "🌐 Page", "url": "https://t.me/campfire_bot/table?startapp=ab12"}
    # No direct link registered: an ordinary button, answered with the presser's link.
    plain = buttons(keyboard(MESSAGE, PageButtons("https://play.example.org"), private=False))
    assert plain[-1] == {"text": "🌐 Page", "callback_data": WEB.token}


def test_moves_stay_ordinary_buttons_and_without_pages_so_does_the_page_item() -> None:
    pages = PageButtons("https://play.example.org")
    assert buttons(keyboard(MESSAGE, pages, private=True))[0] == {
        "text": "Forest", "callback_data": MOVE.token}
    assert buttons(keyboard(MESSAGE))[-1] == {"text": "🌐 Page", "callback_data": WEB.token}


def test_a_page_not_on_https_is_no_mini_app() -> None:
    plain = buttons(keyboard(MESSAGE, PageButtons("http://localhost:8088"), private=True))
    assert plain[-1] == {"text": "🌐 Page", "callback_data": WEB.token}
