"""Hunters and Gatherers choices in words, so that a turn can be played without the picture.

Three things are described, each from the engine's data alone:

- a tile's sides as it lies turned ``k`` quarter turns (``tile_sides``): each river
  piece with where it runs ("river from the north to the south", "rivers from the
  north and east into a lake", "river from a spring to the west"), each forest piece
  and each meadow by the whole sides it covers ("forest to the east and south"); two
  pieces of one kind are named apart, so that "forest to the north; forest to the
  south" says they do not join. Meadow strips along a river bank go unnamed: every
  river has them;
- where a turn of a tile puts its animals (``tile_corners``: "1 deer in the west",
  a side or a corner of the tile), and, when two turns would still read the same, the
  meadows along no whole side too ("meadow in the north-west");
- what is drawn on a tile whatever its turn (``tile_contents``): fish, gold,
  mushrooms, animals, fire and shrine;
- what lies next to a spot (``touch``): the edges of the neighbours facing it, from the
  engine's ``touch`` string (F, M, R or ``.`` for the sides N, E, S, W), and which
  turns of the tile in hand fit there (``turns``). Spots with the same neighbours are
  listed together (``spot_groups``): fewer lines, and alike spots side by side.

Squares are named as the engine names them for the game (``square_of``: the arguments'
``at``, see ``engine.hunters_gatherers.coords``), as on the map's edges and on the
buttons. Words come from the catalog (``hg.dir``, ``hg.about``,
``hg.piece``, ``hg.touch``, ``hg.turns``); the functions here only choose and join them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engine.hunters_gatherers.coords import FIRST, naming
from engine.hunters_gatherers.tiles import SIDES, Meadow, Tile, all_tiles, oriented

# Animals by the catalog's plural noun, in the score order.
ANIMAL_NOUNS: tuple[tuple[str, str], ...] = (
    ("deer", "deer"), ("mammoth", "mammoth"), ("aurochs", "aurochs"), ("tiger", "tiger"),
)
TOUCH_ORDER = "RFM"  # rivers first: they decide most about where a tile fits


@dataclass(frozen=True, slots=True)
class Words:
    """The words of one language: ``word(code, **args)`` gives a catalog text as plain
    characters, ``count(noun, n)`` a number with its plural noun (``2 fish``)."""

    word: Callable[..., str]
    count: Callable[[str, int], str]

    def listing(self, items: Sequence[str], last: str = "hg.about.and") -> str:
        """``a``, ``a and b``, ``a, b and c`` (``last`` is the joining word's code)."""
        if len(items) <= 1:
            return "".join(items)
        return ", ".join(items[:-1]) + self.word(last) + items[-1]

    def dirs(self, sides: Iterable[str], form: str = "from") -> str:
        """Sides as directions, in N, E, S, W order: ``north and east``. ``form`` is the
        catalog's case of a direction: ``from`` (``с севера``) or ``to`` (``на север``)."""
        ordered = sorted(set(sides), key=SIDES.index)
        return self.listing([self.word(f"hg.dir.{form}.{s}") for s in ordered])


def degrees(k: int) -> int:
    """Quarter turns as degrees clockwise."""
    return k % 4 * 90


def known_tile(tile_id: Any) -> Tile | None:
    """The tile named ``tile_id``, or None."""
    return all_tiles().get(tile_id) if isinstance(tile_id, str) else None


def _whole_sides(segments: Iterable[str]) -> list[str]:
    return [s for s in segments if s in SIDES]


# Where each border segment lies, as a vector from the tile's centre (x east, y north):
# a whole side, or its halves numbered clockwise (``N1`` the west half of the north side).
_SEGMENT_AT: dict[str, tuple[int, int]] = {
    "N": (0, 2), "N1": (-1, 2), "N2": (1, 2), "E": (2, 0), "E1": (2, 1), "E2": (2, -1),
    "S": (0, -2), "S1": (1, -2), "S2": (-1, -2), "W": (-2, 0), "W1": (-2, -1), "W2": (-2, 1),
}
_SIDE_AT: dict[str, tuple[int, int]] = {"N": (0, 1), "E": (1, 0), "S": (0, -1), "W": (-1, 0)}


def _place(segments: Iterable[str]) -> str | None:
    """Where on the tile a piece lies, from its border segments: ``N``, ``NE``… (a
    side, or a corner: a meadow along half of two sides); None for the middle."""
    x = sum(_SEGMENT_AT[seg][0] for seg in segments if seg in _SEGMENT_AT)
    y = sum(_SEGMENT_AT[seg][1] for seg in segments if seg in _SEGMENT_AT)
    length = (x * x + y * y) ** 0.5
    # Within 67.5 degrees of a side: that side alone, else both sides of the diagonal.
    near = [side for side, (dx, dy) in _SIDE_AT.items()
            if length and (x * dx + y * dy) > 0.38 * length]
    return "".join(sorted(near, key="NSEW".index)) or None


def tile_corners(w: Words, tile: Tile, k: int, detail: bool = False) -> list[str]:
    """Where the animals of ``tile`` turned ``k`` quarter turns stand (``1 deer in the
    west``: where the deer ends up tells two turns apart), and with ``detail`` also
    where each meadow lies that runs along no whole side (two turns that would read the
    same otherwise)."""
    out = []
    for meadow in oriented(tile, k % 4).meadows:
        where = w.word(f"hg.place.{_place(meadow.segments) or 'C'}")
        animals = _animals(w, meadow)
        if animals:
            out.append(w.word("hg.piece.animals_at", place=where, animals=animals))
        elif detail and not _whole_sides(meadow.segments):
            out.append(w.word("hg.piece.meadow_at", place=where))
    return out


def _animals(w: Words, meadow: Meadow) -> str:
    """The animals standing on a meadow piece (``1 deer, 2 mammoths``), or empty."""
    return ", ".join(w.count(noun, meadow.count(animal)) for animal, noun in ANIMAL_NOUNS
                     if meadow.count(animal))


def tile_sides(w: Words, tile: Tile, k: int) -> str:
    """What each side of ``tile`` turned ``k`` quarter turns holds, as phrases joined by
    ``; ``: rivers, then forests, then meadows, each kind from the northernmost piece
    clockwise (empty for a tile with nothing on its sides, which does not exist)."""
    placed = oriented(tile, k % 4)
    rivers: list[tuple[list[str], str]] = []  # (sides, phrase)
    into_lake: dict[str, list[str]] = {}
    for river in placed.rivers:
        sides = sorted(river.sides, key=SIDES.index)
        if len(sides) == 2:
            rivers.append((sides, w.word("hg.piece.river_through", a=w.dirs(sides[:1]),
                                         b=w.dirs(sides[1:], "to"))))
        elif sides and river.lakes:
            into_lake.setdefault(river.lakes[0], []).extend(sides)
        elif sides and river.springs:
            rivers.append((sides, w.word("hg.piece.river_spring", dirs=w.dirs(sides, "to"))))
    for sides in into_lake.values():
        code = "hg.piece.river_lake" if len(sides) == 1 else "hg.piece.rivers_lake"
        rivers.append((sides, w.word(code, dirs=w.dirs(sides))))
    forests = [(sides, w.word("hg.piece.forest", dirs=w.dirs(sides)))
               for forest in placed.forests if (sides := _whole_sides(forest.segments))]
    meadows = [(sides, w.word("hg.piece.meadow", dirs=w.dirs(sides)))
               for meadow in placed.meadows if (sides := _whole_sides(meadow.segments))]
    parts: list[str] = []
    for kind in (rivers, forests, meadows):
        kind.sort(key=lambda item: min(SIDES.index(s) for s in item[0]))
        parts += [phrase for _, phrase in kind]
    return "; ".join(parts)


def tile_contents(w: Words, tile: Tile) -> str:
    """What is drawn on the tile (``2 fish, 1 deer, fire``); empty when nothing is."""
    items: list[str] = []
    if tile.fish:
        items.append(w.count("fish", tile.fish))
    if tile.gold:
        items.append(w.count("gold", tile.gold))
    mushrooms = sum(f.mushrooms for f in tile.forests)
    if mushrooms:
        items.append(w.count("mushrooms", mushrooms))
    for animal, noun in ANIMAL_NOUNS:
        if tile.animals(animal):
            items.append(w.count(noun, tile.animals(animal)))
    items += [w.word(f"hg.about.special.{s}") for s in ("fire", "shrine") if s in tile.specials]
    return ", ".join(items)


def touch(w: Words, edges: Any) -> str:
    """What lies next to a spot, from its ``touch`` string (``river to the north, forest
    to the west``); empty for a malformed string."""
    if not isinstance(edges, str) or len(edges) != 4:
        return ""
    parts = []
    for kind in TOUCH_ORDER:
        sides = [side for side, edge in zip(SIDES, edges, strict=True) if edge == kind]
        if sides:
            parts.append(w.word(f"hg.touch.{kind}", dirs=w.dirs(sides)))
    return ", ".join(parts)


def turns(w: Words, rotations: Any) -> str:
    """``any turn``, ``turned 90°`` or ``turned 0° or 180°``."""
    ks = sorted({r % 4 for r in rotations if isinstance(r, int) and not isinstance(r, bool)}) \
        if isinstance(rotations, list | tuple) else []
    if len(ks) == 4:
        return w.word("hg.turns.any")
    angles = [f"{degrees(k)}°" for k in ks]
    return w.word("hg.turns.some", list=w.listing(angles, "hg.about.or"))


def _pos(entry: Mapping[str, Any]) -> tuple[int, int] | None:
    x, y = entry.get("x"), entry.get("y")
    if isinstance(x, int) and isinstance(y, int) and not isinstance(x, bool) \
            and not isinstance(y, bool):
        return (x, y)
    return None


def square_of(args: Mapping[str, Any]) -> str | None:
    """The name of the square an engine's arguments give: ``at``, the game's own name
    for it; else (arguments stored before the engine named squares, so of a game begun
    with the first scheme) ``x``, ``y`` named by the first scheme; None without either."""
    at = args.get("at")
    if isinstance(at, str) and at:
        return at
    pos = _pos(args)
    return naming(FIRST).square_name(pos) if pos is not None else None


def spot_groups(w: Words, spots: Any) -> list[str]:
    """One line per kind of spot (the same neighbours, so the same turns fit): its
    squares, what lies next to them and the turns that fit. Spots are listed in the
    engine's order (by rows, then columns) and groups in the order of their first spot."""
    groups: dict[str, tuple[list[str], Any]] = {}
    for entry in spots if isinstance(spots, list | tuple) else ():
        if not isinstance(entry, Mapping) or (square := square_of(entry)) is None:
            continue
        key = str(entry.get("touch"))
        squares, _ = groups.setdefault(key, ([], entry.get("rotations")))
        squares.append(square)
    return [w.word("hg.about.group", squares=", ".join(squares), touch=touch(w, key),
                   turns=turns(w, rotations))
            for key, (squares, rotations) in groups.items()]
