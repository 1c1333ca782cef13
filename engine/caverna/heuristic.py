"""A rough value of a position for one seat, for the bot's greedy autopilot.

The autopilot tries each option of a decision on a copy and keeps the one whose
position this module likes best, so the value must rank the options of one decision
sensibly and be cheap; it need not play well. It adds up:

- the score sheet as things stand (every point counts fully);
- what will become points or work later, at guessed rates (:data:`GOODS`): goods in
  the supply, each dwarf for the rounds it will still work, free room for a newborn,
  weapons, caverns still to furnish;
- a penalty for the food the next feeding will lack (begging costs 3 points each);
- the action just chosen but not carried out yet: a dwarf placed on a space opens the
  space's parts as later decisions, so the parts still to do are valued
  (:data:`PART_VALUES`) — placing on Family growth is worth the growth before the
  newborn exists, and stopping an action early loses what its remaining parts give.
"""

from __future__ import annotations

from collections.abc import Callable

from engine.caverna.components import FARM_ANIMALS
from engine.caverna.family import can_grow, max_dwarfs, room
from engine.caverna.feeding import FOOD_VALUES
from engine.caverna.results import sheet
from engine.caverna.spaces import Group, Part, group_at
from engine.caverna.state import CavernaState, GroupStep, Player

# What a good in the supply is worth beyond the points it already scores.
GOODS: dict[str, float] = {
    "wood": 0.9, "stone": 0.9, "ore": 0.45, "ruby": 0.8, "gold": 0.0, "food": 0.6,
    "grain": 0.5, "vegetable": 0.6,
}
ANIMAL = 0.6           # a farm animal's worth beyond its point (food, breeding)
DWARF_PER_ROUND = 1.6  # a dwarf's work in each round still to come
SPARE_ROOM = 1.5       # room for a newborn while the family may still grow, per round left
WEAPON = 0.25          # per point of weapon strength, while expeditions remain
EMPTY_CAVERN = 1.2     # an unfurnished cavern: a place for a furnishing
HUNGER = 4.0           # per food the next feeding would lack
LATER_HUNGER = 0.4     # share of the hunger counted when this round has no feeding
EARLY_BONUS = 0.5      # share of the yellow tiles' bonus counted while many rounds remain
EARLY = 4              # "many rounds": more than this many still to come

PartValue = Callable[[CavernaState, int, Part], float]


def goods_value(goods: dict[str, int] | tuple[tuple[str, int], ...]) -> float:
    """Points-like worth of goods or animals received."""
    items = goods.items() if isinstance(goods, dict) else goods
    total = 0.0
    for name, amount in items:
        if name in FARM_ANIMALS:
            total += amount * (1 + ANIMAL)
        elif name == "dog":
            total += amount * 1.2
        elif name in ("ruby", "gold"):
            total += amount * (1 + GOODS.get(name, 0.0))
        else:
            total += amount * GOODS.get(name, 0.5)
    return total


def _take(state: CavernaState, seat: int, part: Part) -> float:
    return 0.0  # the space's goods: counted by the caller, which knows the space


def _gain(state: CavernaState, seat: int, part: Part) -> float:
    return goods_value(part.goods)


def _growth(state: CavernaState, seat: int, part: Part) -> float:
    player = state.players[seat]
    return 4.0 + DWARF_PER_ROUND * rounds_left(state) if can_grow(player) else 0.0


def _expedition(state: CavernaState, seat: int, part: Part) -> float:
    armed = any(d.weapon for d in state.players[seat].dwarfs)
    return 1.3 * part.level if armed else 0.0


def _fixed(value: float) -> PartValue:
    def worth(state: CavernaState, seat: int, part: Part) -> float:
        return value

    return worth


PART_VALUES: dict[str, PartValue] = {
    "take": _take,
    "gain": _gain,
    "gain_if_mines": _gain,
    "gain_per_mine": _fixed(1.5),
    "family_growth": _growth,
    "furnish": _fixed(3.5),
    "twin": _fixed(2.0),
    "twin_one_of": _fixed(2.0),
    "single": _fixed(1.0),
    "ruby_mine": _fixed(4.0),
    "expedition": _expedition,
    "forge": _fixed(2.0),
    "sow": _fixed(2.5),
    "fences": _fixed(2.5),
    "stable": _fixed(0.7),
    "first_player": _fixed(0.8),
    "market": _fixed(1.0),
    "trade": _fixed(1.5),
    "imitate": _fixed(1.0),
}
OTHER_PART = 0.8


