"""Outgoing messages as JSON and back: the one place that knows a message's fields.

The outbox stores every queued item as the JSON ``encode`` writes; digests of what a
message shows (``content_digest``, ``shown_digest``) are taken over the same form, so
a change to ``bot.ui.message.Message`` is answered here alone.

Text travels as the markup tree (``bot.ui.markup``): a literal is a JSON string, a node
with children a list — ``["br"]``, ``["b", style, children]`` (a span),
``["a", url, children]``, ``["@", user_id, children]``, ``["/", name, children, lang]``
(a command). Choices travel as their block.

Bodies queued by earlier versions (catalog HTML in ``text``, button rows in
``buttons``) still decode: the HTML is parsed into a tree, the rows become a block.
"""

from __future__ import annotations

import base64
import hashlib
import json
from dataclasses import fields
from typing import Any

from bot.ui.choices import Choice, ChoiceBlock, Group
from bot.ui.markup import Break, Command, Link, Mention, Node, Rich, Span, Text
from bot.ui.message import Message, Outgoing, Picture, ToChat, ToUser

JSONNode = str | list[Any]


def node_json(node: Node) -> JSONNode:
    """One tree node as JSON."""
    if isinstance(node, Text):
        return node.text
    if isinstance(node, Break):
        return ["br"]
    if isinstance(node, Span):
        return ["b", node.style, [node_json(n) for n in node.children]]
    if isinstance(node, Link):
        return ["a", node.url, [node_json(n) for n in node.children]]
    if isinstance(node, Command):
        return ["/", node.name, [node_json(n) for n in node.children], node.lang]
    return ["@", node.user_id, [node_json(n) for n in node.children]]


def json_node(raw: JSONNode) -> Node:
    """Back from ``node_json``."""
    if isinstance(raw, str):
        return Text(raw)
    kind = raw[0]
    if kind == "br":
        return Break()
    children = tuple(json_node(n) for n in raw[2])
    if kind == "b":
        return Span(raw[1], children)
    if kind == "a":
        return Link(raw[1], children)
    if kind == "@":
        return Mention(raw[1], children)
    if kind == "/":
        return Command(raw[1], raw[3], children)
    raise ValueError(f"unknown markup node {kind!r}")


def rich_json(text: Rich) -> list[JSONNode]:
    """A whole text as JSON."""
    return [node_json(n) for n in text.nodes]


def _row(item: Choice | Group) -> list[Any]:
    """Every field of a choice or group, in declaration order: a field added later is
    carried without touching the codec (a narrow row's short label and a group's fold
    were once lost on the way through the outbox, so queued table messages lost their
    narrow rows). A body stored before a field existed has a shorter row, and the
    field's default fills in."""
    return [getattr(item, f.name) for f in fields(item)]


def choices_json(block: ChoiceBlock | None) -> dict[str, Any] | None:
    """A choice block as JSON (None without one)."""
    if block is None:
        return None
    return {"choices": [_row(c) for c in block.choices],
            "groups": [_row(g) for g in block.groups],
            "prompt": block.prompt, "page": block.page, "pager": block.pager}


def json_choices(raw: dict[str, Any] | None) -> ChoiceBlock | None:
    """Back from ``choices_json``."""
    if not raw:
        return None
    return ChoiceBlock(tuple(Choice(*row) for row in raw["choices"]),
                       groups=tuple(Group(*row) for row in raw["groups"]),
                       prompt=raw.get("prompt"), page=int(raw.get("page") or 0),
                       pager=raw.get("pager"))


def message_json(message: Message) -> dict[str, Any]:
    """What a message shows, without its picture and delivery fields."""
    return {"rich": rich_json(message.text), "choices": choices_json(message.choices)}


def encode(item: Outgoing) -> str:
    """An outgoing message as JSON (pictures base64)."""
    m = item.message
    to = {"chat": item.to.chat_id} if isinstance(item.to, ToChat) else {"user": item.to.user_id}
    return json.dumps({
        "to": to,
        "table": item.table,
        **message_json(m),
        "picture": base64.b64encode(m.picture.png).decode() if m.picture else None,
        "picture_name": m.picture.name if m.picture else None,
        "slot": m.slot,
        "renew": m.renew,
        "final": m.final,
        "version": item.version,
        "key": item.key,
        "asked": item.asked,
    }, ensure_ascii=False)


def decode(body: str) -> Outgoing:
    """Back from ``encode`` (or from an earlier version's body: see the module)."""
    raw: dict[str, Any] = json.loads(body)
    to: ToChat | ToUser = (
        ToChat(raw["to"]["chat"]) if "chat" in raw["to"] else ToUser(raw["to"]["user"])
    )
    picture = None
    if raw.get("picture"):
        picture = Picture(png=base64.b64decode(raw["picture"]),
                          name=raw.get("picture_name") or "board.png")
    if "rich" in raw:
        text: Rich | str = Rich(tuple(json_node(n) for n in raw["rich"]))
        choices = json_choices(raw.get("choices"))
    else:  # queued before the markup tree: catalog HTML and button rows
        text = str(raw.get("text") or "")
        rows = raw.get("buttons") or []
        choices = ChoiceBlock(tuple(Choice(label, token) for row in rows
                                    for label, token in row)) if rows else None
    message = Message(text, choices, picture=picture, slot=raw.get("slot"),
                      renew=bool(raw.get("renew")), final=bool(raw.get("final")))
    return Outgoing(to=to, message=message, table=raw.get("table"),
                    version=int(raw.get("version") or 0), key=raw.get("key"),
                    asked=bool(raw.get("asked")))


def destination(item: Outgoing) -> str:
    """The Campfire id of the chat the item goes to (a user's private chat is theirs)."""
    return item.to.chat_id if isinstance(item.to, ToChat) else item.to.user_id


def canonical_bytes(message: Message) -> bytes:
    """What a message shows (text and choices) as canonical JSON: the input of both
    digests. Taken once per message (``Message.derived``): a message is digested at
    queueing, at delivery and at acknowledgement."""
    cached = message.derived.get("canonical")
    if cached is None:
        cached = json.dumps(message_json(message), ensure_ascii=False, sort_keys=True)
        message.derived["canonical"] = cached
    return cached.encode("utf-8", "surrogatepass")


def shown_digest(message: Message) -> str:
    """A short digest of a message's text and choices: an edit that would leave both as
    they are is skipped."""
    return hashlib.sha1(canonical_bytes(message)).hexdigest()[:16]


def picture_digest(message: Message) -> str | None:
    """A digest of the message's picture (None without one)."""
    return hashlib.sha1(message.picture.png).hexdigest() if message.picture else None


def content_digest(message: Message) -> str:
    """A short digest of everything a message shows: text, choices and picture."""
    digest = hashlib.blake2s(digest_size=8)
    digest.update(canonical_bytes(message))
    if message.picture is not None:
        digest.update(b"\1" + message.picture.png)
    return digest.hexdigest()
