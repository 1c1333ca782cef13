"""What a furnishing tile is worth to the greedy autopilot: on the board, and before it
is laid (a choice of tiles, a tile chosen but not yet paid for).

A laid tile's printed points and yellow bonus are on the score sheet already; what the
sheet cannot see is an ability's use in the rounds left (:func:`ability_worth`, a rough
rate per effect key of ``furnishings.yaml``). Before a tile is laid its whole gain is
guessed (:func:`tile_gain`): points, bonus as the seat's holdings would score it now,
the ability, the room a dwelling makes, goods it gives at once, less its price and the
cavern it fills.
"""

from __future__ import annotations

from collections.abc import Callable

from engine.caverna.bonus_tiles import formula_points
from engine.caverna.components import Effect, Furnishing, components
from engine.caverna.spaces import furnish_choices, furnish_cost
from engine.caverna.state import CavernaState, Player
from engine.caverna.valuation import (
    EMPTY_CAVERN,
    TIERS,
    Horizon,
    change_worth,
    fade,
    room_gain,
)
from engine.caverna.view import tally

Rate = Callable[[Effect, Player, Horizon], float]


def _per_round(each: float, cap: float) -> Rate:
    def rate(effect: Effect, player: Player, h: Horizon) -> float:
        return min(cap, each * h.rounds)

    return rate


def _per_harvest(each: float) -> Rate:
    def rate(effect: Effect, player: Player, h: Horizon) -> float:
        return each * h.harvests

    return rate


def _flat(value: float) -> Rate:
    def rate(effect: Effect, player: Player, h: Horizon) -> float:
        return value * fade(h)

    return rate


def _holds(effect: Effect, player: Player, h: Horizon) -> float:
    per = effect.params.get("per")
    capacity = len(player.dwarfs) if per == "dwarf" else int(effect.params.get("capacity", 1))
    return 0.35 * min(capacity, 4) * fade(h)


def _miner(effect: Effect, player: Player, h: Horizon) -> float:
    mines = player.board.count("ore_mine")
    return 0.5 * h.rounds * min(mines, player.animals["donkey"]) + 0.1 * h.rounds


# Future use of each ability, by effect key. Keys whose worth shows elsewhere are absent:
# room (the family term), bonus and cancel_negative (the sheet), future_income (the
# goods promised on later rounds), on_build and on_build_per (goods at once), overbuilds.
ABILITY: dict[str, Rate] = {
    "holds": _holds,
    "holds_on_fields": _flat(0.6),
    "furnish_tunnels": _flat(1.0),
    "either_or_is_and_or": _flat(1.0),
    "overhang": _flat(0.4),
    "discount": _per_round(0.35, 2.5),
    "round_income": _miner,
    "convert": _flat(0.6),
    "on_gain": _per_round(0.25, 2.5),
    "on_birth": _per_harvest(0.15),
    "slaughter_bonus": _per_harvest(0.25),
    "feed_substitute": _per_harvest(0.6),
    "feed_reduction": _per_harvest(0.3),
    "breed_bonus": _per_harvest(0.25),
    "weapon_to_food": _flat(0.6),
    "pay_with_ore": _flat(0.8),
}


def ability_worth(tile: Furnishing, player: Player, h: Horizon) -> float:
    """The tile's abilities for the rounds left."""
    if h.rounds == 0:
        return 0.0
    total = 0.0
    for effect in tile.effects:
        rate = ABILITY.get(effect.key)
        if rate is not None:
            total += rate(effect, player, h)
    return total


def abilities_worth(player: Player, h: Horizon) -> float:
    """Every laid tile's abilities for the rounds left."""
    tiles = components().furnishings
    return sum(ability_worth(tiles[f], player, h) for f in player.board.furnishings
               if f in tiles)


def _bonus_now(tile: Furnishing, player: Player) -> float:
    """The yellow bonus as the seat's holdings would score it now (a free cavern next
    to the entry dwelling standing in for where the tile would lie)."""
    total = 0.0
    for effect in tile.effects:
        if effect.key == "bonus":
            spots = player.board.empty_caverns()
            at = spots[0] if spots else (0, 0)
            total += formula_points(effect, tally(player), at)
        elif effect.key == "cancel_negative":
            total += 0.5 * int(effect.params.get("points", 0))
    return total


def _once(tile: Furnishing, player: Player, h: Horizon) -> float:
    """Goods the tile gives when laid, and promises on later rounds."""
    total = 0.0
    for effect in tile.effects:
        if effect.key == "on_build":
            total += change_worth(player, effect.goods(), h)
        elif effect.key == "on_build_per":
            per = str(effect.params.get("per"))
            count = player.animals.get(per, 0) if per in player.animals else 1
            total += change_worth(player, {g: n * count for g, n in effect.goods().items()}, h)
        elif effect.key == "future_income":
            rounds = min(h.rounds, int(effect.params.get("rounds", 0)))
            for good, n in effect.goods().items():
                total += 0.8 * rounds * n * (TIERS[good][0][1] + (good == "ruby"))
    return total


def tile_gain(state: CavernaState, seat: int, tile_id: str, h: Horizon,
              scope: str = "any", paid: bool = False) -> float:
    """Guessed gain of laying ``tile_id`` now (its price included unless ``paid``)."""
    player = state.players[seat]
    tile = components().furnishings[tile_id]
    value = tile.points + ability_worth(tile, player, h) + _once(tile, player, h)
    if tile.kind == "yellow":
        # A bonus counted while many rounds remain may not last (or may grow).
        value += _bonus_now(tile, player) * (0.7 if h.rounds > 4 else 1.0)
    if tile.dwarf_room:
        sixth = tile.effect("room")
        if not (sixth and sixth.params.get("sixth_only")):
            value += room_gain(player, tile.dwarf_room, h)
    caverns = len(player.board.empty_caverns())
    if caverns and tile.effect("overbuilds") is None:
        value -= EMPTY_CAVERN[min(caverns - 1, len(EMPTY_CAVERN) - 1)] * fade(h)
    if not paid:
        cost = furnish_cost(player, tile_id, scope)
        value += change_worth(player, {g: -n for g, n in cost.items()}, h)
    return value


def best_furnishing(state: CavernaState, seat: int, scope: str, h: Horizon,
                    block: int | None = None) -> float:
    """The best guessed gain among the tiles ``seat`` could furnish now (0: none)."""
    tiles = components().furnishings
    gains = [
        tile_gain(state, seat, t, h, scope)
        for t in furnish_choices(state, seat, scope)
        if block is None or tiles[t].block == block
    ]
    return max(gains, default=0.0)
