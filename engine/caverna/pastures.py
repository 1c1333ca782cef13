"""Fences and stables on the home board.

Rules (rulebook, "fence building" and "stable building"):

- Only a meadow can be fenced. A small pasture fences one meadow (2 wood), a large
  pasture two touching meadows (4 wood); one fencing action builds at most one of each.
  Pastures are never removed, split or joined. A stable standing on a meadow stays when
  the meadow is fenced.
- A stable (1 stone) goes on a forest space: bare forest, meadow or pasture — never a
  field, never in the mountain; at most one per space and three in all. A stable on bare
  forest needs no neighbouring tile. A stable on a bonus space gives nothing (a tile laid
  there later does, see ``landscape``).

Costs are left to the caller (discounts of the Carpenter, the Stone carver and loot);
these functions say where and change the board. Each validates before it changes
anything, so an IllegalMove leaves the board as it was.
"""

from __future__ import annotations

from engine.caverna.board import MAX_STABLES, HomeBoard, Pos, half_of, key, pos_of
from engine.core.errors import IllegalMove

STABLE_GROUND: frozenset[str | None] = frozenset({None, "meadow", "small_pasture", "large_pasture"})


def pasture_key(positions: tuple[Pos, ...]) -> str:
    """``"x,y"`` for a small pasture, ``"x,y+x,y"`` (smaller first) for a large one."""
    return "+".join(key(p) for p in sorted(positions))


def parse_pasture_key(text: str) -> tuple[Pos, ...] | None:
    """The positions a pasture key names (canonical spelling only), or None."""
    found: list[Pos] = []
    for part in text.split("+"):
        pos = pos_of(part)
        if pos is None:
            return None
        found.append(pos)
    if len(found) not in (1, 2) or pasture_key(tuple(found)) != text:
        return None
    return tuple(found)


# ----- stables


def stables_left(board: HomeBoard) -> int:
    return MAX_STABLES - len(board.stables)


def stable_spots(board: HomeBoard) -> list[Pos]:
    """Where a stable may be built now (none once all three stand)."""
    if stables_left(board) <= 0:
        return []
    return [
        pos
        for pos, space in board.items()
        if half_of(pos) == "forest" and not space.stable and space.tile in STABLE_GROUND
    ]


def build_stable(board: HomeBoard, pos: Pos) -> None:
    """Put a stable on ``pos``."""
    if stables_left(board) <= 0:
        raise IllegalMove("no_stable_left")
    if pos not in stable_spots(board):
        raise IllegalMove("stable_not_here", at=key(pos))
    board.edit(pos).stable = True


# ----- fences


def small_pasture_spots(board: HomeBoard) -> list[Pos]:
    """Meadows that may become a small pasture."""
    return board.where("meadow")


def large_pasture_spots(board: HomeBoard) -> list[tuple[Pos, Pos]]:
    """Pairs of touching meadows that may become a large pasture (smaller position
    first, each pair once)."""
    meadows = board.where("meadow")
    return [(a, b) for a in meadows for b in board.neighbours(a) if b in meadows and a < b]


def pasture_spots(board: HomeBoard, size: str) -> list[tuple[Pos, ...]]:
    """``size`` ``small`` or ``large``: where such a pasture may be fenced."""
    if size == "small":
        return [(p,) for p in small_pasture_spots(board)]
    return list(large_pasture_spots(board))


def fence_small(board: HomeBoard, pos: Pos) -> None:
    """Fence the meadow at ``pos`` into a small pasture."""
    if board.at(pos).tile != "meadow":
        raise IllegalMove("pasture_not_here", at=key(pos))
    board.edit(pos).tile = "small_pasture"


def fence_large(board: HomeBoard, a: Pos, b: Pos) -> None:
    """Fence the touching meadows ``a`` and ``b`` into one large pasture."""
    first, second = sorted((a, b))
    if (first, second) not in large_pasture_spots(board):
        raise IllegalMove("pasture_not_here", at=pasture_key((a, b)))
    for here, there in ((first, second), (second, first)):
        space = board.edit(here)
        space.tile = "large_pasture"
        space.partner = key(there)


def fence(board: HomeBoard, positions: tuple[Pos, ...]) -> str:
    """Fence one meadow (small) or two (large); returns ``small_pasture`` or
    ``large_pasture``."""
    if len(positions) == 1:
        fence_small(board, positions[0])
        return "small_pasture"
    if len(positions) == 2:
        fence_large(board, positions[0], positions[1])
        return "large_pasture"
    raise IllegalMove("pasture_not_here", at=pasture_key(positions))
