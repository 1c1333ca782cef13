"""One player's home board: forest on the left, mountain on the right.

Coordinates
-----------
A space is ``(x, y)``; its key (in JSON and in option keys) is ``"x,y"``.

::

         forest          mountain
     x:  0   1   2   |   3   4   5
  y=0   .   .   B   |   .   .   W2
  y=1   .   .   .   |   .   .   .
  y=2   B   .   .   |   C   .   .
  y=3   .   R   .  ===  E   W1  .

- ``x`` 0..2 is the forest (0 at the left edge, 2 next to the mountain), ``x`` 3..5 the
  mountain (3 next to the forest); ``y`` 0..3 runs from the top row to the bottom row.
  The reference's ``[f1..f3, r1..r4]`` is ``x = 0..2``, ``[m1..m3]`` is ``x = 3..5`` and
  ``r1..r4`` is ``y = 0..3``.
- ``E`` (3,3) is the cave entrance with the printed entry-level dwelling, ``C`` (3,2) the
  printed starting cavern above it.
- Bonus spaces, rewarded once when a landscape tile first covers them (never for a stable
  alone): ``B`` wild boar (2,0) and (0,2); ``R`` the small river (1,3), 1 food; ``W1``/``W2``
  the underground water sources (4,3), 1 food, and (5,0), 2 food.
- A cliff separates the halves: ``(2, y)`` and ``(3, y)`` touch only on the bottom row
  (``===``), where the first forest space meets the entrance.
- With the Office room a twin tile may overhang the board by one space: such spaces lie
  one step outside an outer edge of their half (``x = -1`` or ``x = 6``, ``y = -1`` or
  ``y = 4``) and, once covered, are spaces of the board like any other.

What a space holds
------------------
``Space.tile`` is the landscape tile lying there (``None``: bare forest or bare rock);
``furnishing`` the furnishing tile id laid on a cavern (or on a tunnel with the Work
room); ``stable`` whether one of the player's stables stands there; ``crop`` and
``crop_count`` what is sown on a field; ``partner`` the other half of a large pasture.
Only spaces holding something are stored, and a space stores only its non-default
fields, so a board stays small in JSON.

The names here (``HomeBoard``, ``Space``, ``Tile``, ``Crop``, ``Pos``, ``key``, ``pos_of``,
the position constants and the query methods) are stable: other modules build on them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from functools import lru_cache
from operator import attrgetter, itemgetter
from types import MappingProxyType
from typing import Any, Literal, TypeVar, get_args

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    PrivateAttr,
    SerializerFunctionWrapHandler,
    field_validator,
    model_serializer,
    model_validator,
)

from engine.caverna.board_facts import BoardFacts, Signature, signature_of

Pos = tuple[int, int]

Tile = Literal[
    "meadow",
    "field",
    "small_pasture",
    "large_pasture",
    "cavern",
    "tunnel",
    "deep_tunnel",
    "ore_mine",
    "ruby_mine",
]
TILES: tuple[str, ...] = get_args(Tile)
FOREST_TILES: frozenset[str] = frozenset({"meadow", "field", "small_pasture", "large_pasture"})
MOUNTAIN_TILES: frozenset[str] = frozenset(
    {"cavern", "tunnel", "deep_tunnel", "ore_mine", "ruby_mine"}
)
PASTURES: frozenset[str] = frozenset({"small_pasture", "large_pasture"})
# Tunnels of either kind: what a ruby mine may be built on.
TUNNELS: frozenset[str] = frozenset({"tunnel", "deep_tunnel"})
MINES: frozenset[str] = frozenset({"ore_mine", "ruby_mine"})

Crop = Literal["grain", "vegetable"]
CROPS: tuple[str, ...] = get_args(Crop)
# What sowing puts on an empty field: the player's one plus the supply's.
SOWN: dict[str, int] = {"grain": 3, "vegetable": 2}

Half = Literal["forest", "mountain"]

WIDTH = 6
HEIGHT = 4
FOREST_XS: tuple[int, ...] = (0, 1, 2)
MOUNTAIN_XS: tuple[int, ...] = (3, 4, 5)
ENTRANCE: Pos = (3, 3)
START_CAVERN: Pos = (3, 2)
# The forest space in front of the entrance: the first forest tile must cover it.
FIRST_FOREST: Pos = (2, 3)
ENTRY_DWELLING = "entry_level_dwelling"
MAX_STABLES = 3

# Printed bonus spaces and what covering them with a tile gives (reference home_board).
BONUS_SPACES: dict[Pos, dict[str, int]] = {
    (2, 0): {"wild_boar": 1},
    (0, 2): {"wild_boar": 1},
    (1, 3): {"food": 1},
    (5, 0): {"food": 2},
    (4, 3): {"food": 1},
}


def key(pos: Pos) -> str:
    """``"x,y"``: the position's key in JSON and in option keys."""
    text = _KEYS.get(pos)
    return text if text is not None else f"{pos[0]},{pos[1]}"


