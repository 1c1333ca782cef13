"""Landscape tiles on the home board: where twin and single tiles may go, and laying them.

Rules (rulebook, "action spaces for twin tiles", "rubies", "ore mine construction",
"ruby mine construction"):

- Meadow/field tiles go on forest spaces, cavern/tunnel tiles on mountain spaces, always
  on spaces no tile covers yet. A twin tile covers two touching spaces of one half; it is
  never split into singles.
- The first forest tile (twin or single) covers the forest space in front of the cave
  entrance; every later forest tile touches a meadow, field or pasture already there (a
  stable alone does not count).
- A forest space holding a stable may still get a meadow, slid under the stable, never
  a field: a meadow/field twin over a stable turns its meadow half there.
- Every new cavern or tunnel touches a mountain space already in use (the entry dwelling
  and starting cavern count).
- The ore mine/deep tunnel twin covers two touching ordinary tunnels (never deep ones);
  a ruby mine covers one tunnel or deep tunnel. Furnished tunnels (Work room) stay.
- Covering a bonus space with a tile for the first time gives its reward (a wild boar,
  or 1 or 2 food from a spring); a stable built there earlier gave nothing.
- With the Office room a twin tile may overhang the board by one space (one half on the
  board); each overhanging twin gives 2 gold. Tiles that must cover existing tiles (the
  ore mine twin, pastures) never create overhang spaces; once covered, an overhang space
  is a space of the board like any other (our reading; the reference notes BGA allows no
  overhang for those tiles).

A :class:`Placement` names the tile and which kind lands on which space; its ``key``
(``"2,3+1,3"`` for a twin: the first-named half at the first position; ``"2,3"`` for a
single tile) is what prompts offer.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import cast

from engine.caverna.board import (
    BONUS_SPACES,
    FIRST_FOREST,
    FOREST_TILES,
    PRINTED,
    BoardSignature,
    HomeBoard,
    Pos,
    Tile,
    around,
    half_of,
    is_overhang,
    key,
    on_board,
    pos_of,
)
from engine.caverna.components import TWINS, components
from engine.caverna.memo import Memo
from engine.core.errors import IllegalMove

SINGLE_TILES: tuple[str, ...] = ("meadow", "field", "cavern", "tunnel", "ruby_mine")
OFFICE_ROOM = "office_room"
WORK_ROOM = "work_room"


@dataclass(frozen=True, slots=True)
class Placement:
    """A tile and where each of its halves lands: ``cells`` pairs a position with the
    kind of tile put there (one pair for a single tile, two for a twin). Plain data,
    never stored: a dataclass, many of which a search of a board makes."""

    tile: str
    cells: tuple[tuple[Pos, str], ...]
    # The placement's key in options (see the module), spelled once, by the maker when
    # it has the squares' keys at hand: every listing of a tile's places reads it, and
    # placements are kept by the board memos.
    key: str = field(default="", repr=False, compare=False)

    def __post_init__(self) -> None:
        if not self.key:
            object.__setattr__(self, "key", "+".join(key(pos) for pos, _ in self.cells))

    @property
    def positions(self) -> tuple[Pos, ...]:
        return tuple(pos for pos, _ in self.cells)

    @property
    def overhangs(self) -> bool:
        return any(not on_board(pos) for pos in self.positions)


# ----- the rules, one question each


def _forest_tiles(board: HomeBoard) -> frozenset[Pos]:
    """Positions holding a meadow, field or pasture (kept by the board until edited,
    ``HomeBoard.derived``: every candidate space is checked against the same set)."""
    return frozenset(
        p for k, s in board.spaces.items() if s.tile in FOREST_TILES and (p := pos_of(k))
    )


def _mountain_tiles(board: HomeBoard) -> frozenset[Pos]:
    """Positions of the mountain half holding a tile (kept by the board, as above)."""
    return frozenset(
        p for k, s in board.spaces.items()
        if s.tile is not None and (p := pos_of(k)) and half_of(p) == "mountain"
    )


def _forest_contact(
    board: HomeBoard, positions: tuple[Pos, ...], forest: frozenset[Pos] | None = None
) -> bool:
    """Does a new forest tile on ``positions`` keep the forest connected as the rules
    ask (in front of the entrance first, touching an earlier forest tile later)?
    ``forest`` is :func:`_forest_tiles` of ``board`` when the caller has it already."""
    existing = board.derived(_forest_tiles) if forest is None else forest
    if not existing:
        return FIRST_FOREST in positions
    # Every forest tile lies on a space of the board, so the spaces around need no
    # check that they are on it.
    return any(n in existing for p in positions for n in around(p))


def _mountain_contact(
    board: HomeBoard, positions: tuple[Pos, ...], mountain: frozenset[Pos] | None = None
) -> bool:
    """Does a new mountain tile on ``positions`` continue the cave system? ``mountain``
    is :func:`_mountain_tiles` of ``board`` when the caller has it already."""
    existing = board.derived(_mountain_tiles) if mountain is None else mountain
    return any(n in existing and n not in positions for p in positions for n in around(p))


def _free_space(board: HomeBoard, pos: Pos, half: str, overhang: bool) -> bool:
    """Can a new tile of ``half`` cover ``pos``: no tile there yet, and on the board (or
    a new overhang space when ``overhang``)."""
    if half_of(pos) != half:
        return False
    if on_board(pos) or key(pos) in board.spaces:
        return board.at(pos).tile is None
    return overhang and is_overhang(pos)


def _pair_candidates(half: str) -> tuple[tuple[Pos, str, Pos, str, bool], ...]:
    """Every pair of touching spaces of ``half`` a twin tile could ever cover, in the
    order the search meets them (printed spaces row by row, then the spaces around each):
    ``(pos, its key, other, its key, other is printed)``. An overhang space may only be
    the second (a covered overhang space holds a tile, so it is never free)."""
    found = []
    for pos in PRINTED:
        if half_of(pos) != half:
            continue
        for other in around(pos):
            if half_of(other) != half:
                continue
            if on_board(other):
                if other < pos:
                    continue  # a pair on the board is found from its smaller end
            elif not is_overhang(other):
                continue
            found.append((pos, key(pos), other, key(other), on_board(other)))
    return tuple(found)


_PAIR_CANDIDATES: dict[str, tuple[tuple[Pos, str, Pos, str, bool], ...]] = {
    half: _pair_candidates(half) for half in ("forest", "mountain")
}


# A pair of free spaces a twin tile may cover: each one's position, key and whether a
# stable stands there.
FreePair = tuple[Pos, str, bool, Pos, str, bool]


def _twin_pairs(board: HomeBoard, half: str, overhang: bool) -> Iterator[FreePair]:
    """Touching pairs of free spaces of one half (each unordered pair once, at most one
    of them off the board): the candidates whose spaces hold no tile yet (a new overhang
    space only when ``overhang``), one at a time (whether a tile fits at all is answered
    at the first pair that takes it)."""
    spaces = board.spaces
    for pos, pos_key, other, other_key, printed in _PAIR_CANDIDATES[half]:
        here = spaces.get(pos_key)
        if here is not None and here.tile is not None:
            continue
        there = spaces.get(other_key)
        if there is None:
            if not (printed or overhang):
                continue
        elif there.tile is not None:
            continue
        yield (pos, pos_key, here is not None and here.stable,
               other, other_key, there is not None and there.stable)


def twin_placements(board: HomeBoard, twin: str) -> list[Placement]:
    """Every legal way to lay the twin tile ``twin`` (``meadow_field``,
    ``cavern_tunnel``, ``cavern_cavern``, ``ore_mine_deep_tunnel``) on ``board``."""
    return list(_each_twin_placement(board, twin))


def _each_twin_placement(board: HomeBoard, twin: str) -> Iterator[Placement]:
    first, second = TWINS[twin]
    if twin == "ore_mine_deep_tunnel":
        yield from _each_ore_mine_placement(board)
        return
    overhang = board.has_furnishing(OFFICE_ROOM)
    half = "forest" if first in FOREST_TILES else "mountain"
    forest = board.derived(_forest_tiles) if half == "forest" else frozenset()
    mountain = board.derived(_mountain_tiles) if half == "mountain" else frozenset()
    for a, a_key, a_stable, b, b_key, b_stable in _twin_pairs(board, half, overhang):
        positions = (a, b)
        if half == "forest":
            if not _forest_contact(board, positions, forest):
                continue
        elif not _mountain_contact(board, positions, mountain):
            continue
        # Each way round (once for a tile of two equal halves). A stable may stand on
        # the meadow half, never on the field half.
        if not ((b_stable and second == "field") or (a_stable and first == "field")):
            yield Placement(twin, ((a, first), (b, second)), f"{a_key}+{b_key}")
        if first != second and not (
                (a_stable and second == "field") or (b_stable and first == "field")):
            yield Placement(twin, ((b, first), (a, second)), f"{b_key}+{a_key}")


def _each_ore_mine_placement(board: HomeBoard) -> Iterator[Placement]:
    tunnels = [p for p, s in board.stored() if s.tile == "tunnel" and s.furnishing is None]
    for a in tunnels:
        for b in tunnels:
            if b in board.neighbours(a):
                cells = ((a, "ore_mine"), (b, "deep_tunnel"))
                yield Placement(tile="ore_mine_deep_tunnel", cells=cells)


def single_placements(board: HomeBoard, tile: str, base: str | None = None) -> list[Placement]:
    """Every legal space for a single tile: ``meadow``, ``field``, ``cavern``, ``tunnel``
    (bought with rubies or taken as loot) or ``ruby_mine`` (``base`` may ask for a
    ``tunnel`` or a ``deep_tunnel`` beneath it)."""
    return list(_each_single_placement(board, tile, base))


def _each_single_placement(board: HomeBoard, tile: str, base: str | None
                           ) -> Iterator[Placement]:
    if tile not in SINGLE_TILES:
        raise ValueError(f"not a single tile: {tile}")
    forest = board.derived(_forest_tiles) if tile in ("meadow", "field") else frozenset()
    mountain = board.derived(_mountain_tiles) if tile in ("cavern", "tunnel") else frozenset()
    # A ruby mine goes on a tunnel: a stored space (listed in the same board order).
    for pos, space in board.stored() if tile == "ruby_mine" else board.items():
        if tile == "ruby_mine":
            bases = {base} if base else {"tunnel", "deep_tunnel"}
            ok = space.tile in bases and space.furnishing is None
        elif tile in ("meadow", "field"):
            ok = (
                _free_space(board, pos, "forest", False)
                and not (tile == "field" and space.stable)
                and _forest_contact(board, (pos,), forest)
            )
        else:
            ok = _free_space(board, pos, "mountain", False) and _mountain_contact(
                board, (pos,), mountain)
        if ok:
            yield Placement(tile=tile, cells=((pos, tile),))


def placements(board: HomeBoard, tile: str, base: str | None = None) -> list[Placement]:
    """Every legal placement of ``tile``: a twin (by its kind) or a single tile."""
    return list(_placements(board, tile, base))


def can_place(board: HomeBoard, tile: str, base: str | None = None) -> bool:
    """Could ``tile`` be laid on ``board`` at all? (Answered at the first placement
    found, unless they are all known already.)"""
    question = (board.signature(), tile, base)
    known = _PLACEMENTS.known(question)
    if known is not None:
        return bool(known)
    return _PLACEABLE.get(question, lambda: any(_each_placement(board, tile, base)))


# Memoised by the board: the same board is asked about for every action space while a
# dwarf is placed, again for the prompt, and again to lay the tile.
_PLACEMENTS: Memo[tuple[BoardSignature, str, str | None], tuple[Placement, ...]] = Memo()
_PLACEABLE: Memo[tuple[BoardSignature, str, str | None], bool] = Memo()


def _placements(board: HomeBoard, tile: str, base: str | None) -> tuple[Placement, ...]:
    return _PLACEMENTS.get((board.signature(), tile, base),
                           lambda: tuple(_each_placement(board, tile, base)))


def _each_placement(board: HomeBoard, tile: str, base: str | None) -> Iterator[Placement]:
    if tile in TWINS:
        return _each_twin_placement(board, tile)
    return _each_single_placement(board, tile, base)


def find_placement(board: HomeBoard, tile: str, text: str, base: str | None = None) -> Placement:
    """The legal placement of ``tile`` whose key is ``text``, or IllegalMove."""
    for placement in placements(board, tile, base):
        if placement.key == text:
            return placement
    raise IllegalMove("tile_not_here", tile=tile, at=text)


def rewards(board: HomeBoard, placement: Placement) -> dict[str, int]:
    """What laying ``placement`` gives: bonus spaces covered for the first time, and the
    Office room's gold for an overhanging twin."""
    gained: dict[str, int] = {}
    for pos in placement.positions:
        if board.at(pos).tile is None:
            for good, amount in BONUS_SPACES.get(pos, {}).items():
                gained[good] = gained.get(good, 0) + amount
    if placement.overhangs:
        office = components().furnishings[OFFICE_ROOM].effect("overhang")
        for good, amount in (office.goods() if office else {}).items():
            gained[good] = gained.get(good, 0) + amount
    return gained


def lay(board: HomeBoard, placement: Placement) -> dict[str, int]:
    """Lay a tile already found legal (by :func:`placements` or :func:`find_placement`)
    on ``board`` and return what it gives (see :func:`rewards`). Whatever covered a
    space before is replaced (a tunnel by a mine); a stable stays where it stood."""
    if placement not in placements(board, placement.tile, _base(board, placement)):
        raise IllegalMove("tile_not_here", tile=placement.tile, at=placement.key)
    gained = rewards(board, placement)
    for pos, tile in placement.cells:
        space = board.edit(pos)
        space.tile = cast(Tile, tile)
    return gained


def _base(board: HomeBoard, placement: Placement) -> str | None:
    if placement.tile != "ruby_mine":
        return None
    tile = board.at(placement.positions[0]).tile
    return tile if tile in ("tunnel", "deep_tunnel") else None


def ruby_mine_on_deep_tunnel(board: HomeBoard, placement: Placement) -> bool:
    """Does this ruby mine go on a deep tunnel (Ruby mine construction then gives a ruby)?"""
    if placement.tile != "ruby_mine":
        return False
    return board.at(placement.positions[0]).tile == "deep_tunnel"
