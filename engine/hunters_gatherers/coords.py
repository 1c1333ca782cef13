"""Names of map squares, as on a chess board: column letters and a row number (``CM91``).

A square's name is fixed for the whole game, whatever the map grows into, and the same
in the picture (written along the map's edges), on the spot buttons, in the prompts and
chat lines, and in typed moves (``/move CL91``). Option keys name squares by coordinates
(``at:x,y``: the start tile at ``0,0``), but a typed move is logged as typed, so a
game's log may name squares, and a name must mean the same square for as long as the
game lives. Hence naming schemes are versioned: a game records the scheme it was begun
with (``HuntersGatherersState.naming``) and keeps it, and so does its table (the
``names`` variant, which the engine's ``new`` reads at every replay: a table opened
before the variant existed plays the first scheme); a new game takes ``CURRENT``.

Both schemes read a board of letters (columns, west to east: ``A``…``Z``, then ``AA``,
``AB``… as in a spreadsheet) and numbers (rows, north to south, from 1). They differ in
where the start tile lies, that is how much room the board leaves to the west and north:

- scheme 1 (games begun before scheme 2): the start tile on ``N14``, 13 columns and rows
  to the west and north of it. A map that outgrows that goes on with rows ``0``, ``-1``…
  north of ``1`` and columns ``-A``, ``-B``… west of ``A`` — names that read as
  negative numbers, which is why it was replaced;
- scheme 2: room for the whole deck. A map of ``T`` tiles reaches at most ``T - 1``
  squares from the start in any direction (each tile lies next to one laid before),
  and a spot at most one square further while a tile is left to lay there, so the
  start tile lies ``REACH`` columns and rows in: column ``CM``, row 91 (``CM91``).
  No square a game can show or offer has a name with a minus sign.

In every scheme each square has exactly one name and each name one square. Typed names
are read leniently: either case, and Cyrillic letters that look like Latin ones (``С4``
typed on a Russian keyboard is ``C4``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Final

from engine.core.variants import Variant

Pos = tuple[int, int]

LETTERS: Final[str] = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
#: How far from the start tile a square can be that a game shows or offers (see the
#: module): the deck's 91 tiles, less the start tile. ``test_coords`` checks the deck.
REACH: Final[int] = 90

# Cyrillic letters drawn like Latin capitals (either case), read as those.
_LOOKALIKES: Final[dict[str, str]] = {
    cyr: lat
    for cyrs, lat in (("Аа", "A"), ("Вв", "B"), ("Сс", "C"), ("Ее", "E"), ("Нн", "H"),
                      ("Кк", "K"), ("Мм", "M"), ("Оо", "O"), ("Рр", "P"), ("Тт", "T"),
                      ("Хх", "X"))
    for cyr in cyrs
}
_NAME = re.compile(r"(-?)([A-Z]+)(-?)(0|[1-9][0-9]{0,5})")
MAX_LETTERS: Final[int] = 4  # far beyond any map (26**4 columns)


def _letters(index: int) -> str:
    """0 → ``A``, 25 → ``Z``, 26 → ``AA``, 27 → ``AB``… (bijective base 26)."""
    out = ""
    n = index + 1
    while n:
        n, rest = divmod(n - 1, 26)
        out = LETTERS[rest] + out
    return out


def _index(letters: str) -> int:
    """The inverse of ``_letters``."""
    n = 0
    for ch in letters:
        n = n * 26 + LETTERS.index(ch) + 1
    return n - 1


# eq=False: a scheme is one of the constants of ``NAMINGS``, so it is known by its
# identity, and memos keyed by it hash it in C (a field-wise hash is a Python call).
@dataclass(frozen=True, slots=True, eq=False)
class Naming:
    """One naming scheme: the 0-based column index and the row number of the start
    tile's square (``0,0``); see the module. Schemes are the constants of ``NAMINGS``
    and compare by identity."""

    start_column: int
    start_row: int

    def column_name(self, x: int) -> str:
        """The letters of the column at ``x``."""
        index = x + self.start_column
        return _letters(index) if index >= 0 else "-" + _letters(-index - 1)

    def row_name(self, y: int) -> str:
        """The number of the row at ``y``, as text."""
        return str(y + self.start_row)

    def square_name(self, pos: Pos) -> str:
        """The name of the square at ``pos`` (memoised: prompts name every spot)."""
        return _square_name(self, pos)

    def parse_square(self, text: str) -> Pos | None:
        """The position a square's name means, or None when ``text`` names no square.

        Either case and Cyrillic look-alike letters are accepted; anything else about
        the name must be exact (no spaces, no ``+``, no leading zeros, no ``-0``).
        """
        if not text or len(text) > 16:
            return None
        normal = "".join(_LOOKALIKES.get(ch, ch) for ch in text)
        if not normal.isascii():
            return None
        found = _NAME.fullmatch(normal.upper())
        if found is None:
            return None
        west, letters, north, digits = found.groups()
        if len(letters) > MAX_LETTERS or (north and digits == "0"):
            return None
        index = _index(letters)
        column = -index - 1 if west else index
        row = -int(digits) if north else int(digits)
        return (column - self.start_column, row - self.start_row)


@lru_cache(maxsize=1 << 14)
def _square_name(names: Naming, pos: Pos) -> str:
    """``names.square_name(pos)``, worked out (a pure memo of constant names)."""
    return names.column_name(pos[0]) + names.row_name(pos[1])


#: The schemes by number, as a game's state records it.
NAMINGS: Final[dict[int, Naming]] = {
    1: Naming(start_column=13, start_row=14),
    2: Naming(start_column=REACH, start_row=REACH + 1),
}
#: The scheme of a game that records none: it was begun before schemes had numbers.
FIRST: Final[int] = 1

#: A table records its scheme as a variant, by the start square's name, so that its
#: replays (which begin with the engine's ``new``) name squares as it always did. A
#: table opened before the variant was declared plays the first scheme.
NAMES_VARIANT: Final[str] = "names"
SCHEMES: Final[dict[str, int]] = {"cm91": 2, "n14": FIRST}
VARIANTS: Final[tuple[Variant, ...]] = (
    Variant(NAMES_VARIANT, ("cm91", "n14"), before="n14"),
)
#: The scheme a new game takes.
CURRENT: Final[int] = SCHEMES[VARIANTS[0].default]


def naming(scheme: int) -> Naming:
    """Naming scheme ``scheme``; an unknown number (a damaged record) reads as the first."""
    return NAMINGS.get(scheme, NAMINGS[FIRST])