@lru_cache(maxsize=1024)
def pos_of(text: str) -> Pos | None:
    """The position ``text`` spells canonically (``"2,3"``, ``"-1,0"``), or None."""
    parts = text.split(",")
    if len(parts) != 2:
        return None
    values: list[int] = []
    for part in parts:
        digits = part[1:] if part.startswith("-") else part
        if not digits.isascii() or not digits.isdigit() or (len(digits) > 1 and digits[0] == "0"):
            return None
        if part == "-0":
            return None
        values.append(int(part))
    return values[0], values[1]


def on_board(pos: Pos) -> bool:
    """Is ``pos`` one of the 24 printed spaces?"""
    return 0 <= pos[0] < WIDTH and 0 <= pos[1] < HEIGHT


def half_of(pos: Pos) -> Half:
    """Which half ``pos`` belongs to (overhang spaces belong to the half they stick out of)."""
    return "forest" if pos[0] <= FOREST_XS[-1] else "mountain"


def is_overhang(pos: Pos) -> bool:
    """Is ``pos`` a space one step beyond an outer edge of its half (Office room)?"""
    x, y = pos
    if on_board(pos):
        return False
    if 0 <= y < HEIGHT:
        return x in (-1, WIDTH)
    if y in (-1, HEIGHT):
        return 0 <= x < WIDTH
    return False


# Keys of the printed spaces and the overhang ring, computed once (asked for constantly).
_KEYS: dict[Pos, str] = {
    (x, y): f"{x},{y}" for x in range(-1, WIDTH + 1) for y in range(-1, HEIGHT + 1)
}


def touching(a: Pos, b: Pos) -> bool:
    """Are ``a`` and ``b`` orthogonal neighbours? The cliff between the halves keeps
    ``(2, y)`` and ``(3, y)`` apart except on the bottom row."""
    (ax, ay), (bx, by) = a, b
    if abs(ax - bx) + abs(ay - by) != 1:
        return False
    if ay == by and {ax, bx} == {FOREST_XS[-1], MOUNTAIN_XS[0]}:
        return ay == HEIGHT - 1
    return True


def around(pos: Pos) -> Iterator[Pos]:
    """The four orthogonal positions around ``pos`` that touch it (on the board or not)."""
    return iter(_around(pos))


@lru_cache(maxsize=256)
def _around(pos: Pos) -> tuple[Pos, ...]:
    x, y = pos
    return tuple(
        other for other in ((x - 1, y), (x + 1, y), (x, y - 1), (x, y + 1))
        if touching(pos, other)
    )


