"""The drawing surface of one Caverna picture, and the record of what was drawn.

Every text goes through :class:`Canvas` so that it is made safe (``bot.render.text``),
cut or wrapped to its room, and never drawn below ``MIN_TEXT`` pixels. The canvas also
keeps a :class:`Drawn` record — the tile kinds, animals and furnishings drawn, the
marks of the open prompt and the smallest letters used — so tests can check what a
picture shows without comparing pixels.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from PIL import Image, ImageDraw

from bot.games.caverna.picture.style import INK, MIN_TEXT, RGB, TITLE_H, Box
from bot.render.text import Font, fit_text, font, safe_text, visual_order


@dataclass(slots=True)
class Drawn:
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
    sections: list[str] = field(default_factory=list)
    min_text: int = 10**6  # the smallest font size used, in pixels


class Canvas:
    """An image with a drawing context and the record of what went on it."""

    def __init__(self, image: Image.Image) -> None:
        self.image = image
        self.draw = ImageDraw.Draw(image)
        self.drawn = Drawn()

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
        """Write ``text`` in the top of ``box``, wrapped on spaces and hyphens into at most
        ``max_lines`` lines, shrinking the font towards ``MIN_TEXT`` first, then dropping
        bold, then breaking a word too long for the box with a hyphen (the last line is
        cut with an ellipsis if still too long); the height used."""
        left, top, right, _ = box
        width = right - left
        clean = safe_text(text)
        size, bold, lines = _layout(clean, width, max(MIN_TEXT, size), bold, max_lines)
        fnt = self.font(size, bold)
        if len(lines) > max_lines:
            lines = [*lines[:max_lines - 1], " ".join(lines[max_lines - 1:])]
        step = size + 3
        for i, line in enumerate(lines):
            shown = fit_text(line, fnt, width)
            x = (left + right) / 2 if align == "center" else left
            self.draw.text((x, top + i * step), shown, font=fnt, fill=fill,
                           anchor="ma" if align == "center" else "la")
        return len(lines) * step


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


def _layout(text: str, width: float, size: int, bold: bool,
            max_lines: int) -> tuple[int, bool, list[str]]:
    """The size, weight and lines that fit ``text`` best (see ``Canvas.wrapped``)."""
    weights = (True, False) if bold else (False,)
    for weight in weights:
        for s in range(size, MIN_TEXT - 1, -1):
            lines = wrap(text, font(s, weight), width, max_lines)
            if len(lines) <= max_lines and not _overflows(lines, s, weight, width):
                return s, weight, lines
    # Nothing fits whole: break long words at the width, with a hyphen.
    fnt = font(MIN_TEXT, False)
    pieces: list[str] = []
    for word in text.split(" "):
        while fnt.getlength(word) > width and len(word) > 5:
            cut = len(word) - 3
            while cut > 3 and fnt.getlength(word[:cut] + "-") > width:
                cut -= 1
            pieces.append(word[:cut] + "-")
            word = word[cut:]
        pieces.append(word)
    return MIN_TEXT, False, wrap(" ".join(pieces), fnt, width, max_lines)


def _overflows(lines: list[str], size: int, bold: bool, width: float) -> bool:
    fnt = font(size, bold)
    return any(fnt.getlength(line) > width for line in lines)


def wrap(text: str, fnt: Font, width: float, max_lines: int) -> list[str]:
    """``text`` broken into lines of at most ``width`` pixels at spaces (and after
    hyphens); a single word longer than the width stays whole on its own line."""
    words: list[str] = []
    for word in text.split(" "):
        pieces = word.split("-")
        words += [p + "-" for p in pieces[:-1]] + [pieces[-1]]
    lines: list[str] = []
    for word in words:
        if not word:
            continue
        if lines:
            joined = lines[-1] + ("" if lines[-1].endswith("-") else " ") + word
            if fnt.getlength(joined) <= width:
                lines[-1] = joined
                continue
        lines.append(word)
    return lines or [""]
