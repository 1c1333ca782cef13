"""Fonts and text safety shared by every game picture.

The fonts are vendored (DejaVu Sans, see ``fonts/LICENSE``) rather than taken from
the system: a fresh CI machine or container has no fonts, and Pillow's built-in
scalable font has no Cyrillic. Text is laid out with Pillow's BASIC engine so that
the same input gives the same pixels on every machine, whether or not libraqm is
installed; right-to-left runs are put in visual order by a small helper instead.

User-supplied text (player names) can hold anything: emoji, control characters,
bidi overrides, thousands of characters. ``safe_text`` keeps only what the font can
draw and ``fit_text`` shortens it to a width, so drawing a name never fails and never
shows "tofu" boxes.
"""

from __future__ import annotations

import io
import unicodedata
from functools import cache, lru_cache
from importlib import resources

from PIL import Image, ImageDraw, ImageFont

Font = ImageFont.FreeTypeFont

_FONT_FILES = {False: "DejaVuSans.ttf", True: "DejaVuSans-Bold.ttf"}
# Any text longer than this is cut before it is examined: a name is never drawn
# wider than a panel, so the rest could only cost time.
_MAX_INPUT_CHARS = 80
ELLIPSIS = "…"
# A code point in a Private Use plane: no font we ship maps it, so it shows the
# "missing glyph" box that other characters are compared against.
_SURELY_MISSING = "\U000f0000"
# Character categories that are never drawn: controls, format characters (bidi
# overrides, zero-width joiners), surrogates, private use and unassigned points.
_DROPPED_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})
_RTL_CLASSES = frozenset({"R", "AL"})
_MIRRORED = str.maketrans("()[]{}<>«»", ")(][}{><»«")


@cache
def _font_bytes(bold: bool) -> bytes:
    """The TTF file's bytes, read once from the package (works from a wheel or zip)."""
    return (resources.files("bot.render") / "fonts" / _FONT_FILES[bold]).read_bytes()


@cache
def font(size: int, bold: bool = False) -> Font:
    """DejaVu Sans at ``size`` pixels; one object per (size, weight) for the process."""
    return ImageFont.truetype(
        io.BytesIO(_font_bytes(bold)), size, layout_engine=ImageFont.Layout.BASIC
    )


def _glyph_pixels(ch: str, bold: bool) -> bytes:
    """How ``ch`` looks at a small fixed size, to compare against the missing glyph."""
    im = Image.new("L", (24, 24))
    ImageDraw.Draw(im).text((2, 2), ch, font=font(16, bold), fill=255)
    return im.tobytes()


@cache
def _missing_pixels(bold: bool) -> bytes:
    return _glyph_pixels(_SURELY_MISSING, bold)


@lru_cache(maxsize=4096)
def drawable(ch: str) -> bool:
    """Can the regular and bold fonts draw ``ch`` (not as the missing-glyph box)?

    Pillow has no public "has glyph" query, so the character is drawn once and
    compared with a character that is certainly missing; the answer is cached.
    """
    if unicodedata.category(ch) in _DROPPED_CATEGORIES:
        return False
    if ch == " ":
        return True
    # Both weights must have it: a name may be drawn in either.
    return all(_glyph_pixels(ch, bold) != _missing_pixels(bold) for bold in (False, True))


def safe_text(text: str) -> str:
    """``text`` with only drawable characters, whitespace collapsed to single spaces."""
    out: list[str] = []
    for ch in text[:_MAX_INPUT_CHARS]:
        if ch.isspace():
            if out and out[-1] != " ":
                out.append(" ")
        elif drawable(ch):
            out.append(ch)
    return "".join(out).strip()


def _is_rtl(ch: str) -> bool:
    return unicodedata.bidirectional(ch) in _RTL_CLASSES


def visual_order(text: str) -> str:
    """A simple stand-in for the Unicode bidi algorithm, enough for names.

    Runs of right-to-left letters (with the spaces and marks between them) are
    reversed and their brackets mirrored; if the text starts with a right-to-left
    letter the order of the runs is reversed too. Left-to-right text is unchanged.
    """
    if not any(_is_rtl(ch) for ch in text):
        return text
    runs: list[tuple[bool, str]] = []
    pending_neutral = ""
    for ch in text:
        cls = unicodedata.bidirectional(ch)
        if cls in _RTL_CLASSES:
            rtl = True
        elif cls == "L" or cls in ("EN", "AN"):
            rtl = False
        else:
            # Neutrals (spaces, punctuation, marks) join whichever run they sit inside.
            pending_neutral += ch
            continue
        if runs and runs[-1][0] == rtl:
            runs[-1] = (rtl, runs[-1][1] + pending_neutral + ch)
        else:
            if runs:
                runs[-1] = (runs[-1][0], runs[-1][1] + pending_neutral)
            elif pending_neutral:
                runs.append((False, pending_neutral))
            runs.append((rtl, ch))
        pending_neutral = ""
    if pending_neutral:
        runs.append((False, pending_neutral))
    pieces = [s[::-1].translate(_MIRRORED) if rtl else s for rtl, s in runs]
    first_strong_rtl = next((rtl for rtl, s in runs if s.strip()), False)
    if first_strong_rtl:
        pieces.reverse()
    return "".join(pieces)


def fit_text(text: str, fnt: Font, max_width: float) -> str:
    """``text`` made safe, cut with an ellipsis to ``max_width`` pixels, in visual order."""
    clean = safe_text(text)
    if fnt.getlength(clean) <= max_width:
        return visual_order(clean)
    # Cut by logical order (the start of a name matters most in any script).
    lo, hi = 0, len(clean)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if fnt.getlength(clean[:mid].rstrip() + ELLIPSIS) <= max_width:
            lo = mid
        else:
            hi = mid - 1
    return visual_order(clean[:lo].rstrip() + ELLIPSIS)


def fitting_font(text: str, max_width: float, size: int, bold: bool = False,
                 min_size: int = 12) -> Font:
    """The largest font from ``size`` down to ``min_size`` that fits ``text``."""
    for s in range(size, min_size - 1, -1):
        f = font(s, bold)
        if f.getlength(text) <= max_width:
            return f
    return font(min_size, bold)
