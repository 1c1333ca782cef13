"""The drawing surface of one Caverna picture, and the record of what was drawn.

Every text goes through :class:`Canvas` so that it is made safe (``bot.render.text``),
cut or wrapped to its room, and never drawn below ``MIN_TEXT`` pixels. A name wrapped
into its box (``Canvas.wrapped``, laid out by :func:`fit_label`) breaks at spaces, after
hyphens and, for a word wider than the box, at the syllables ``hyphens.yaml`` lists;
only a name that still does not fit is cut, and the record says so. The canvas keeps a
:class:`Record` — the tile kinds, animals and furnishings drawn, the marks of the
open prompt and where its places are, the names that had to be cut, where the things
on home-board squares were drawn, the score sheet and the smallest letters used — so
tests can check what a picture shows without comparing pixels, and the picture hands
its places on as tap targets.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from importlib import resources

from PIL import Image, ImageDraw

from bot.games.caverna.picture.style import INK, MIN_TEXT, RGB, TITLE_H, Box
from bot.render.targets import Target
from bot.render.text import Font, fit_text, font, safe_text, visual_order
from engine.core.data import load_yaml

BREAK = "·"  # a place a word may be broken, in hyphens.yaml


@dataclass(slots=True)
class Record:
    """What one picture shows, for tests and the bench."""

    tiles: set[str] = field(default_factory=set)  # landscape tile kinds on home boards
    animals: set[str] = field(default_factory=set)  # animal kinds drawn with a count
    goods: set[str] = field(default_factory=set)  # goods drawn with a count
    housed: set[str] = field(default_factory=set)  # animals shown on home-board squares
    furnishings: set[str] = field(default_factory=set)  # furnishing ids named on boards
    stables: int = 0
    crops: set[str] = field(default_factory=set)
    boards: list[int] = field(default_factory=list)  # seats whose home board is drawn
    mini_boards: list[int] = field(default_factory=list)
    spaces: set[str] = field(default_factory=set)  # action spaces drawn
    supply: set[str] = field(default_factory=set)  # furnishing tiles in the supply panel
    marks: dict[str, int] = field(default_factory=dict)  # what a prompt's mark n points at
    targets: list[Target] = field(default_factory=list)  # the marked places, in pixels
    cut: list[str] = field(default_factory=list)  # names that did not fit their box whole
    # What was drawn on a home-board square, by square: ("bonus" or "kept", its box).
    on_squares: dict[tuple[int, int], list[tuple[str, tuple[float, float, float, float]]]] = \
        field(default_factory=dict)
    sheet: dict[int, dict[str, int]] = field(default_factory=dict)  # score sheet, by seat
    score_now: dict[str, int] = field(default_factory=dict)  # the running total spelt out
    sections: list[str] = field(default_factory=list)
    min_text: int = 10**6  # the smallest font size used, in pixels


class Canvas:
    """An image with a drawing context and the record of what went on it."""

    def __init__(self, image: Image.Image) -> None:
        self.image = image
        self.draw = ImageDraw.Draw(image)
        self.drawn = Record()

    def font(self, size: int, bold: bool = False) -> Font:
        """The page font at ``size`` pixels (never below ``MIN_TEXT``), noted as used."""
        size = max(MIN_TEXT, size)
        self.drawn.min_text = min(self.drawn.min_text, size)
        return font(size, bold)

    def text(self, xy: tuple[float, float], text: str, size: int, fill: RGB,
             bold: bool = False, anchor: str = "la", width: float | None = None) -> float:
        """Write one line (cut with an ellipsis to ``width`` if given); its width."""
        fnt = self.font(size, bold)
        shown = fit_text(text, fnt, width) if width is not None else visual_order(
            safe_text(text))
        if not shown:
            return 0.0
        self.draw.text(xy, shown, font=fnt, fill=fill, anchor=anchor)
        return float(fnt.getlength(shown))

    def section(self, left: int, top: int, title: str, name: str) -> None:
        """Open the section ``name`` at ``(left, top)``: its title line, and its note in
        the record."""
        self.text((left, top + TITLE_H / 2 - 2), title, 22, INK, bold=True, anchor="lm")
        self.drawn.sections.append(name)

    def fitted(self, text: str, width: float, size: int, bold: bool = False) -> int:
        """The largest size from ``size`` down to ``MIN_TEXT`` at which ``text`` fits."""
        clean = safe_text(text)
        for s in range(size, MIN_TEXT - 1, -1):
            if font(s, bold).getlength(clean) <= width:
                return s
        return MIN_TEXT

    def wrapped(self, box: Box, text: str, size: int, fill: RGB, bold: bool = False,
                max_lines: int = 2, align: str = "center") -> int:
        """Write ``text`` in the top of ``box`` as :func:`fit_label` lays it out (a name
        that does not fit whole is cut, and noted in the record); the height used."""
        left, top, right, _ = box
        width = right - left
        fitted = fit_label(text, width, max(MIN_TEXT, size), bold, max_lines)
        if not fitted.whole:
            self.drawn.cut.append(text)
        fnt = self.font(fitted.size, fitted.bold)
        step = fitted.size + 3
        for i, line in enumerate(fitted.lines):
            shown = fit_text(line, fnt, width)
            x = (left + right) / 2 if align == "center" else left
            self.draw.text((x, top + i * step), shown, font=fnt, fill=fill,
                           anchor="ma" if align == "center" else "la")
        return len(fitted.lines) * step


@dataclass(frozen=True, slots=True)
class Fitted:
    """A name laid out in a box: its letters' size and weight, its lines, and whether
    every letter of it is shown (``whole``: not cut, no word broken off the list)."""

    size: int
    bold: bool
    lines: list[str]
    whole: bool


def fit_label(text: str, width: float, size: int, bold: bool = False,
              max_lines: int = 2) -> Fitted:
    """How ``text`` goes into a box ``width`` pixels wide in at most ``max_lines`` lines:
    the largest size from ``size`` down to ``MIN_TEXT`` (bold first, if asked) at which
    it fits broken at spaces and after hyphens, else at which it fits with the listed
    syllables of a word wider than the box broken too. When nothing fits (or the text
    has letters the font cannot draw), long words are broken anywhere at the smallest
    size and the last line is cut with an ellipsis: ``whole`` is then False."""
    clean = safe_text(text)
    if clean != " ".join(text.split()):
        # Letters the font cannot draw, or a text too long for one name: not whole.
        lines = wrap(clean, font(MIN_TEXT), width, max_lines)
        return Fitted(MIN_TEXT, False, lines[:max_lines], False)
    weights = (True, False) if bold else (False,)
    for hyphenate in (False, True):  # a word is broken only when nothing else fits
        for weight in weights:
            for s in range(max(size, MIN_TEXT), MIN_TEXT - 1, -1):
                lines = wrap(clean, font(s, weight), width, max_lines, hyphenate)
                if len(lines) <= max_lines and not _overflows(lines, s, weight, width):
                    return Fitted(s, weight, lines, True)
    # Nothing fits whole: break long words at the width, with a hyphen.
    fnt = font(MIN_TEXT, False)
    pieces: list[str] = []
    for word in clean.split(" "):
        while fnt.getlength(word) > width and len(word) > 5:
            cut = len(word) - 3
            while cut > 3 and fnt.getlength(word[:cut] + "-") > width:
                cut -= 1
            pieces.append(word[:cut] + "-")
            word = word[cut:]
        pieces.append(word)
    lines = wrap(" ".join(pieces), fnt, width, max_lines)
    if len(lines) > max_lines:
        lines = [*lines[:max_lines - 1], " ".join(lines[max_lines - 1:])]
    return Fitted(MIN_TEXT, False, lines, False)


def grid_boxes(count: int, columns: int, left: int, top: int, width: int, cell_h: int,
               gap: int) -> list[Box]:
    """The boxes of ``count`` cells laid ``columns`` to a row across ``width``, row by
    row below a section's title line at ``(left, top)``, ``gap`` pixels apart."""
    w = (width - (columns - 1) * gap) / columns
    boxes: list[Box] = []
    for i in range(count):
        col, row = i % columns, i // columns
        x0 = round(left + col * (w + gap))
        y0 = top + TITLE_H + row * (cell_h + gap)
        boxes.append((x0, y0, round(x0 + w), y0 + cell_h))
    return boxes


