"""A core ``Message`` as what discord.py sends: content or embed, picture, components.

Text comes as the core's markup tree and is rendered as Discord markdown
(``render_markdown``: every markdown character of a name escaped, mentions
as ``<@id>``); up to 2000 characters it is the content, a longer text (a rules topic)
goes in an embed's description (4096), cut by whole lines. Choices are laid out by the
core's ``bot.ui.layout`` from Discord's capabilities (``DISCORD``: five rows of five buttons, select
menus of 25) and become ``TokenButton``s and ``TokenSelect``s.
"""

from __future__ import annotations

import hashlib
import io
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import discord

from adapters.discord.commands import typed
from adapters.discord.components import TokenButton, TokenSelect
from adapters.discord.ids import parse_id
from bot.i18n import normalize_lang
from bot.ui.choices import ChoiceBlock
from bot.ui.layout import ButtonRow, Capabilities, lay_out
from bot.ui.markup import (
    Command,
    Link,
    Mention,
    Node,
    Rich,
    Span,
    Style,
    fit_rich,
    render_plain,
    walk,
)
from bot.ui.message import Message

CONTENT_LIMIT = 2000
EMBED_LIMIT = 4096
STYLES = {"option": discord.ButtonStyle.secondary, "back": discord.ButtonStyle.secondary,
          "confirm": discord.ButtonStyle.danger, "action": discord.ButtonStyle.primary}
# Five action rows of five buttons (80-character labels), or select menus of 25 options
# (100-character labels), custom ids of up to 100 characters.
DISCORD = Capabilities(per_row=5, max_rows=5, max_buttons=25, label_chars=80,
                       token_bytes=100, select_options=25, select_label_chars=100)

# What Discord would read as Markdown (lists, quotes and headings only at a line's start,
# but escaping them anywhere is harmless).
_MD_SPECIAL = re.compile(r"([\\*_~`|>\[\]<#-])")
_MD_MARKS: dict[Style, tuple[str, str]] = {
    "bold": ("**", "**"), "italic": ("_", "_"), "underline": ("__", "__"),
    "strike": ("~~", "~~"), "code": ("`", "`"), "pre": ("```\n", "\n```"),
}


def _md_escape(value: str) -> str:
    return _MD_SPECIAL.sub(r"\\\1", value)


def render_markdown(value: Rich, mention: Callable[[str], str | None] = lambda _: None,
                    ) -> str:
    """Discord's Markdown: Markdown characters escaped with backslashes (inside code,
    where escapes do not work, backticks are replaced by a look-alike); ``mention`` maps a
    Campfire user id to a platform mention (``<@123>``) or None to show the name; a
    command reads as Discord's slash command (``/table vote``, ``/стол голос``)."""
    def code_text(node: Node) -> str:
        return render_plain(Rich((node,))).replace("`", "ˋ")

    def wrap(node: Node, inner: str) -> str:
        if isinstance(node, Span):
            start, end = _MD_MARKS[node.style]
            if node.style in ("code", "pre"):
                return f"{start}{code_text(node)}{end}"
            return f"{start}{inner}{end}" if inner else ""
        if isinstance(node, Link):
            return f"[{inner}](<{node.url}>)" if inner else f"<{node.url}>"
        if isinstance(node, Mention):
            return mention(node.user_id) or inner
        if isinstance(node, Command):
            return _md_escape(typed(node.name, normalize_lang(node.lang, default="en")))
        return inner
    return walk(value.nodes, _md_escape, wrap)


def mention(user_id: str) -> str | None:
    """A Campfire user id as a Discord mention (None for another platform's user)."""
    found = parse_id(user_id)
    return f"<@{found}>" if found is not None else None


def markdown(text: Rich) -> str:
    """The tree as Discord markdown."""
    return render_markdown(text, mention)


def build_view(block: ChoiceBlock | None) -> discord.ui.View | None:
    """A view without a timeout (its items are dynamic: they work after a restart) for
    the block, or None when there is nothing to choose."""
    if block is None or not block.choices:
        return None
    layout = lay_out(block, DISCORD)
    view = discord.ui.View(timeout=None)
    table = _table_of(block)
    for index, row in enumerate(layout.rows):
        if isinstance(row, ButtonRow):
            for choice in row.buttons:
                button = TokenButton(choice.token, choice.label or "\u200b",
                                     STYLES.get(choice.kind, discord.ButtonStyle.secondary))
                button.item.row = index
                view.add_item(button)
            continue
        options = [discord.SelectOption(label=c.label or "?", value=c.token)
                   for c in row.options]
        select = TokenSelect(index, table, options, placeholder=row.placeholder)
        select.item.row = index
        view.add_item(select)
    return view


def _table_of(block: ChoiceBlock) -> str:
    parts = block.choices[0].token.split(".")
    return parts[1] if len(parts) > 2 and parts[1].isalnum() else ""


@dataclass(frozen=True, slots=True)
class Rendered:
    """Keyword arguments for ``send``/``edit``, and a digest to skip edits that change
    nothing."""

    content: str | None
    embed: discord.Embed | None
    view: discord.ui.View | None
    picture: tuple[bytes, str] | None
    digest: str

    def file(self) -> discord.File | None:
        """A fresh file object for the picture (discord.py consumes files when sending)."""
        if self.picture is None:
            return None
        return discord.File(io.BytesIO(self.picture[0]), filename=self.picture[1])

    def send_kwargs(self) -> dict[str, Any]:
        """For ``Messageable.send`` and interaction responses."""
        out: dict[str, Any] = {"content": self.content}
        if self.embed is not None:
            out["embed"] = self.embed
        if self.view is not None:
            out["view"] = self.view
        file = self.file()
        if file is not None:
            out["file"] = file
        return out

    def edit_kwargs(self) -> dict[str, Any]:
        """For ``Message.edit``: everything replaced, buttons removed when there are none."""
        file = self.file()
        return {"content": self.content, "embed": self.embed, "view": self.view,
                "attachments": [file] if file is not None else []}


def render(message: Message) -> Rendered:
    """What Discord is sent for ``message`` (see the module)."""
    text = markdown(message.text)
    content: str | None = text or "\u200b"
    embed = None
    if len(text) > CONTENT_LIMIT:
        content = None
        embed = discord.Embed(description=markdown(fit_rich(message.text, EMBED_LIMIT,
                                                             markdown)))
    block = message.choices
    view = build_view(block)
    picture = (message.picture.png, message.picture.name) if message.picture else None
    h = hashlib.sha256(text.encode())
    for choice in block.choices if block else ():
        h.update(f"\x00{choice.label}\x01{choice.token}".encode())
    if block is not None:
        h.update(f"\x02{block.page}".encode())
    if picture is not None:
        h.update(hashlib.sha256(picture[0]).digest())
    return Rendered(content, embed, view, picture, h.hexdigest()[:16])
