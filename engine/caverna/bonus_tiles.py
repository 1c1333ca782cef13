"""The yellow tiles' end-game bonus: parlors, storages and chambers.

A yellow tile's formula is data (``furnishings.yaml``, effect ``bonus``), in one of
three shapes:

- ``per`` + ``every`` + ``points``: ``points`` for each full ``every`` of a count
  (Weaving parlor: 1 per 2 sheep; Main storage: 2 per yellow tile);
- ``per`` + ``table``: the points of the highest count in the table that is reached
  (Broom chamber: 5 dwarfs 5, 6 dwarfs 10);
- ``condition`` + ``points``: all or nothing (Prayer chamber: 8 if no dwarf is armed).

This module names the counts (:data:`COUNTS`) and conditions (:data:`CONDITIONS`) those
formulas use; a formula naming anything else is an error in the data. The rulebook
scores every such bonus on the pad's row for parlors, storages and chambers, even when it
counts something another row already counts (the Weaving parlor's sheep score twice).

The Writing chamber gives no bonus: it cancels negative points (:func:`cancel_limit`,
applied by :mod:`engine.caverna.scoring`). The conversion parlors and the Spare part
storage have no bonus either: their trades happen before scoring.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from engine.caverna.board import ENTRY_DWELLING, Pos
from engine.caverna.components import Effect, components

if TYPE_CHECKING:
    from engine.caverna.scoring import PlayerTally

Count = Callable[["PlayerTally", Pos], int]
Condition = Callable[["PlayerTally"], bool]


def is_dwelling(furnishing: str | None) -> bool:
    """Is ``furnishing`` a dwelling (the printed entry-level dwelling included)?"""
    if furnishing is None:
        return False
    if furnishing == ENTRY_DWELLING:
        return True
    return components().furnishings[furnishing].is_dwelling


def is_yellow(furnishing: str) -> bool:
    """Does ``furnishing`` carry a yellow name tag (a parlor, storage or chamber)?"""
    tile = components().furnishings.get(furnishing)
    return tile is not None and tile.kind == "yellow"


# ----- counts: (tally, where the scoring tile lies) -> a number


def _animal(kind: str) -> Count:
    def count(tally: PlayerTally, at: Pos) -> int:
        return tally.animal(kind)

    return count


def _good(name: str) -> Count:
    def count(tally: PlayerTally, at: Pos) -> int:
        return tally.good(name)

    return count


def dwarfs(tally: PlayerTally, at: Pos) -> int:
    return tally.dwarfs


def armed_dwarfs(tally: PlayerTally, at: Pos) -> int:
    """Dwarfs holding a weapon, whatever its strength."""
    return tally.armed


def farm_animals(tally: PlayerTally, at: Pos) -> int:
    """Sheep, donkeys, wild boars and cattle; dogs are not farm animals."""
    return tally.farm_animals


def yellow_tiles(tally: PlayerTally, at: Pos) -> int:
    """Yellow tiles on the board, the scoring tile itself included."""
    return sum(1 for f in tally.board.furnishings if is_yellow(f))


def grain_vegetable_pairs(tally: PlayerTally, at: Pos) -> int:
    """Pairs of 1 grain and 1 vegetable, supply and fields together."""
    return min(tally.grain, tally.vegetables)


def adjacent_dwellings(tally: PlayerTally, at: Pos) -> int:
    """Dwellings on the spaces orthogonally next to the tile (entry-level one included)."""
    board = tally.board
    return sum(1 for p in board.neighbours(at) if is_dwelling(board.at(p).furnishing))


COUNTS: dict[str, Count] = {
    "sheep": _animal("sheep"),
    "cattle": _animal("cattle"),
    "farm_animal": farm_animals,
    "stone": _good("stone"),
    "ore": _good("ore"),
    "ruby": _good("ruby"),
    "dwarf": dwarfs,
    "armed_dwarf": armed_dwarfs,
    "yellow_tile": yellow_tiles,
    "grain_vegetable_pair": grain_vegetable_pairs,
    "adjacent_dwelling": adjacent_dwellings,
}


# ----- conditions


def all_dwarfs_armed(tally: PlayerTally) -> bool:
    return tally.dwarfs > 0 and tally.armed == tally.dwarfs


def no_dwarf_armed(tally: PlayerTally) -> bool:
    return tally.armed == 0


CONDITIONS: dict[str, Condition] = {
    "all_dwarfs_armed": all_dwarfs_armed,
    "no_dwarf_armed": no_dwarf_armed,
}


# ----- formulas


def formula_points(bonus: Effect, tally: PlayerTally, at: Pos) -> int:
    """The points of one ``bonus`` effect for the tile lying at ``at``."""
    params = bonus.params
    if "condition" in params:
        return int(params["points"]) if CONDITIONS[params["condition"]](tally) else 0
    count = COUNTS[params["per"]](tally, at)
    if "table" in params:
        reached = [int(p) for n, p in params["table"].items() if count >= int(n)]
        return max(reached, default=0)
    return count // int(params.get("every", 1)) * int(params["points"])


def bonus_points(tally: PlayerTally) -> dict[str, int]:
    """Each yellow bonus tile on the board and its points, in board order (a tile that
    scores nothing is listed with 0: the pad has a line for each tile)."""
    tiles = components().furnishings
    found: dict[str, int] = {}
    for pos, space in tally.board.stored():
        tile = tiles.get(space.furnishing or "")
        bonus = tile.effect("bonus") if tile is not None else None
        if tile is not None and bonus is not None:
            found[tile.id] = formula_points(bonus, tally, pos)
    return found


def cancel_limit(furnishings: list[str]) -> int:
    """How many negative points the tiles among ``furnishings`` cancel (Writing chamber)."""
    tiles = components().furnishings
    limit = 0
    for furnishing in furnishings:
        tile = tiles.get(furnishing)
        effect = tile.effect("cancel_negative") if tile is not None else None
        if effect is not None:
            limit += int(effect.params["points"])
    return limit
