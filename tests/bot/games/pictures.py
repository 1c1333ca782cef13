"""Helpers shared by the games' picture tests."""

from __future__ import annotations

import io

from PIL import Image

from bot.render.targets import Drawn


def decoded_png(data: bytes) -> Image.Image:
    """``data`` as a PNG image, decoded in full: a truncated PNG fails here."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    im = Image.open(io.BytesIO(data))
    im.load()
    return im


def decoded(drawn: Drawn) -> Image.Image:
    """A finished picture's PNG, decoded in full, checked to be the size it claims."""
    im = decoded_png(drawn.png)
    assert im.size == (drawn.width, drawn.height)
    return im