class Space(BaseModel):
    """What lies on one space. Only non-default fields are written to JSON."""

    model_config = ConfigDict(extra="forbid")

    tile: Tile | None = None
    furnishing: str | None = None
    stable: bool = False
    crop: Crop | None = None
    crop_count: int = 0
    partner: str | None = None

    @model_serializer(mode="wrap")
    def _compact(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        data: dict[str, Any] = handler(self)
        return {name: value for name, value in data.items() if value not in (None, False, 0)}

    @property
    def is_empty(self) -> bool:
        """No tile and no stable: an unused space at the end (rulebook scoring)."""
        return self.tile is None and not self.stable

    @property
    def is_pasture(self) -> bool:
        return self.tile in PASTURES

    @property
    def is_cavern(self) -> bool:
        return self.tile == "cavern"


_EMPTY = Space()
# The 24 printed spaces, row by row.
PRINTED: tuple[Pos, ...] = tuple((x, y) for y in range(HEIGHT) for x in range(WIDTH))


_first = itemgetter(0)


@lru_cache(maxsize=256)
def _order_of(pos: Pos) -> tuple[int, int, int]:
    x, y = pos
    return (0, y, x) if on_board(pos) else (1, x, y)


# Where each key of a space lies and its place in board order, for every printed and
# overhang space (read constantly while listing a board's spaces in order).
_PLACES: dict[str, tuple[tuple[int, int, int], Pos]] = {
    text: (_order_of(pos), pos) for pos, text in _KEYS.items()
}


def _place(text: str) -> tuple[tuple[int, int, int], Pos] | None:
    """The board order and position of the space keyed ``text`` (None: not a key)."""
    found = _PLACES.get(text)
    if found is None and (pos := pos_of(text)) is not None:
        found = (_order_of(pos), pos)
    return found


# Everything stored on a board as one hashable value, in storage order: two boards with
# equal signatures are equal, so an answer about a board may be memoised by it.
# Read as the stored spaces' keys, then each one's fields (``SPACE_FIELDS``, every field
# of a space) in the same order: two flat tuples are built and hashed faster than a
# tuple per space.
BoardSignature = Signature
SPACE_FIELDS = ("tile", "furnishing", "stable", "crop", "crop_count", "partner")
_space_fields = attrgetter(*SPACE_FIELDS)


# What a furnishing may be laid on, without and with the Work room (``tunnels_too``).
_FURNISHABLE: dict[bool, frozenset[str]] = {
    False: frozenset({"cavern"}), True: frozenset({"cavern", *TUNNELS})}


T = TypeVar("T")


class HomeBoard(BaseModel):
    """One player's home board. ``spaces`` maps ``"x,y"`` to what lies there; a missing
    key is an empty space (bare forest or rock).

    What is derived from the spaces is kept beside them until :meth:`edit` opens one
    for changing (:mod:`engine.caverna.board_facts`): change a space only through
    ``edit``, right after asking for it."""

    model_config = ConfigDict(extra="forbid")

    spaces: dict[str, Space] = Field(default_factory=dict)
    # What was derived from the spaces as they are now; never dumped or compared.
    _known: BoardFacts = PrivateAttr(default_factory=BoardFacts)

    @field_validator("spaces")
    @classmethod
    def _known_positions(cls, spaces: dict[str, Space]) -> dict[str, Space]:
        for text, space in spaces.items():
            pos = pos_of(text)
            if pos is None or not (on_board(pos) or is_overhang(pos)):
                raise ValueError(f"not a home-board space: {text!r}")
            if pos is not None and not on_board(pos) and space.tile is None:
                raise ValueError(f"an overhang space without a tile: {text!r}")
            if space.tile is not None:
                allowed = FOREST_TILES if half_of(pos) == "forest" else MOUNTAIN_TILES
                if space.tile not in allowed:
                    raise ValueError(f"{space.tile} cannot lie at {text}")
            if space.stable and half_of(pos) != "forest":
                raise ValueError(f"a stable in the mountain at {text}")
        return spaces

    @model_validator(mode="after")
    def _pastures_paired(self) -> HomeBoard:
        for text, space in self.spaces.items():
            if space.tile == "large_pasture":
                other = self.spaces.get(space.partner or "")
                if other is None or other.tile != "large_pasture" or other.partner != text:
                    raise ValueError(f"large pasture at {text} has no matching half")
        return self

    # ----- reading

    def derived(self, question: Callable[[HomeBoard], T]) -> T:
        """``question(self)`` for a pure function ``question`` of the board, worked out
        once and kept until the board is edited (shared with every caller: an answer is
        immutable, or never changed)."""
        known: BoardFacts = self.__pydantic_private__["_known"]  # type: ignore[index]
        return known.get(question, self)

    def signature(self) -> BoardSignature:
        """The board as a hashable value (see ``BoardSignature``), kept until edited."""
        known: BoardFacts = self.__pydantic_private__["_known"]  # type: ignore[index]
        return known.get(_signature, self)

    def at(self, pos: Pos) -> Space:
        """What lies at ``pos`` (an empty space if nothing). Do not change the result:
        use :meth:`edit` to change a space."""
        return self.spaces.get(key(pos), _EMPTY)

    def edit(self, pos: Pos) -> Space:
        """The stored space at ``pos``, created empty if missing, for changing in place
        right away: what was derived from the board is forgotten now, so a change made
        after the board was read again needs an ``edit`` of its own. A board whose
        spaces are shared with a copy (``engine.caverna.copying``) takes its own first."""
        private: dict[str, Any] = self.__pydantic_private__  # type: ignore[assignment]
        known: BoardFacts = private["_known"]
        if known.shared:
            # Copied spaces, as ``model_copy`` makes them (a space holds only leaves);
            # the copy keeps the old spaces, and the facts about them.
            self.__dict__["spaces"] = {k: s.model_copy() for k, s in self.spaces.items()}
            private["_known"] = BoardFacts()
        else:
            known.answers.clear()
        text = key(pos)
        space = self.spaces.get(text)
        if space is None:
            space = self.spaces[text] = Space()
        return space

    def positions(self) -> list[Pos]:
        """Every space of the board: the 24 printed ones, then covered overhang spaces."""
        return list(self.derived(_positions))

    def items(self) -> Iterator[tuple[Pos, Space]]:
        """``(pos, space)`` for every space of the board, empty ones included."""
        spaces = self.spaces
        for pos in self.derived(_positions):
            yield pos, spaces.get(key(pos), _EMPTY)

    def stored(self) -> list[tuple[Pos, Space]]:
        """``(pos, space)`` for the spaces holding something, in board order."""
        return list(self.derived(_stored))

    def neighbours(self, pos: Pos) -> list[Pos]:
        """The board spaces (printed or covered overhang) touching ``pos``."""
        return [p for p in around(pos) if on_board(p) or key(p) in self.spaces]

    def where(self, *tiles: str) -> list[Pos]:
        """Positions holding one of ``tiles``, in board order."""
        return [pos for pos, s in self.derived(_stored) if s.tile in tiles]

    def count(self, *tiles: str) -> int:
        """How many spaces hold one of ``tiles``."""
        counts = self.derived(_tile_counts)
        return sum(counts.get(tile, 0) for tile in tiles)

    @property
    def stables(self) -> list[Pos]:
        """Positions with a stable."""
        return [p for p, s in self.derived(_stored) if s.stable]

    @property
    def furnishings(self) -> list[str]:
        """Furnishing ids on the board (the printed entry-level dwelling included)."""
        return [s.furnishing for _, s in self.derived(_stored) if s.furnishing is not None]

    def furnished(self) -> tuple[str, ...]:
        """The furnishing ids on the board in no particular order (kept until edited),
        for questions the order does not change (is there one, how many, their sum)."""
        return self.derived(_furnished)

    def has_furnishing(self, furnishing: str) -> bool:
        return furnishing in self.derived(_furnished)

    def furnishing_at(self, furnishing: str) -> Pos | None:
        """Where the (first) tile ``furnishing`` lies."""
        for pos, space in self.derived(_stored):
            if space.furnishing == furnishing:
                return pos
        return None

    def empty_caverns(self, tunnels_too: bool = False) -> list[Pos]:
        """Caverns with no furnishing; with ``tunnels_too`` (the Work room) also unfurnished
        tunnels and deep tunnels. Mines are never furnished."""
        kinds = _FURNISHABLE[tunnels_too]
        return [p for p, s in self.derived(_stored) if s.tile in kinds and s.furnishing is None]

    def has_empty_cavern(self, tunnels_too: bool = False) -> bool:
        """Is there one of :meth:`empty_caverns` (asked without putting them in order)?"""
        kinds = _FURNISHABLE[tunnels_too]
        return any(s.tile in kinds and s.furnishing is None for s in self.spaces.values())

    def unused_spaces(self) -> int:
        """Spaces with neither a tile nor a stable (−1 point each at the end). The printed
        entry dwelling and starting cavern are tiles here, so they count as used."""
        return sum(1 for _, s in self.items() if s.is_empty)

    def fields(self) -> list[Pos]:
        return self.where("field")

    def sown(self, crop: str) -> int:
        """Goods of ``crop`` lying on fields."""
        return sum(s.crop_count for s in self.spaces.values() if s.crop == crop)

    def pastures(self) -> list[tuple[Pos, ...]]:
        """Each pasture as its positions: one for a small pasture, two for a large one."""
        found: list[tuple[Pos, ...]] = []
        for pos, space in self.derived(_stored):
            if space.tile == "small_pasture":
                found.append((pos,))
            elif space.tile == "large_pasture":
                other = pos_of(space.partner or "")
                if other is not None and other > pos:
                    found.append((pos, other))
        return found


# ----- what a board derives from its spaces (kept by ``HomeBoard.derived``)


def _signature(board: HomeBoard) -> Signature:
    spaces = board.spaces
    return signature_of((tuple(spaces), tuple(map(_space_fields, spaces.values()))))


def _stored(board: HomeBoard) -> tuple[tuple[Pos, Space], ...]:
    found = [(place, s) for k, s in board.spaces.items() if (place := _place(k)) is not None]
    found.sort(key=_first)  # orders are unique: spaces themselves never compared
    return tuple((place[1], s) for place, s in found)


def _positions(board: HomeBoard) -> tuple[Pos, ...]:
    extra = sorted(
        p for p in (pos_of(k) for k in board.spaces) if p is not None and not on_board(p)
    )
    return (*PRINTED, *extra)


def _furnished(board: HomeBoard) -> tuple[str, ...]:
    return tuple(s.furnishing for s in board.spaces.values() if s.furnishing is not None)


def _tile_counts(board: HomeBoard) -> Mapping[str, int]:
    counts: dict[str, int] = {}
    for space in board.spaces.values():
        if space.tile is not None:
            counts[space.tile] = counts.get(space.tile, 0) + 1
    return MappingProxyType(counts)


def _connected(board: HomeBoard, cells: set[Pos], start: Pos) -> set[Pos]:
    seen = {start} if start in cells else set()
    todo = list(seen)
    while todo:
        here = todo.pop()
        for there in board.neighbours(here):
            if there in cells and there not in seen:
                seen.add(there)
                todo.append(there)
    return seen


def problems(board: HomeBoard, work_room: bool | None = None) -> list[str]:
    """What breaks the placement rules on ``board`` (empty when all is well), for the
    game's invariants: forest tiles grow from the space in front of the entrance and
    mountain tiles from the entrance, each as one connected group; the printed caverns
    are in place; at most 3 stables, never on fields; furnishings only on caverns (on
    tunnels too with the Work room; ``work_room`` None reads it from the board); crops
    only on fields; overhang spaces only with the Office room."""
    found: list[str] = []
    forest = {p for p, s in board.items() if s.tile in FOREST_TILES}
    mountain = {p for p, s in board.items() if s.tile in MOUNTAIN_TILES}
    if forest and _connected(board, forest, FIRST_FOREST) != forest:
        found.append("forest tiles not grown from the entrance")
    if _connected(board, mountain, ENTRANCE) != mountain:
        found.append("mountain tiles not grown from the entrance")
    if board.at(ENTRANCE) != Space(tile="cavern", furnishing=ENTRY_DWELLING):
        found.append("entry-level dwelling missing")
    if board.at(START_CAVERN).tile != "cavern":
        found.append("starting cavern missing")
    if len(board.stables) > MAX_STABLES:
        found.append("more than 3 stables")
    if work_room is None:
        work_room = board.has_furnishing("work_room")
    furnishable = {"cavern", *TUNNELS} if work_room else {"cavern"}
    for pos, space in board.items():
        where = key(pos)
        if space.stable and space.tile == "field":
            found.append(f"stable on a field at {where}")
        if space.furnishing is not None and space.tile not in furnishable:
            found.append(f"furnishing on {space.tile} at {where}")
        if (space.crop is not None or space.crop_count) and (
            space.tile != "field" or space.crop is None or space.crop_count <= 0
        ):
            found.append(f"bad crop at {where}")
        if not on_board(pos) and not board.has_furnishing("office_room"):
            found.append(f"overhang at {where} without the Office room")
        if space.tile == "large_pasture":
            other = pos_of(space.partner or "")
            if other is None or not touching(pos, other):
                found.append(f"large pasture halves apart at {where}")
    return found


def new_home_board() -> HomeBoard:
    """A home board as set up: the entry-level dwelling and the starting cavern."""
    return HomeBoard(
        spaces={
            key(ENTRANCE): Space(tile="cavern", furnishing=ENTRY_DWELLING),
            key(START_CAVERN): Space(tile="cavern"),
        }
    )
