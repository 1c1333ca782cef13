"""Food: turning goods into food, paying bills, and feeding the family.

Conversions (rulebook, "turning goods into food"; any time, without limit): grain 1,
vegetable 2, sheep 1, donkey 1 (two donkeys together 3), wild boar 2, cattle 3, ruby 2
(a ruby buys a boar or a vegetable worth 2), and gold: N gold give N − 1 food. Dogs and
building materials give nothing.

Rubies are wild: 1 ruby stands for 1 wood, stone, ore, grain, vegetable or gold when a
bill asks for it (the rulebook names gold among the goods a ruby is traded for).

The engine never lists every way to pay. For materials the only sensible way is unique
(own goods first, a ruby for each one missing). For food it offers the *cheapest* ways:
the cover that costs the fewest end-game points, and for each kind that cover uses the
cheapest cover without that kind. Costs are counted in quarter points: a grain ½ (two
grain score 1), a vegetable or a gold 1, a ruby a little more than 1 (it could have
been anything), a farm animal 1, or 3 if it is the last of its kind (the missing-kind
penalty).

Feeding: 2 food per dwarf, 1 for a dwarf born this round (1 for everyone in a
"feed 1" harvest). What cannot be paid is begged for: one begging marker (−3) per
missing food.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from functools import cache, lru_cache

from engine.caverna.components import FARM_ANIMALS, components
from engine.caverna.state import CavernaState, Player
from engine.caverna.tile_effects import feed_substitutes, feeding_reduction, slaughter_food
from engine.core.keys import parse_number
from engine.core.prompts import Event

FOOD_VALUES: dict[str, int] = dict(components().tables.food_values)
DONKEY_PAIR_FOOD = components().tables.donkey_pair_food
# Display order of the kinds a payment may convert.
CONVERTIBLE: tuple[str, ...] = (
    "grain", "vegetable", "ruby", "gold", "sheep", "donkey", "wild_boar", "cattle",
)
RUBY_STANDS_FOR: frozenset[str] = frozenset(
    g for g in components().tables.ruby_buys if g in components().tables.goods
)

Conversion = dict[str, int]


def slaughter_bonus(player: Player) -> int:
    """Extra food per farm animal turned into food (the Slaughtering cave)."""
    return slaughter_food(player)


def food_from(kind: str, count: int, bonus: int = 0) -> int:
    """Food that ``count`` of ``kind`` give when converted together."""
    if count <= 0:
        return 0
    if kind == "gold":
        return components().tables.food_for_gold(count)
    extra = bonus * count if kind in FARM_ANIMALS else 0
    if kind == "donkey":
        return DONKEY_PAIR_FOOD * (count // 2) + count % 2 + extra
    return FOOD_VALUES[kind] * count + extra


# Each convertible kind, and whether it is a farm animal (kept with the animals).
_CONVERTIBLE_ANIMAL: tuple[tuple[str, bool], ...] = tuple(
    (kind, kind in FARM_ANIMALS) for kind in CONVERTIBLE)


def holdings(player: Player, reserved: Mapping[str, int] | None = None) -> dict[str, int]:
    """What ``player`` could convert, less ``reserved`` (goods a bill already takes)."""
    reserved = reserved or {}
    goods, animals = player.goods, player.animals
    out = {}
    for kind, animal in _CONVERTIBLE_ANIMAL:  # read on every feeding and food payment
        have = (animals if animal else goods)[kind] - reserved.get(kind, 0)
        out[kind] = have if have > 0 else 0
    return out


def _unit_cost(kind: str, count: int, have: int) -> int:
    """Quarter points lost converting ``count`` of ``kind`` out of ``have``."""
    if kind == "grain":
        return 2 * count
    cost = (5 if kind == "ruby" else 4) * count
    if kind in FARM_ANIMALS and count == have and count > 0:
        cost += 8
    return cost


def _cheapest(
    have: tuple[tuple[str, int], ...], need: int, bonus: int
) -> tuple[int, tuple[tuple[str, int], ...]] | None:
    return _search(have, 0, need, bonus)


@cache
def _search(
    have: tuple[tuple[str, int], ...], index: int, need: int, bonus: int
) -> tuple[int, tuple[tuple[str, int], ...]] | None:
    if need <= 0:
        return 0, ()
    if index >= len(have):
        return None
    kind, avail = have[index]
    best: tuple[int, tuple[tuple[str, int], ...]] | None = None
    for count in range(avail + 1):
        got = food_from(kind, count, bonus)
        rest = _search(have, index + 1, need - got, bonus)
        if rest is not None:
            cost = _unit_cost(kind, count, avail) + rest[0]
            used = ((kind, count), *rest[1]) if count else rest[1]
            if best is None or cost < best[0]:
                best = (cost, used)
        if got >= need:
            break
    return best


def covers(have: Mapping[str, int], need: int, bonus: int = 0, limit: int = 5) -> list[Conversion]:
    """The cheapest ways to get ``need`` food out of ``have`` (see the module notes)."""
    if need <= 0:
        return [{}]
    found: list[tuple[int, Conversion]] = []

    def add(banned: Iterable[str]) -> tuple[int, Conversion] | None:
        items = tuple((k, have.get(k, 0)) for k in CONVERTIBLE if k not in banned)
        result = _cheapest(tuple((k, n) for k, n in items if n), need, bonus)
        if result is None:
            return None
        cost, used = result
        conv = dict(used)
        if all(conv != c for _, c in found):
            found.append((cost, conv))
        return cost, conv

    best = add(())
    if best is None:
        return []
    for kind in list(best[1]):
        add((kind,))
    found.sort(key=lambda item: (item[0], encode(item[1])))
    return [conv for _, conv in found[:limit]]


def food_of(player: Player, conversion: Mapping[str, int]) -> int:
    """The food ``conversion`` gives ``player`` (its Slaughtering cave counted)."""
    return conversion_food(conversion, slaughter_bonus(player))


def conversion_food(conversion: Mapping[str, int], bonus: int) -> int:
    """The food ``conversion`` gives with ``bonus`` extra food per farm animal."""
    return sum(food_from(kind, count, bonus) for kind, count in conversion.items())


def convert(player: Player, conversion: Mapping[str, int]) -> int:
    """Turn ``conversion`` into food; returns the food gained."""
    food = food_of(player, conversion)
    for kind, count in conversion.items():
        if kind in FARM_ANIMALS:
            player.animals[kind] -= count
        else:
            player.goods[kind] -= count
    player.goods["food"] += food
    return food


def encode(conversion: Mapping[str, int]) -> str:
    """``grain*2+sheep*1``: a conversion in a key (kinds in display order)."""
    return "+".join(f"{k}*{conversion[k]}" for k in CONVERTIBLE if conversion.get(k))


def decode(text: str) -> Conversion | None:
    """The conversion ``text`` spells canonically, or None."""
    if not text:
        return None
    out: Conversion = {}
    for item in text.split("+"):
        kind, _, number = item.partition("*")
        count = parse_number(number)
        if kind not in CONVERTIBLE or kind in out or not count:
            return None
        out[kind] = count
    return out if encode(out) == text else None


# --- bills ---------------------------------------------------------------------------


def discount(player: Player, action: str) -> dict[str, int]:
    """Goods the player's furnishings save on ``action`` (``furnish``, ``fences``,
    ``stable``, ``forge``)."""
    return dict(_discount(player.board.furnished(), action))


@lru_cache(maxsize=4096)
def _discount(furnished: tuple[str, ...], action: str) -> tuple[tuple[str, int], ...]:
    """What the tiles ``furnished`` save on ``action``: a pure function of the tiles (a
    sum, so their order does not matter), asked for every furnishing's price."""
    tiles = components().furnishings
    saved: dict[str, int] = {}
    for tile_id in furnished:
        tile = tiles.get(tile_id)
        effect = tile.effect("discount") if tile else None
        if effect is not None and action in (effect.params.get("when") or ()):
            for good, amount in effect.goods().items():
                saved[good] = saved.get(good, 0) + amount
    return tuple(saved.items())


