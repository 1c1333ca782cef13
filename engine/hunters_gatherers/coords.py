"""Names of map squares, as on a chess board: a column letter and a row number (``N14``).

The names are fixed for the whole game, whatever the map grows into, and the same in
the picture (written along the map's edges), on the spot buttons, in the prompts and
chat lines, and in typed moves (``/move N13``). Their scheme:

- the map is read on a board of 26 columns ``A``–``Z`` (west to east) and 26 rows
  ``1``–``26`` (north to south, in reading order), with the start tile on ``N14``, near
  the middle: 13 columns and rows to the west and north of it, 12 to the east and
  south. Random games stay within ±13 squares of the start (measured on 300 games);
- a map that outgrows the board goes on naturally: columns ``AA``, ``AB``… east of
  ``Z`` (as in a spreadsheet), rows ``27``, ``28``… south of ``26``, rows ``0``,
  ``-1``… north of ``1`` and columns ``-A``, ``-B``… west of ``A``. Every square has
  exactly one name and every name one square.

A name that stayed the same for the whole game is what lets a player speak of a square
across turns ("Anna laid her tile on N13"), lets a typed move mean what it meant when it
was typed, and lets the game's log replay: a typed move is logged as typed, so this
scheme must never change (older logs name squares by it).

Typed names are read leniently: either case, and Cyrillic letters that look like Latin
ones (``С4`` typed on a Russian keyboard is ``C4``).
"""

from __future__ import annotations

import re
from typing import Final

Pos = tuple[int, int]

START_COLUMN: Final[int] = 13  # ``N``: 0-based index of the start tile's column
START_ROW: Final[int] = 14  # the start tile's row number
LETTERS: Final[str] = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"

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


def column_name(x: int) -> str:
    """The letters of the column at ``x`` (the start tile's column is ``N``)."""
    index = x + START_COLUMN
    return _letters(index) if index >= 0 else "-" + _letters(-index - 1)


def row_name(y: int) -> str:
    """The number of the row at ``y`` (the start tile's row is 14), as text."""
    return str(y + START_ROW)


def square_name(pos: Pos) -> str:
    """``N14`` for the start tile's square; see the module's scheme."""
    return column_name(pos[0]) + row_name(pos[1])


def parse_square(text: str) -> Pos | None:
    """The position a square's name means, or None when ``text`` names no square.

    Either case and Cyrillic look-alike letters are accepted; anything else about the
    name must be exact (no spaces, no ``+``, no leading zeros, no ``-0``).
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
    return (column - START_COLUMN, row - START_ROW)
