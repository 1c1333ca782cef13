"""A caption strip under any game's picture (the turn clock, for one), drawn the same
way for every game so that no game's renderer has to know about it."""

from __future__ import annotations

from io import BytesIO

from PIL import Image, ImageDraw

from bot.render.text import fit_text, fitting_font

STRIP = 44
MARGIN = 12
PAPER = (250, 244, 232)
INK = (45, 35, 25)
RULE = (200, 185, 160)


def with_caption(png: bytes, text: str) -> bytes:
    """``png`` with ``text`` on a strip below it (cut to fit the picture's width)."""
    picture = Image.open(BytesIO(png)).convert("RGB")
    out = Image.new("RGB", (picture.width, picture.height + STRIP), PAPER)
    out.paste(picture, (0, 0))
    draw = ImageDraw.Draw(out)
    draw.line([(0, picture.height), (picture.width, picture.height)], fill=RULE, width=2)
    width = picture.width - 2 * MARGIN
    fnt = fitting_font(text, width, 24, bold=True, min_size=14)
    draw.text((MARGIN, picture.height + STRIP / 2), fit_text(text, fnt, width), font=fnt,
              fill=INK, anchor="lm")
    buffer = BytesIO()
    out.save(buffer, format="PNG", optimize=False)
    return buffer.getvalue()
