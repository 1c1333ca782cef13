"""A core ``Message`` as what discord.py sends: content or embed, picture, components."""

from __future__ import annotations

import hashlib
import io
from dataclasses import dataclass
from typing import Any

import discord

from adapters.discord.layout import build_view
from adapters.discord.markup import to_markdown
from bot.ui import Message

CONTENT_LIMIT = 2000
EMBED_LIMIT = 4096


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


def render(message: Message, placeholder: str = "…") -> Rendered:
    """What Discord is sent for ``message``: text up to 2000 characters as content,
    longer text as an embed's description (4096)."""
    text = to_markdown(message.text)
    content: str | None = text
    embed = None
    if len(text) > CONTENT_LIMIT:
        content = None
        cut = text if len(text) <= EMBED_LIMIT else text[: EMBED_LIMIT - 1] + "…"
        embed = discord.Embed(description=cut)
    view = build_view(message.buttons, placeholder)
    picture = (message.picture.png, message.picture.name) if message.picture else None
    h = hashlib.sha256(text.encode())
    for row in message.buttons:
        for b in row:
            h.update(f"\x00{b.label}\x01{b.token}".encode())
    if picture is not None:
        h.update(hashlib.sha256(picture[0]).digest())
    return Rendered(content, embed, view, picture, h.hexdigest()[:16])
