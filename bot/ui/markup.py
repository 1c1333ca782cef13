"""The markup tree: message text as structure, rendered and escaped by each platform.

The core speaks in a small tree rather than in any platform's markup language, so no
adapter ever receives raw HTML (or Markdown) it would have to trust:

- ``Text(text)``      literal characters (never containing a line break)
- ``Break()``         a line break
- ``Span(style, children)`` with ``style`` one of ``bold``, ``italic``, ``underline``,
  ``strike``, ``code``, ``pre``
- ``Link(url, children)``  a hyperlink (its children are what it says)
- ``Mention(user_id, children)``  a reference to a platform user (Campfire user id,
  e.g. ``tg:123`` / ``dc:456``); a platform that cannot mention renders its children
- ``Command(name, lang, children)``  a command as its reader types it: ``name`` is the
  command schema's canonical name, ``lang`` the language of the text around it; its
  children (``/name``) are how a platform without a spelling of its own shows it

A whole text is a ``Rich`` (a tuple of nodes). The catalog (``bot.i18n``) still writes
its texts in a tiny HTML subset (``<b>``, ``<i>``, ``<u>``, ``<s>``, ``<code>``,
``<pre>``, ``<a href="…">``, ``<cmd lang="…">name</cmd>`` and entities); ``rich()``
parses that into the tree at the boundary: ``bot.ui.message.Message`` and
``bot.ui.message.Reply`` convert any string they are given.

Rendering is each platform's: an adapter gives ``walk`` how to escape literal text and
how to wrap a styled, linked, mentioning or command node (a command as its users type
it: Discord's ``/table vote``, the console's Russian ``/голос``) (Telegram's HTML in
``adapters.telegram.render``, Discord's Markdown in ``adapters.discord.render``). Only
``render_plain`` — plain text for button labels, alerts and the console — lives here.

``fit_rich`` shortens a text to a length budget by whole lines, keeping the first two
lines (a table's header and scores) as long as possible: every line stays well formed
because cutting happens on the tree, not on rendered characters.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

Style = Literal["bold", "italic", "underline", "strike", "code", "pre"]


@dataclass(frozen=True, slots=True)
class Text:
    """Literal characters (no line breaks: those are ``Break``)."""

    text: str


@dataclass(frozen=True, slots=True)
class Break:
    """A line break."""


@dataclass(frozen=True, slots=True)
class Span:
    """Styled children."""

    style: Style
    children: tuple[Node, ...]


@dataclass(frozen=True, slots=True)
class Link:
    """A hyperlink showing its children."""

    url: str
    children: tuple[Node, ...]


@dataclass(frozen=True, slots=True)
class Mention:
    """A platform user referred to (``user_id`` is a Campfire user id)."""

    user_id: str
    children: tuple[Node, ...]


@dataclass(frozen=True, slots=True)
class Command:
    """A command as its reader types it (``name``: the command schema's canonical name;
    ``lang``: the language of the text around it). Its children say it as a platform
    without a spelling of its own shows it: ``/name``."""

    name: str
    lang: str
    children: tuple[Node, ...]


Node = Text | Break | Span | Link | Mention | Command


@dataclass(frozen=True, slots=True)
class Rich:
    """A whole message text: nodes in reading order."""

    nodes: tuple[Node, ...] = ()

    def __bool__(self) -> bool:
        """Empty text is falsy, like an empty string."""
        return bool(self.nodes)

    def plain(self) -> str:
        """The text without formatting."""
        return render_plain(self)

    def lines(self) -> list[Rich]:
        """The text split at its top-level line breaks."""
        out: list[list[Node]] = [[]]
        for node in self.nodes:
            if isinstance(node, Break):
                out.append([])
            else:
                out[-1].append(node)
        return [Rich(tuple(line)) for line in out]

    @staticmethod
    def join_lines(lines: Iterable[Rich]) -> Rich:
        """Lines joined with line breaks."""
        nodes: list[Node] = []
        for i, line in enumerate(lines):
            if i:
                nodes.append(Break())
            nodes.extend(line.nodes)
        return Rich(tuple(nodes))


# --- building ------------------------------------------------------------------------


def text(value: str) -> Rich:
    """Literal text (line breaks become ``Break`` nodes)."""
    return Rich(tuple(_literal(value)))


def _literal(value: str) -> Iterator[Node]:
    for i, part in enumerate(value.split("\n")):
        if i:
            yield Break()
        if part:
            yield Text(part)


_STYLES: dict[str, Style] = {
    "b": "bold", "strong": "bold", "i": "italic", "em": "italic", "u": "underline",
    "ins": "underline", "s": "strike", "del": "strike", "code": "code", "pre": "pre",
}
_TOKEN = re.compile(r"<(/?)([a-z]+)((?:\s+[a-z-]+=\"[^\"]*\")*)\s*>")
_HREF = re.compile(r"href=\"([^\"]*)\"")
_LANG = re.compile(r"lang=\"([^\"]*)\"")
#: A command in catalog markup, and what it reads as in plain text (``to_plain``).
COMMAND = re.compile(r"<cmd(?:\s+lang=\"[^\"]*\")?>([a-z]+)</cmd>")


@lru_cache(maxsize=4096)
def rich(source: str) -> Rich:
    """The catalog's HTML subset parsed into a tree.

    Known tags become nodes; an unknown or unbalanced tag is kept as literal text (the
    catalog escapes ``<`` where it means the character, so this only guards mistakes).
    """
    stack: list[tuple[str, str, list[Node]]] = [("", "", [])]
    pos = 0
    for match in _TOKEN.finditer(source):
        closing, name, attrs = match.group(1), match.group(2), match.group(3)
        known = name in _STYLES or name in ("a", "cmd")
        opened = [frame[0] for frame in stack]
        if not known or (closing and name not in opened):
            continue  # left as literal text between the tokens around it
        stack[-1][2].extend(_literal(html.unescape(source[pos:match.start()])))
        pos = match.end()
        if not closing:
            found = (_LANG if name == "cmd" else _HREF).search(attrs)
            stack.append((name, html.unescape(found.group(1)) if found else "", []))
            continue
        while stack[-1][0] != name:  # close what was left open inside it
            _close(stack)
        _close(stack)
    stack[-1][2].extend(_literal(html.unescape(source[pos:])))
    while len(stack) > 1:
        _close(stack)
    return Rich(tuple(_merge(stack[0][2])))


def rich_lines(lines: Iterable[str]) -> Rich:
    """Lines of catalog markup parsed one by one and joined with breaks: the tree
    ``rich`` gives for them joined, as long as no tag spans two lines (a catalog entry
    closes what it opens). Each line is parsed once and remembered, so a message that
    repeats most of the one before (a table's header, scores and recent events) costs
    only its new lines."""
    return Rich.join_lines(rich(line) for line in lines)


def _close(stack: list[tuple[str, str, list[Node]]]) -> None:
    name, attr, children = stack.pop()
    kids = tuple(_merge(children))
    node: Node
    if name == "cmd":
        command = render_plain(Rich(kids)).strip()
        node = Command(command, attr, (Text(f"/{command}"),))
    elif name == "a":
        node = Link(attr, kids)
    else:
        node = Span(_STYLES[name], kids)
    stack[-1][2].append(node)


def _merge(nodes: list[Node]) -> Iterator[Node]:
    """Adjacent text nodes as one."""
    pending = ""
    for node in nodes:
        if isinstance(node, Text):
            pending += node.text
            continue
        if pending:
            yield Text(pending)
            pending = ""
        yield node
    if pending:
        yield Text(pending)


def as_rich(value: Rich | str) -> Rich:
    """A tree from either a tree or catalog markup (a ``str``)."""
    return value if isinstance(value, Rich) else rich(str(value))


# --- rendering -----------------------------------------------------------------------


def walk(nodes: tuple[Node, ...], leaf: Callable[[str], str],
         wrap: Callable[[Node, str], str]) -> str:
    """The nodes rendered: ``leaf`` escapes literal text, ``wrap`` puts a styled, linked,
    mentioning or command node around its rendered children, or says it its own way (a
    platform's renderer is these two)."""
    parts = []
    for node in nodes:
        if isinstance(node, Text):
            parts.append(leaf(node.text))
        elif isinstance(node, Break):
            parts.append("\n")
        else:
            parts.append(wrap(node, walk(node.children, leaf, wrap)))
    return "".join(parts)


def render_plain(value: Rich, spell: Callable[[Command], str] | None = None) -> str:
    """Plain text: formatting dropped, link targets shown after their words when they
    differ; a command as ``spell`` says it (a platform's own spelling), else ``/name``."""
    def wrap(node: Node, inner: str) -> str:
        if isinstance(node, Link) and node.url and node.url != inner:
            return f"{inner} ({node.url})" if inner else node.url
        if isinstance(node, Command) and spell is not None:
            return spell(node)
        return inner
    return walk(value.nodes, lambda s: s, wrap)


def length(value: Rich, render: Callable[[Rich], str]) -> int:
    """Characters ``value`` takes once rendered."""
    return len(render(value))


def fit_rich(value: Rich, limit: int, render: Callable[[Rich], str]) -> Rich:
    """``value`` within ``limit`` rendered characters: whole lines dropped first (the
    oldest after the first two, which go last), then the last line left cut as plain
    text ending in ``…``."""
    if len(render(value)) <= limit:
        return value
    lines = value.lines()
    while len(lines) > 2 and len(render(Rich.join_lines(lines))) > limit:
        del lines[2 if len(lines) > 3 else 1]
    joined = Rich.join_lines(lines)
    if len(render(joined)) <= limit:
        return joined
    plain = render_plain(joined)
    cut = max(0, limit - 1)
    while cut > 0 and len(render(text(plain[:cut] + "…"))) > limit:
        cut -= max(1, len(render(text(plain[:cut] + "…"))) - limit)
    return text(plain[:cut] + "…")