def rounds_left(state: CavernaState) -> int:
    """Rounds still to come after this one."""
    return sum(1 for r in state.rounds if r > state.round)


def part_value(state: CavernaState, seat: int, part: Part) -> float:
    """What carrying out ``part`` would roughly bring ``seat``."""
    if part.group is not None:
        return group_value(state, seat, part.group, ())
    worth = PART_VALUES.get(part.do)
    return worth(state, seat, part) if worth is not None else OTHER_PART


def group_value(state: CavernaState, seat: int, group: Group, done: tuple[int, ...]) -> float:
    """The parts of ``group`` not done yet: all of them for "all"/"and_or", the best
    one for a choice of one."""
    values = [part_value(state, seat, p) for i, p in enumerate(group.parts) if i not in done]
    if not values:
        return 0.0
    if group.connective == "either":
        return 0.0 if done else max(values)
    return sum(values) if group.connective in ("all", "and_or", "then") else max(values)


def open_action(state: CavernaState, seat: int) -> float:
    """The parts still to come of the action ``seat`` is carrying out (a nested group's
    step lies above its parent's; the parent's part it carries out is counted once)."""
    steps = [f for f in state.stacks.get(seat, []) if isinstance(f, GroupStep)]
    value = 0.0
    for depth, step in enumerate(steps):
        group = group_at(step.space, step.path)
        done = set(step.done)
        if depth + 1 < len(steps) and steps[depth + 1].path[:-1] == step.path:
            done.add(steps[depth + 1].path[-1])
        value += group_value(state, seat, group, tuple(done))
        takes = [i for i, p in enumerate(group.parts) if p.do == "take"]
        if takes and not step.imitated and takes[0] not in done:
            value += goods_value(state.space(step.space).goods)
    return value


def food_on_hand(player: Player) -> int:
    """Food and what converts to it easily (crops and animals at their printed rates)."""
    total = player.goods["food"]
    for name, rate in FOOD_VALUES.items():
        have = player.goods.get(name, 0) + player.animals.get(name, 0)
        total += have * rate
    return total


def hunger(state: CavernaState, seat: int) -> float:
    """Food the next feeding would lack, if one is still to come."""
    if state.phase in ("final", "over") or (not rounds_left(state) and state.harvest == "none"):
        return 0.0
    player = state.players[seat]
    need = sum(1 if d.born else 2 for d in player.dwarfs)
    short = float(max(0, need - food_on_hand(player)))
    # A feeding this round is pressing; a later one leaves rounds to find food.
    return short if state.harvest != "none" else short * LATER_HUNGER


def potential(state: CavernaState, seat: int) -> float:
    """What the supply, the family and the board will still be worth."""
    player = state.players[seat]
    left = rounds_left(state)
    value = sum(n * GOODS.get(g, 0.0) for g, n in player.goods.items())
    value += ANIMAL * sum(player.animals[k] for k in FARM_ANIMALS)
    value += DWARF_PER_ROUND * left * len(player.dwarfs)
    if len(player.dwarfs) < max_dwarfs(player) and room(player) > len(player.dwarfs) and left:
        value += SPARE_ROOM * left
    if left:
        value += WEAPON * sum(d.weapon for d in player.dwarfs)
        value += EMPTY_CAVERN * len(player.board.empty_caverns())
    return value


def position_value(state: CavernaState, seat: int) -> float:
    """Estimated worth of ``seat``'s position."""
    lines = sheet(state, seat)
    score = float(sum(lines.values()))
    if state.phase == "over":
        return score
    if rounds_left(state) > EARLY:
        # A bonus counted now may not last (a Prayer chamber's dwarfs get armed) and a
        # dwelling's newborns are worth more early: the bonus counts only in part.
        score -= (1 - EARLY_BONUS) * lines["bonus"]
    return (score + potential(state, seat) + open_action(state, seat)
            - HUNGER * hunger(state, seat))
