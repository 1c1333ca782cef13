"""Messages as the outbox stores them (adapters/delivery/codec.py)."""

from __future__ import annotations

import json
from dataclasses import replace

from adapters.delivery.codec import (
    content_digest,
    decode,
    destination,
    encode,
    shown_digest,
)
from bot.ui.choices import Choice, ChoiceBlock, Group
from bot.ui.message import Button, Message, Outgoing, Picture, ToChat, ToUser, block


def test_everything_a_message_says_survives_the_round_trip() -> None:
    """Markup tree (styles, links, mentions, commands, breaks), choices with their marks,
    short labels and folding groups, and page, picture, slot, renew, final and the
    delivery fields."""
    choices = ChoiceBlock((Choice("Wood: 3 people", "t.1", group="res", mark=7, short="🪵3"),
                           Choice("Back", "t.b", "back")),
                          groups=(Group("res", "Resources", fold=True),), prompt="t1:4:0:ab",
                          page=1, pager="t.p")
    item = Outgoing(ToUser("tg:42"),
                    Message('<b>Anna</b> &amp; <a href="https://x.y/?a=1&amp;b=2">co</a>\n'
                            "<i>next</i> <code>&lt;1&gt;</code> "
                            '<cmd lang="ru">vote</cmd>', choices,
                            picture=Picture(b"\x89PNG\x00", "map.png"), slot="dm:t1",
                            renew=True, final=True),
                    table="t1", version=4, key="turn", asked=True)
    assert decode(encode(item)) == item


def test_a_body_queued_before_marks_short_labels_and_folds_still_decodes() -> None:
    """Choices as four fields and groups as two, as bodies were stored before."""
    item = Outgoing(ToChat("tg:-1"), Message("x", ChoiceBlock(
        (Choice("Wood", "t.1", group="res"),), groups=(Group("res", "Resources"),))))
    body = json.loads(encode(item))
    body["choices"]["choices"] = [["Wood", "t.1", "option", "res"]]
    body["choices"]["groups"] = [["res", "Resources"]]
    assert decode(json.dumps(body)) == item


def test_a_body_queued_before_the_markup_tree_still_decodes() -> None:
    """Catalog HTML and button rows, as earlier versions stored them."""
    old = json.dumps({"to": {"chat": "tg:-1"}, "table": "t1", "text": "<b>Hi</b> &amp; bye",
                      "buttons": [[["A", "t.a"], ["B", "t.b"]], [["C", "t.c"]]],
                      "picture": None, "picture_name": None, "slot": "table", "renew": False,
                      "version": 3, "key": None})
    item = decode(old)
    assert item.message == Message("<b>Hi</b> &amp; bye", ChoiceBlock(
        (Choice("A", "t.a"), Choice("B", "t.b"), Choice("C", "t.c"))), slot="table")
    assert (item.to, item.table, item.version) == (ToChat("tg:-1"), "t1", 3)
    assert item.message.text.plain() == "Hi & bye"


def test_digests_see_what_is_shown() -> None:
    plain = Message("hello")
    assert shown_digest(plain) == shown_digest(Message("hello"))
    assert shown_digest(plain) != shown_digest(Message("<b>hello</b>"))
    assert shown_digest(plain) != shown_digest(Message("hello", ChoiceBlock((Choice("x", "t"),))))
    pictured = Message("hello", picture=Picture(b"png", "p.png"))
    assert shown_digest(pictured) == shown_digest(plain)  # the picture has its own digest
    assert content_digest(pictured) != content_digest(plain)
    assert content_digest(Message("hello", slot="a")) == content_digest(plain)


def test_a_users_private_chat_is_theirs() -> None:
    assert destination(Outgoing(ToUser("dc:7"), Message("x"))) == "dc:7"
    assert destination(Outgoing(ToChat("dc:9"), Message("x"))) == "dc:9"


def test_digests_are_the_same_whether_memoised_or_fresh() -> None:
    """The canonical form is taken once per message; a copy or a decoded twin digests
    alike, and a different text does not."""
    message = Message("<b>Round 2</b>\nAnna: 3", block([Button("Go", "g:1")]), slot="table")
    first = (shown_digest(message), content_digest(message))
    assert "canonical" in message.derived
    assert (shown_digest(message), content_digest(message)) == first
    twin = decode(encode(Outgoing(ToChat("tg:-1"), message))).message
    assert twin.derived == {} and (shown_digest(twin), content_digest(twin)) == first
    other = replace(message, text=Message("<b>Round 3</b>").text)
    assert other.derived == {} and shown_digest(other) != first[0]
