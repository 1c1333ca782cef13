"""The button that opens a table's page (``web`` items, ``bot.input.presses._web``)."""

from __future__ import annotations

from adapters.web.links import LinkSigner, SignedLinks
from bot.ui.choices import ChoiceBlock
from bot.ui.message import Message, ToUser
from tests.bot.helpers import (
    ANNA,
    BORIS,
    CLARA,
    GROUP,
    SECRET,
    Harness,
    plain,
)

BASE = "http://pages.test"


def web_items(message: Message) -> list[str]:
    """The tokens of a message's items that open a page."""
    block: ChoiceBlock | None = message.choices
    return [c.token for c in block.choices if c.kind == "web"] if block else []


def serve_pages(h: Harness) -> Harness:
    """``h`` with the tables' pages served at ``BASE``."""
    h.sv.serve_pages(SignedLinks(LinkSigner(SECRET), BASE, 1.0, h.clock))
    return h


async def test_without_pages_no_message_offers_one(h: Harness) -> None:
    table = await h.started(ANNA, BORIS)
    record = await h.get(table)
    seat = (await h.prompts(table))[0].seat
    assert web_items(h.table_message(table)) == []
    assert web_items(h.dm_prompt(record, seat)) == []


async def test_the_table_message_and_the_prompt_open_the_page_and_a_press_gives_my_link(
        h: Harness) -> None:
    serve_pages(h)
    table = await h.started(ANNA, BORIS)
    record = await h.get(table)
    seat = (await h.prompts(table))[0].seat
    assert len(web_items(h.dm_prompt(record, seat))) == 1
    [token] = web_items(h.table_message(table))
    reply = await h.press(CLARA, token, GROUP)
    assert reply.private is not None and reply.private.note is not None
    text = plain(reply.private.message.text)
    url = text[text.index(BASE):].split()[0]
    assert url.startswith(f"{BASE}/t/{table}?k=")
    grant = LinkSigner(SECRET).check(url.partition("?k=")[2], h.clock())
    assert grant is not None and (grant.user_id, grant.table_id) == (CLARA.id, table)
    # Nothing else happens: no message to the chat, the table unchanged.
    assert reply.out == [] and (await h.get(table)).version == record.version
    sent = [i for i in h.sent if isinstance(i.to, ToUser) and i.to.user_id == CLARA.id]
    assert sent and BASE in plain(sent[-1].message.text)


async def test_a_page_button_pressed_once_pages_are_gone_is_refused(
        h: Harness) -> None:
    serve_pages(h)
    table = await h.started(ANNA, BORIS)
    [token] = web_items(h.table_message(table))
    h.sv.pages = None
    reply = await h.press(ANNA, token, GROUP)
    assert reply.alert and plain(reply.answer) == h.t("web.not_served")
