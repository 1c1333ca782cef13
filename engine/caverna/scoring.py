"""Final scoring and the winners, over explicit inputs (:class:`PlayerTally`).

The score pad's rows, in its order (rulebook, "end of the game and scoring"), with the
rates from ``tables.yaml`` (``scoring``, ``home_board.tile_points``):

1. every animal, farm animals and dogs alike: +1;
2. every kind of farm animal (sheep, donkey, wild boar, cattle) you have none of: −2;
3. grain, supply and fields together: ½ each, rounded up;
4. vegetables, supply and fields together: +1 each;
5. rubies: +1 each;
6. dwarfs: +1 each;
7. unused spaces, those with neither a tile nor a stable: −1 each (a lone stable makes a
   forest space used; unfurnished caverns and the two printed caverns are used);
8. the points printed on furnishing tiles, pastures (small 2, large 4) and mines (ore
   mine 3, ruby mine 4);
9. the yellow tiles' bonus (:mod:`engine.caverna.bonus_tiles`);
10. gold, less 3 per begging marker.

:data:`SCORE_SHEET` keeps that order but splits row 8 into furnishings, pastures and
mines and row 10 into gold and begging, so a player sees each part; :data:`PAD_ROWS`
folds the lines back into the pad's ten rows (their ids are ``tables.yaml``'s).

The Writing chamber cancels up to 7 negative points; the rulebook books what it cancels
against the negative rows themselves (missing animals, unused spaces, begging), taken
here in pad order. Trades allowed "before scoring" (the conversion parlors, Spare part
storage, Trader, rubies) are the game's business before it fills in a tally.

Equal totals share the win: the rulebook names no tie-breaker.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from engine.caverna.board import ENTRY_DWELLING, MINES, HomeBoard
from engine.caverna.bonus_tiles import bonus_points, cancel_limit
from engine.caverna.components import ANIMALS, FARM_ANIMALS, ScoreCategory, components


@dataclass(frozen=True)
class PlayerTally:
    """What one player has when scoring starts: the home board (fields, tiles,
    furnishings, stables), the supply's goods, all animals by kind (dogs included),
    the number of dwarfs and how many of them hold a weapon, and begging markers."""

    board: HomeBoard
    goods: Mapping[str, int]
    animals: Mapping[str, int]
    dwarfs: int
    armed: int = 0
    begging: int = 0

    def __post_init__(self) -> None:
        for what, amounts in (("goods", self.goods), ("animals", self.animals)):
            for name, amount in amounts.items():
                if amount < 0:
                    raise ValueError(f"{what}: {name} is {amount}")
        unknown = set(self.animals) - set(ANIMALS)
        if unknown:
            raise ValueError(f"unknown animals {sorted(unknown)}")
        if self.dwarfs < 0 or self.begging < 0 or not 0 <= self.armed <= self.dwarfs:
            raise ValueError(
                f"dwarfs {self.dwarfs}, armed {self.armed}, begging {self.begging}"
            )

    def good(self, name: str) -> int:
        """Goods of ``name`` in the supply."""
        return self.goods.get(name, 0)

    def animal(self, kind: str) -> int:
        return self.animals.get(kind, 0)

    @property
    def grain(self) -> int:
        """Grain in the supply and on fields."""
        return self.good("grain") + self.board.sown("grain")

    @property
    def vegetables(self) -> int:
        """Vegetables in the supply and on fields."""
        return self.good("vegetable") + self.board.sown("vegetable")

    @property
    def farm_animals(self) -> int:
        return sum(self.animal(k) for k in FARM_ANIMALS)


# ----- the pad's rates


def pad_row(row: str) -> ScoreCategory:
    """A row of the score pad as ``tables.yaml`` gives it."""
    for category in components().tables.scoring.categories:
        if category.id == row:
            return category
    raise KeyError(row)


def rate(row: str, count: int) -> int:
    """Points for ``count`` at the row's rate: ``points`` per ``every``, the last
    incomplete group rounded as the row says."""
    category = pad_row(row)
    groups = -(-count // category.every) if category.round == "up" else count // category.every
    return category.points * groups


# ----- the lines


def animals(t: PlayerTally) -> int:
    return rate("animals", sum(t.animal(k) for k in ANIMALS))


def missing_animals(t: PlayerTally) -> int:
    return rate("missing_animals", sum(1 for k in FARM_ANIMALS if not t.animal(k)))


def grain(t: PlayerTally) -> int:
    return rate("grain", t.grain)


def vegetables(t: PlayerTally) -> int:
    return rate("vegetables", t.vegetables)


def rubies(t: PlayerTally) -> int:
    return rate("rubies", t.good("ruby"))


def dwarfs(t: PlayerTally) -> int:
    return rate("dwarfs", t.dwarfs)


def unused_spaces(t: PlayerTally) -> int:
    return rate("unused_spaces", t.board.unused_spaces())


def furnishings(t: PlayerTally) -> int:
    """Points printed on the furnishing tiles (the printed entry-level dwelling has
    none; a tile overbuilt by another is no longer on the board)."""
    tiles = components().furnishings
    return sum(tiles[f].points for f in t.board.furnishings if f != ENTRY_DWELLING)


def pastures(t: PlayerTally) -> int:
    """Small pastures 2, large ones 4, whatever they hold."""
    points = components().tables.home_board.tile_points
    return sum(points[t.board.at(spaces[0]).tile or ""] for spaces in t.board.pastures())


def mines(t: PlayerTally) -> int:
    """Ore mines 3, ruby mines 4, donkeys or not."""
    points = components().tables.home_board.tile_points
    return sum(points[mine] * t.board.count(mine) for mine in sorted(MINES))


def bonus(t: PlayerTally) -> int:
    return sum(bonus_points(t).values())


def gold(t: PlayerTally) -> int:
    return rate("gold_begging", t.good("gold"))


def begging(t: PlayerTally) -> int:
    return pad_row("gold_begging").begging * t.begging


LINES: dict[str, Callable[[PlayerTally], int]] = {
    "animals": animals,
    "missing_animals": missing_animals,
    "grain": grain,
    "vegetables": vegetables,
    "rubies": rubies,
    "dwarfs": dwarfs,
    "unused_spaces": unused_spaces,
    "furnishings": furnishings,
    "pastures": pastures,
    "mines": mines,
    "bonus": bonus,
    "gold": gold,
    "begging": begging,
}

# The breakdown's keys in score-pad order (for the bot's manifest).
SCORE_SHEET: tuple[str, ...] = tuple(LINES)

# The pad's ten rows (ids as in tables.yaml) and the lines each one adds up.
PAD_ROWS: dict[str, tuple[str, ...]] = {
    "animals": ("animals",),
    "missing_animals": ("missing_animals",),
    "grain": ("grain",),
    "vegetables": ("vegetables",),
    "rubies": ("rubies",),
    "dwarfs": ("dwarfs",),
    "unused_spaces": ("unused_spaces",),
    "tiles": ("furnishings", "pastures", "mines"),
    "bonus": ("bonus",),
    "gold_begging": ("gold", "begging"),
}

# The rows whose negative points the Writing chamber may cancel, in the order it does.
CANCELLABLE: tuple[str, ...] = ("missing_animals", "unused_spaces", "begging")


def cancel_negative(lines: dict[str, int], limit: int) -> dict[str, int]:
    """``lines`` with up to ``limit`` negative points cancelled, row by row."""
    out = dict(lines)
    for line in CANCELLABLE:
        cancelled = min(limit, max(0, -out[line]))
        out[line] += cancelled
        limit -= cancelled
    return out


def score(tally: PlayerTally) -> dict[str, int]:
    """Every line of the final score, keyed and ordered as :data:`SCORE_SHEET`; the
    total is their sum."""
    lines = {name: line(tally) for name, line in LINES.items()}
    return cancel_negative(lines, cancel_limit(tally.board.furnishings))


def pad(breakdown: Mapping[str, int]) -> dict[str, int]:
    """A breakdown folded into the printed pad's ten rows."""
    return {row: sum(breakdown[line] for line in parts) for row, parts in PAD_ROWS.items()}


def winners(totals: Sequence[int]) -> list[int]:
    """The seats with the highest total; equal totals share the win (rulebook: with
    equal points the game has several winners; ``tables.yaml``: ``tie: shared``)."""
    if not totals:
        return []
    best = max(totals)
    return [seat for seat, total in enumerate(totals) if total == best]
