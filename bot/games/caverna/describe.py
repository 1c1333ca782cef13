"""Caverna's things in words: squares, goods, tiles and placements, for texts and boards.

Squares of a home board are named like a chess board, the same way on every board:
columns ``A``–``F`` west to east (``A``–``C`` the forest, ``D``–``F`` the mountain),
rows ``1``–``4`` north to south. The engine's ``"x,y"`` is column ``x`` and row
``y + 1``. A twin tile overhanging the board with the Office room lands beyond the
edges: column ``-A`` west of ``A`` and ``G`` east of ``F``, row ``0`` above ``1`` and
``5`` below ``4`` (the same rule as the Hunters and Gatherers map).

Everything here is a pure function of its arguments; words come from a ``Words``
(a catalog lookup, a count and a phrase bound to one language). Counts, lists and
placements are nouns that know their forms (:mod:`bot.i18n.grammar`): the sentence
they go into names the form.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Final

from bot.i18n.grammar import Count, Noun, Phrase, Series
from engine.caverna.components import ANIMALS, GOODS, TWINS

# Goods and animals in the order a list of them is written.
ITEM_ORDER: Final[tuple[str, ...]] = (*GOODS, *ANIMALS)
COLUMNS: Final[str] = "ABCDEF"


@dataclass(frozen=True, slots=True)
class Words:
    """One language's words: ``word(code, **args)`` (plain text), ``count(noun, n)``
    ("3 wood", "3 дерева": the noun ``cav.noun.<noun>`` after a number),
    ``noun(code)`` (a catalog noun with its forms) and ``phrase(code, **args)`` (a
    catalog text whose nouns take the form a sentence asks)."""

    word: Callable[..., str]
    count: Callable[[str, int], Count]
    noun: Callable[[str], Noun]
    phrase: Callable[..., Phrase]


def as_int(value: Any, default: int = 0) -> int:
    """``value`` if it is an int (not a bool), else ``default``."""
    return value if isinstance(value, int) and not isinstance(value, bool) else default


def parse_square(text: Any) -> tuple[int, int] | None:
    """``"2,3"`` → ``(2, 3)``; anything else → None."""
    if not isinstance(text, str):
        return None
    parts = text.split(",")
    if len(parts) != 2:
        return None
    try:
        return int(parts[0]), int(parts[1])
    except ValueError:
        return None


def column_name(x: int) -> str:
    """``0`` → ``A`` … ``5`` → ``F``; ``-1`` → ``-A``, ``6`` → ``G`` (overhang)."""
    if 0 <= x < len(COLUMNS):
        return COLUMNS[x]
    if x < 0:
        return "-" + COLUMNS[min(-x - 1, len(COLUMNS) - 1)]
    return chr(ord("A") + x)


def row_name(y: int) -> str:
    """``0`` → ``1`` … ``3`` → ``4`` (``-1`` → ``0``, ``4`` → ``5``)."""
    return str(y + 1)


def square_name(pos: tuple[int, int]) -> str:
    """The name of a home-board square: ``(3, 1)`` → ``D2``."""
    return column_name(pos[0]) + row_name(pos[1])


def square_of(text: Any) -> str:
    """The name of the square an engine key names (``"3,1"`` → ``D2``); a pasture or
    twin key ``"x,y+x,y"`` gives both names joined by ``+``; anything else as it is."""
    if not isinstance(text, str):
        return ""
    names = []
    for part in text.split("+"):
        pos = parse_square(part)
        if pos is None:
            return text
        names.append(square_name(pos))
    return "+".join(names)


def direction(a: tuple[int, int], b: tuple[int, int]) -> str:
    """Where ``b`` lies from ``a``: ``east``, ``west``, ``south``, ``north`` or ``""``."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    return {(1, 0): "east", (-1, 0): "west", (0, 1): "south", (0, -1): "north"}.get(
        (dx, dy), ""
    )


def counts(goods: Any) -> dict[str, int]:
    """The positive counts of a goods mapping, in the order lists are written."""
    if not isinstance(goods, Mapping):
        return {}
    found = {str(k): as_int(v) for k, v in goods.items() if as_int(v) > 0}
    ordered = {k: found[k] for k in ITEM_ORDER if k in found}
    ordered.update({k: n for k, n in found.items() if k not in ordered})
    return ordered


def goods_text(w: Words, goods: Any, empty: str = "", sep: str = ", ") -> Series:
    """``4 wood, 3 stone`` (``empty`` when there is nothing); ``sep`` " + " for goods
    given up together (``1 ruby + 2 grain``)."""
    parts = [w.count(k, n) for k, n in counts(goods).items()]
    return Series(parts, sep) if parts else Series([empty])


def placement_text(w: Words, tile: str, at: str) -> Phrase:
    """A tile laid on squares, in words: ``meadow D3, field D4 (south)``; its tiles
    take the form the sentence asks (``кладёт каверну D1``).

    A twin's key lists its halves in the order of the tile's kinds
    (``engine.caverna.components.TWINS``); a single tile has one square."""
    parts = [parse_square(p) for p in at.split("+")]
    name = w.noun(f"cav.tile.{tile}")
    if any(p is None for p in parts) or not parts:
        return w.phrase("cav.place.single", tile=name, at=at)
    squares = [p for p in parts if p is not None]
    halves = TWINS.get(tile)
    if halves is None or len(squares) != 2:
        return w.phrase("cav.place.single", tile=name, at=square_name(squares[0]))
    first, second = squares
    way = direction(first, second) or "east"
    if halves[0] == halves[1]:
        return w.phrase("cav.place.same", tile=w.noun(f"cav.tiles.{halves[0]}"),
                        a=square_name(first), b=square_name(second),
                        dir=w.word(f"cav.dir.{way}"))
    return w.phrase("cav.place.twin", a_tile=w.noun(f"cav.tile.{halves[0]}"),
                    b_tile=w.noun(f"cav.tile.{halves[1]}"), a=square_name(first),
                    b=square_name(second), dir=w.word(f"cav.dir.{way}"))


def points_text(w: Words, kind: str, points: int) -> str:
    """A furnishing's printed points, or a star for a yellow tile's bonus."""
    if kind == "yellow" and points == 0:
        return w.word("cav.points.bonus")
    return w.count("points", points)
