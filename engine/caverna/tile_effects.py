"""Reading a player's furnishing effects off the data: the small named functions the
flow, the feeding and the payments ask ("what does this player's furnishing do here?").

Each function interprets one effect key of ``data/furnishings.yaml`` (the keys are
documented in that file's header); none names a tile, so a tile's rules live in its data.

- ``on_gain``          goods a gain sets off (the Seam: 1 ore per stone; the Dog school:
                       1 wood per dog), whatever the gain's source, round income included;
- ``pay_with_ore``     the Builder's ways to pay a furnishing's bill with ore standing in
                       for 1 wood and/or 1 stone;
- ``overbuilds``       the Trader and the Spare part storage go on top of each other;
- ``slaughter_bonus``, ``feed_reduction``, ``feed_substitute``: the food tiles' numbers;
- ``either_or_is_and_or`` with ``once_per_game_on``: the Guest room's limit on Extension.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from itertools import combinations
from types import MappingProxyType

from engine.caverna.board import HomeBoard, Pos
from engine.caverna.components import Effect, components
from engine.caverna.state import Player


def effects_of(player: Player, key: str) -> tuple[Effect, ...]:
    """Every effect with ``key`` of the tiles on ``player``'s board (covered tiles have
    none: they are no longer on the board)."""
    return player.board.derived(_board_effects).get(key, ())


def _board_effects(board: HomeBoard) -> Mapping[str, tuple[Effect, ...]]:
    """The effects of ``board``'s tiles by key (kept by the board until edited)."""
    return _effects_by_key(board.furnished())


@lru_cache(maxsize=4096)
def _effects_by_key(furnished: tuple[str, ...]) -> Mapping[str, tuple[Effect, ...]]:
    """The effects of the tiles ``furnished`` (in that order) by key: a pure function of
    the tiles, asked after nearly every move (shared: never changed)."""
    tiles = components().furnishings
    out: dict[str, list[Effect]] = {}
    for tile_id in furnished:
        tile = tiles.get(tile_id)
        if tile is not None:
            for effect in tile.effects:
                out.setdefault(effect.key, []).append(effect)
    return MappingProxyType({k: tuple(v) for k, v in out.items()})


def has(player: Player, key: str) -> bool:
    """Does one of ``player``'s tiles have an effect with ``key``?"""
    return bool(effects_of(player, key))


# --- gains -----------------------------------------------------------------------------


def gain_bonus(player: Player, got: Mapping[str, int]) -> dict[str, int]:
    """Goods ``player``'s tiles add when ``got`` arrives (``on_gain``: ``goods`` for each
    one of ``good`` gained). The bonus itself sets nothing off (no chains)."""
    extra: dict[str, int] = {}
    for effect in effects_of(player, "on_gain"):
        trigger = effect.params.get("good")
        if isinstance(trigger, str) and got.get(trigger, 0) > 0:
            for good, n in effect.goods().items():
                extra[good] = extra.get(good, 0) + n * got[trigger]
    return extra


# --- paying for furnishings ------------------------------------------------------------


def ore_variants(player: Player, bill: Mapping[str, int]) -> list[dict[str, int]]:
    """``bill`` and the bills the Builder allows instead (``pay_with_ore``: 1 ore for 1
    of each good in ``replaces``, at most once each), the plain bill first, then one
    good replaced, then both. Affordability is the caller's question."""
    out = [dict(bill)]
    for effect in effects_of(player, "pay_with_ore"):
        replaces = [str(g) for g in effect.params.get("replaces") or () if bill.get(g, 0) > 0]
        for size in range(1, len(replaces) + 1):
            for chosen in combinations(replaces, size):
                variant = dict(bill)
                for good in chosen:
                    variant[good] -= 1
                variant["ore"] = variant.get("ore", 0) + len(chosen)
                variant = {g: n for g, n in variant.items() if n > 0}
                if variant not in out:
                    out.append(variant)
    return out


def replaced_by_ore(bill: Mapping[str, int], variant: Mapping[str, int]) -> list[str]:
    """The goods of ``bill`` that ore stands for in ``variant`` (``ore_variants``)."""
    return [g for g, n in bill.items() if g != "ore" and variant.get(g, 0) < n]


def overbuild_spot(player: Player, tile_id: str) -> Pos | None:
    """Where ``tile_id`` must go because it overbuilds a tile ``player`` owns (the
    Trader on the Spare part storage and back), or None."""
    tile = components().furnishings.get(tile_id)
    if tile is None:
        return None
    for effect in tile.effects:
        if effect.key == "overbuilds":
            spot = player.board.furnishing_at(str(effect.params.get("tile")))
            if spot is not None:
                return spot
    return None


# --- food ------------------------------------------------------------------------------


def slaughter_food(player: Player) -> int:
    """Extra food per farm animal turned into food (``slaughter_bonus``)."""
    return sum(int(e.params.get("food", 0)) for e in effects_of(player, "slaughter_bonus"))


def feeding_reduction(player: Player, mine_donkeys: int) -> int:
    """Food a feeding costs less (``feed_reduction`` per donkey in a mine)."""
    total = 0
    for effect in effects_of(player, "feed_reduction"):
        if effect.params.get("per") == "donkey_in_mine":
            total += int(effect.params.get("food", 0)) * mine_donkeys
    return total


def feed_substitutes(player: Player) -> dict[str, int]:
    """What one dwarf may be fed with instead of food at a feeding (``feed_substitute``):
    good -> amount (the Working cave: 1 wood, 1 stone or 2 ore)."""
    out: dict[str, int] = {}
    for effect in effects_of(player, "feed_substitute"):
        for option in effect.params.get("pay_one_of") or ():
            for good, n in dict(option).items():
                out[good] = min(out.get(good, int(n)), int(n))
    return out


# --- the Guest room -----------------------------------------------------------------------


def guest_once_spaces(player: Player) -> list[str]:
    """Spaces where the Guest room's "and/or" may be used only once per game."""
    out: list[str] = []
    for effect in effects_of(player, "either_or_is_and_or"):
        out += [str(s) for s in effect.params.get("once_per_game_on") or ()]
    return out


GUEST_ROOM_USED = "guest_room:"  # + space id: a once-per-game use recorded in Player.spent