def _overflows(lines: list[str], size: int, bold: bool, width: float) -> bool:
    fnt = font(size, bold)
    return any(fnt.getlength(line) > width for line in lines)


@cache
def syllables() -> dict[str, tuple[int, ...]]:
    """Where each listed word may be broken (``hyphens.yaml``), by the word in lower
    case: the positions of the breaks."""
    raw = resources.files(__package__ or "bot.games.caverna.picture").joinpath(
        "hyphens.yaml").read_text(encoding="utf-8")
    out: dict[str, tuple[int, ...]] = {}
    for words in (load_yaml(raw) or {}).values():
        for marked in words:
            parts = str(marked).split(BREAK)
            ends = [sum(len(p) for p in parts[:i + 1]) for i in range(len(parts) - 1)]
            out["".join(parts).lower()] = tuple(ends)
    return out


def _break(word: str, fnt: Font, room: float) -> tuple[str, str] | None:
    """The longest start of ``word`` ending at a listed break that fits ``room`` pixels
    with its hyphen, and the rest; None when no break fits."""
    for end in reversed(syllables().get(word.lower(), ())):
        head = word[:end] + "-"
        if fnt.getlength(head) <= room:
            return head, word[end:]
    return None


def wrap(text: str, fnt: Font, width: float, max_lines: int,
         hyphenate: bool = True) -> list[str]:
    """``text`` broken into lines of at most ``width`` pixels at spaces (and after
    hyphens); with ``hyphenate`` a word wider than the width is broken at its listed
    syllables (the start that fits the line it would begin, the rest on the next), and
    otherwise stays whole on its own line."""
    words: list[str] = []
    for word in text.split(" "):
        pieces = word.split("-")
        words += [p + "-" for p in pieces[:-1]] + [pieces[-1]]
    lines: list[str] = []
    for word in words:
        broken = False  # the rest of a broken word starts a line of its own
        while word:
            sep = "" if not lines or lines[-1].endswith("-") else " "
            joins = bool(lines) and not broken
            if joins and fnt.getlength(lines[-1] + sep + word) <= width:
                lines[-1] += sep + word
                break
            if fnt.getlength(word) <= width:
                lines.append(word)
                break
            split = _break(word, fnt, width - fnt.getlength(lines[-1] + sep)) \
                if joins and hyphenate else None
            if split is not None:
                lines[-1] += sep + split[0]
            else:
                split = _break(word, fnt, width) if hyphenate else None
                if split is None:
                    lines.append(word)
                    break
                lines.append(split[0])
            word, broken = split[1], True
    return lines or [""]