def less(bill: Mapping[str, int], saved: Mapping[str, int]) -> dict[str, int]:
    """``bill`` with ``saved`` taken off (never below 0)."""
    return {g: max(0, n - saved.get(g, 0)) for g, n in bill.items()}


def ruby_stand_ins(player: Player, bill: Mapping[str, int]) -> dict[str, int] | None:
    """Rubies standing in for the goods of ``bill`` the player lacks (food aside), or
    None when even rubies cannot make it up."""
    stand_in: dict[str, int] = {}
    for good, amount in bill.items():
        if good == "food" or amount <= 0:
            continue
        short = amount - player.goods[good]
        if short <= 0:
            continue
        if good not in RUBY_STANDS_FOR:
            return None
        stand_in[good] = short
    spare_rubies = player.goods["ruby"] - bill.get("ruby", 0)
    return stand_in if sum(stand_in.values()) <= spare_rubies else None


def _reserved(bill: Mapping[str, int], stand_in: Mapping[str, int]) -> dict[str, int]:
    """Goods a bill takes before any conversion for food."""
    out = {g: n for g, n in bill.items() if g != "food"}
    out["ruby"] = out.get("ruby", 0) + sum(stand_in.values())
    for good, short in stand_in.items():
        out[good] -= short
    return out


def ways_to_pay(player: Player, bill: Mapping[str, int]) -> list[Conversion]:
    """The conversions for food that make ``bill`` payable (``[{}]``: pay as it is;
    ``[]``: cannot be paid)."""
    stand_in = ruby_stand_ins(player, bill)
    if stand_in is None:
        return []
    short = bill.get("food", 0) - player.goods["food"]
    if short <= 0:
        return [{}]
    have = holdings(player, _reserved(bill, stand_in))
    return covers(have, short, slaughter_bonus(player))


