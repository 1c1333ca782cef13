"""The number of a place's buttons, drawn under the place, and its tap target.

A picture shown with a prompt that offers places (see ``focus``) gives every place of
the board and of the card row a band ``MARK_BAND`` pixels high beneath it; an offered
place is framed and its buttons' numbers stand in a badge in its band, so the mark
covers nothing of the place (the workers, the capacity, the card's effects). The
place with its band is the options' tap target.
"""

from __future__ import annotations

from bot.games.stone_age.picture.style import MARK, MARK_BG
from bot.render.palette import Box, Draw
from bot.render.targets import Target, numbers_text, target
from bot.render.text import font

MARK_BAND = 34  # the band under each place for its badge, while places are offered
BADGE_H = 28
BADGE_TEXT = 22


def mark_place(d: Draw, box: Box, numbers: tuple[int, ...]) -> Target:
    """Frame the place drawn in ``box`` and write ``numbers`` in a badge in the band
    under it; the target: the place and its band."""
    x0, y0, x1, y1 = box
    d.rounded_rectangle(box, radius=10, outline=MARK, width=4)
    text = numbers_text(numbers)
    fnt = font(BADGE_TEXT, True)
    w = min(x1 - x0, max(fnt.getlength(text) + 20, BADGE_H + 12))
    cx, cy = (x0 + x1) / 2, y1 + MARK_BAND / 2
    d.rounded_rectangle((cx - w / 2, cy - BADGE_H / 2, cx + w / 2, cy + BADGE_H / 2),
                        radius=BADGE_H / 2, fill=MARK_BG, outline=MARK, width=3)
    d.text((cx, cy), text, font=fnt, fill=MARK, anchor="mm")
    return target(numbers, (x0, y0, x1, y1 + MARK_BAND))
