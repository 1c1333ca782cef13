"""What a seat's holdings will still be worth, beyond the points they score now.

The greedy autopilot (:mod:`engine.caverna.heuristic`) adds these terms to the score
sheet. Each is a guess in points, written so that the difference between two positions
one decision apart says which decision is better:

- goods in the supply, at rates that fall as a pile grows (the tenth wood builds less
  than the first) and vanish as the game runs out of rounds to use them;
- each dwarf for the work it will still do, less the food it will eat; room for a
  newborn at a share of that (a dwelling is worth the family it lets grow);
- weapons while expeditions remain; the furnishings' abilities for the rounds left
  (a supplier's goods still to come, a discount, an animal room);
- sown fields and empty fields ready to sow; animals beyond their point (food, breeding);
- food security: a penalty for each food the next feeding would lack, heavy when that
  feeding ends this round (begging costs 3 points), lighter when rounds remain to find it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from engine.caverna.components import FARM_ANIMALS, components
from engine.caverna.family import max_dwarfs, room
from engine.caverna.feeding import FOOD_VALUES, food_needed
from engine.caverna.state import CavernaState, Player

# Worth beyond the sheet of each unit of a good, by tiers: (units, worth each), the last
# tier open-ended. Wood and stone build dwellings (4 + 3), rooms and fences; ore arms
# dwarfs; grain and vegetables are sown or eaten; a ruby stands for anything.
TIERS: dict[str, tuple[tuple[int, float], ...]] = {
    "wood": ((5, 1.0), (6, 0.5), (0, 0.1)),
    "stone": ((4, 1.0), (5, 0.5), (0, 0.1)),
    "ore": ((4, 0.6), (6, 0.3), (0, 0.08)),
    "grain": ((3, 0.8), (0, 0.4)),
    "vegetable": ((2, 0.9), (0, 0.5)),
    "ruby": ((0, 0.5),),
    "food": ((0, 0.45),),
}
MATERIALS = frozenset({"wood", "stone", "ore"})
ANIMAL_EXTRA = 0.5     # a farm animal beyond its point: food in need, young in time
DOG_EXTRA = 0.1
INCOME_SHARE = 0.8     # goods promised on later rounds (the suppliers), against goods now
DWARF_WORK = 3.5       # what one dwarf's action brings in a round still to come
UPKEEP = 1.4           # the food one dwarf eats at a later harvest (2 food), in points
ROOM_SHARE = 0.7       # a free place in a dwelling: this share of a newborn's worth
ARMED = 1.5            # an armed dwarf, per round left up to WEAPON_ROUNDS
WEAPON_ROUNDS = 4
STRENGTH = 0.35        # per point of weapon strength (deeper loot), while rounds remain
EMPTY_CAVERN = (1.0, 0.7, 0.3)   # the first, second, further unfurnished caverns
EMPTY_FIELD = 0.4      # an empty field with seed at hand
SOWN_EXTRA = 0.7       # per crop on a field beyond its points (food at harvests)
HUNGER_NOW = 5.5       # per food this round's feeding would lack (a begging marker is 3)
HUNGER_NEXT = 2.4      # ... the next round's feeding
HUNGER_LATER = 1.0     # ... a feeding two or more rounds away
HUNGER_PER_WORKER = 1.5  # this round's: less for each dwarf still free to fetch food


@dataclass(frozen=True, slots=True)
class Horizon:
    """How much of the game is left: ``rounds`` after this one, ``harvests`` among
    them (feedings counted), ``feed_in`` rounds until the next feeding (0: this
    round's), ``per_dwarf`` the food each dwarf eats then."""

    rounds: int
    harvests: int
    feed_in: int | None
    per_dwarf: int


def horizon(state: CavernaState, fed: bool = False) -> Horizon:
    """The rounds and feedings still to come (``fed``: this round's feeding is over for
    the seat in question)."""
    later = [r for r in state.rounds if r > state.round]
    fixed = components().tables.harvest.fixed
    feeds = [r for r in later if fixed.get(r, "harvest") != "none"]
    feed_in: int | None = None
    per = components().tables.harvest.food_per_dwarf
    if state.phase in ("final", "over"):
        return Horizon(0, 0, None, per)
    if not fed and state.harvest != "none" and state.phase in ("start", "work", "harvest"):
        feed_in = 0
        if state.harvest == "feed1":
            per = components().tables.harvest.food_per_dwarf_feed_one
    elif feeds:
        feed_in = later.index(feeds[0]) + 1
        if fixed.get(feeds[0]) == "feed_one":
            per = components().tables.harvest.food_per_dwarf_feed_one
    return Horizon(len(later), len(feeds), feed_in, per)


def tiered(good: str, amount: int) -> float:
    """Worth of ``amount`` units of ``good`` by its tiers (0 for goods without)."""
    total = 0.0
    left = amount
    for size, each in TIERS.get(good, ()):
        take = left if size == 0 else min(left, size)
        total += take * each
        left -= take
        if left <= 0:
            break
    return total


def fade(h: Horizon) -> float:
    """Share of a material's worth left: it needs actions to be spent."""
    return min(1.0, (h.rounds + 1) / 4)


def goods_worth(goods: Mapping[str, int], h: Horizon) -> float:
    """The supply's worth beyond its points."""
    if h.rounds == 0 and h.feed_in is None:
        return 0.0
    total = 0.0
    for good, amount in goods.items():
        if amount <= 0 or good not in TIERS:
            continue
        worth = tiered(good, amount)
        total += worth * fade(h) if good in MATERIALS else worth
    return total


def income_worth(player: Player, state: CavernaState, h: Horizon) -> float:
    """Goods lying on later rounds for ``player`` (the suppliers)."""
    total = 0.0
    for r, goods in player.income.items():
        if r <= state.round:
            continue
        for good, n in goods.items():
            total += n * (TIERS.get(good, ((0, 0.5),))[0][1] + (1.0 if good == "ruby" else 0.0))
    return total * INCOME_SHARE


def dwarf_worth(h: Horizon) -> float:
    """One more dwarf, beyond its point: its work in the rounds left, less its food."""
    return max(0.0, DWARF_WORK * h.rounds - UPKEEP * h.harvests)


def room_term(free: int, h: Horizon) -> float:
    """Worth of ``free`` places in dwellings while the family may still grow (a second
    place is worth less: two growths are harder to come by)."""
    if free <= 0 or h.rounds <= 1:
        return 0.0
    later = dwarf_worth(Horizon(h.rounds - 1, max(0, h.harvests - 1), None, h.per_dwarf))
    return ROOM_SHARE * (1 + 0.5 * (free - 1)) * later


def free_room(player: Player, extra: int = 0) -> int:
    """Places for newborns: the dwellings' room (plus ``extra``) up to the family's limit."""
    return min(room(player) + extra, max_dwarfs(player)) - len(player.dwarfs)


def family_worth(player: Player, h: Horizon) -> float:
    """The dwarfs' future work, and free room for newborns while the family may grow."""
    return dwarf_worth(h) * len(player.dwarfs) + room_term(free_room(player), h)


def weapons_worth(player: Player, h: Horizon) -> float:
    """Armed dwarfs and their strength, while rounds are left for expeditions."""
    if h.rounds == 0:
        return 0.0
    armed = [d.weapon for d in player.dwarfs if d.weapon]
    rounds = min(h.rounds, WEAPON_ROUNDS)
    return len(armed) * ARMED * rounds / 2 + STRENGTH * sum(armed) * min(1.0, h.rounds / 3)


def board_worth(player: Player, h: Horizon) -> float:
    """Empty caverns to furnish, fields ready to sow, crops still to harvest."""
    board = player.board
    value = 0.0
    if h.rounds:
        caverns = len(board.empty_caverns())
        for i in range(caverns):
            value += EMPTY_CAVERN[min(i, len(EMPTY_CAVERN) - 1)] * fade(h)
        seed = player.goods["grain"] + player.goods["vegetable"]
        empty = sum(1 for p in board.fields() if board.at(p).crop is None)
        value += EMPTY_FIELD * min(empty, seed) * fade(h)
    crops = sum(board.at(p).crop_count for p in board.fields() if board.at(p).crop)
    value += SOWN_EXTRA * crops * (1.0 if h.harvests else 0.0)
    return value


def animals_worth(player: Player, h: Horizon) -> float:
    """Animals beyond their point: food when short, young at harvests."""
    if h.rounds == 0 and h.feed_in is None:
        return 0.0
    farm = sum(player.animals[k] for k in FARM_ANIMALS)
    return ANIMAL_EXTRA * farm + DOG_EXTRA * player.animals.get("dog", 0)


def food_at_hand(player: Player, harvest_now: bool) -> int:
    """Food the next feeding could be paid with: food, crops and animals at their
    printed rates, gold, and this round's field yield when a harvest comes first."""
    goods = player.goods
    total = goods["food"]
    for name, rate in FOOD_VALUES.items():
        total += (goods.get(name, 0) + player.animals.get(name, 0)) * rate
    if goods["gold"] >= 2:
        total += goods["gold"] - 1
    if harvest_now:
        board = player.board
        total += sum(1 for p in board.fields() if board.at(p).crop)
    return total


def shortfall(state: CavernaState, seat: int, h: Horizon) -> tuple[int, int]:
    """Food the next feeding would lack with what ``seat`` holds now, and what the
    feeding after it would lack on top (both 0 when none is to come)."""
    if h.feed_in is None:
        return 0, 0
    player = state.players[seat]
    # By a later feeding every newborn is grown up.
    need = (len(player.dwarfs) * h.per_dwarf if h.feed_in > 0
            else food_needed(player, h.per_dwarf))
    fields_first = h.feed_in > 0 or state.harvest in ("harvest", "choice")
    have = food_at_hand(player, fields_first)
    first = max(0, need - have)
    if h.harvests - (h.feed_in > 0) <= 0:
        return first, 0
    later = len(player.dwarfs) * components().tables.harvest.food_per_dwarf
    return first, max(0, need + later - have) - first


def hunger_weight(h: Horizon, at_home: int = 0) -> float:
    """What each food missing at the next feeding costs, by how near it is; this
    round's feeding weighs less while ``at_home`` dwarfs may still fetch food (the
    last one must)."""
    if h.feed_in is None:
        return 0.0
    if h.feed_in == 0:
        return max(HUNGER_NEXT, HUNGER_NOW - HUNGER_PER_WORKER * at_home)
    return HUNGER_NEXT if h.feed_in == 1 else HUNGER_LATER


# --- changes: what a gain or a payment is worth -------------------------------------

# Points the sheet gives per unit of a good in the supply (grain: half a point).
SHEET_POINTS: dict[str, float] = {"grain": 0.5, "vegetable": 1.0, "ruby": 1.0, "gold": 1.0}


def change_worth(player: Player, change: Mapping[str, int], h: Horizon) -> float:
    """Points and worth that adding ``change`` (negative amounts: paying) to the supply
    would bring; farm animals are counted as kept (1 point, a new kind 2 more)."""
    total = 0.0
    goods = player.goods
    for good, n in change.items():
        if not n:
            continue
        if good in FARM_ANIMALS:
            have = player.animals[good]
            total += n * (1 + ANIMAL_EXTRA)
            if have == 0 and n > 0:
                total += 2  # the missing-kind penalty lifted
            elif have + n <= 0 < have:
                total -= 2
            continue
        if good == "dog":
            total += n * (1 + DOG_EXTRA)
            continue
        have = goods.get(good, 0)
        worth = tiered(good, max(0, have + n)) - tiered(good, have)
        if good in MATERIALS:
            worth *= fade(h)
        total += worth + SHEET_POINTS.get(good, 0.0) * n
    return total


def growth_gain(player: Player, h: Horizon) -> float:
    """A newborn: its point and future work (from the next round on), less the place
    it fills."""
    free = free_room(player)
    return 1 + dwarf_worth(h) + room_term(free - 1, h) - room_term(free, h)


def room_gain(player: Player, extra: int, h: Horizon) -> float:
    """Worth of ``extra`` more room for dwarfs (a new dwelling)."""
    return room_term(free_room(player, extra), h) - room_term(free_room(player), h)