def spare(player: Player, bill: Mapping[str, int]) -> dict[str, int]:
    """What ``player`` could turn into food towards ``bill`` without touching the goods
    (or the rubies standing in for them) the bill itself takes."""
    stand_in = ruby_stand_ins(player, bill) or {}
    return holdings(player, _reserved(bill, stand_in))


def one_step(have: Mapping[str, int], kind: str, short: int) -> int:
    """How many of ``kind`` one step of converting takes while ``short`` food is
    missing: gold buys food at 1 gold more than the food bought (rulebook), so a step
    buys what is missing and no more (at least 1 food: 2 gold), or as much as the gold
    allows (every gold kept is a point); a pair of donkeys when there are two (3 food),
    else one."""
    if kind == "gold":
        return min(have[kind], max(short, 1) + 1)
    return 2 if kind == "donkey" and have[kind] >= 2 else 1


def can_pay(player: Player, bill: Mapping[str, int]) -> bool:
    """Could ``player`` pay ``bill``: is ``ways_to_pay`` not empty? Converting more of a
    kind never gives less food, so the food is there exactly when converting everything
    spare would give enough: asked without looking for the cheapest ways."""
    stand_in = ruby_stand_ins(player, bill)
    if stand_in is None:
        return False
    short = bill.get("food", 0) - player.goods["food"]
    if short <= 0:
        return True
    bonus = slaughter_bonus(player)
    reserved = _reserved(bill, stand_in)
    goods, animals = player.goods, player.animals
    food = 0
    for kind, animal in _CONVERTIBLE_ANIMAL:  # as ``holdings``, until there is enough
        spare = (animals if animal else goods)[kind] - reserved.get(kind, 0)
        if spare > 0:
            food += food_from(kind, spare, bonus)
            if food >= short:
                return True
    return False


def pay(player: Player, bill: Mapping[str, int], conversion: Mapping[str, int]) -> dict[str, int]:
    """Convert, then pay ``bill`` (rubies for what is missing); returns the rubies that
    stood in, by good."""
    convert(player, conversion)
    stand_in = ruby_stand_ins(player, bill)
    assert stand_in is not None, "pay() needs a payable bill"
    for good, amount in bill.items():
        player.goods[good] -= amount - stand_in.get(good, 0)
    player.goods["ruby"] -= sum(stand_in.values())
    assert player.goods["food"] >= 0
    return stand_in


# --- feeding -------------------------------------------------------------------------


def food_needed(player: Player, per_dwarf: int) -> int:
    """Food the family eats: ``per_dwarf`` each, 1 for a dwarf born this round, less the
    Mining cave's 1 per donkey in a mine."""
    need = sum(1 if d.born else per_dwarf for d in player.dwarfs)
    return max(0, need - feeding_reduction(player, mine_donkeys(player)))


def mine_donkeys(player: Player) -> int:
    """Donkeys kept in mines. The housing arrangement puts donkeys in mines first when
    that is possible, so this is the smaller of the two counts."""
    mines = player.board.count("ore_mine", "ruby_mine")
    return min(mines, player.animals["donkey"])


def working_cave_options(player: Player) -> list[str]:
    """What the Working cave lets one dwarf be fed with instead of food (goods the
    player has enough of)."""
    return [g for g, n in feed_substitutes(player).items() if player.goods[g] >= n]


def working_cave_cost(player: Player, good: str) -> int:
    """How many of ``good`` feed one dwarf through the Working cave."""
    return feed_substitutes(player)[good]


def feed_all(state: CavernaState, seat: int, need: int, events: list[Event]) -> bool:
    """Hand in ``need`` food if the supply holds it; False if a decision is needed."""
    player = state.players[seat]
    if player.goods["food"] < need:
        return False
    player.goods["food"] -= need
    events.append(Event("fed", seat, {"food": need}))
    return True


def beg(state: CavernaState, seat: int, need: int, events: list[Event]) -> None:
    """Hand in all food and take a begging marker per food still missing."""
    player = state.players[seat]
    food = player.goods["food"]
    missing = need - food
    player.goods["food"] = 0
    player.begging += missing
    events.append(Event("begged", seat, {"food": food, "markers": missing}))


def convertible_kinds(have: Mapping[str, int]) -> list[str]:
    """The kinds of ``have`` one step of converting can take (one animal, a donkey pair,
    gold for the food missing: 2 at least), in display order: what a payment or a
    feeding offers when no full cover is wanted or possible."""
    return [k for k in CONVERTIBLE if have.get(k) and (k != "gold" or have[k] >= 2)]


def step_of(have: Mapping[str, int], kind: str, short: int, bonus: int) -> tuple[int, int]:
    """(how many of ``kind`` one step converts, the food it gives with ``bonus`` extra
    food per farm animal) out of ``have`` while ``short`` food is missing: what an option
    says it does."""
    count = one_step(have, kind, short)
    return count, food_from(kind, count, bonus)
