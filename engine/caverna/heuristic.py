"""A value of a position for one seat, for the bot's greedy autopilot.

The autopilot tries each option of a decision on a copy and keeps the one whose
position this module likes best (a one-step lookahead), so the value must rank the
options of one decision sensibly and be cheap. It adds up:

- the score sheet as things stand (a yellow tile's bonus only in part while many
  rounds remain: it may not last);
- what the holdings will still be worth (:mod:`engine.caverna.valuation`: goods, the
  family and its room, weapons, fields, animals) and the laid tiles' abilities
  (:mod:`engine.caverna.tile_worth`);
- less a penalty for the food the next feeding would lack: heavy when that feeding
  ends this round, so food is secured before it;
- the action begun but not finished: a dwarf placed on a space opens its parts as later
  decisions, and a part opens a home-board step (which tile, where). Each part still to
  do is guessed from the seat's holdings (:func:`part_gain`: a family growth is worth
  a newborn if there is room, a furnishing the best tile the seat can pay for, a twin
  tile the spaces it covers …), so placing a dwarf is judged by what its action will
  bring, and stopping early loses what the remaining parts would give.
"""

from __future__ import annotations

from collections.abc import Mapping

from engine.caverna.animals import room_for
from engine.caverna.components import FARM_ANIMALS
from engine.caverna.family import can_grow
from engine.caverna.results import sheet
from engine.caverna.spaces import (
    EITHER,
    Part,
    connective,
    eligible,
    empty_fields,
    fence_sizes,
    group_at,
    part_doable,
)
from engine.caverna.state import (
    BoardStep,
    CavernaState,
    FeedStep,
    FenceStep,
    ForgeStep,
    Frame,
    FurnishStep,
    GroupStep,
    HarvestStep,
    HomeBoardStep,
    LootStep,
    PayStep,
    Player,
    RubyMineStep,
    SingleTileStep,
    SowStep,
    TradeStep,
    TwinTileStep,
)
from engine.caverna.tile_worth import abilities_worth, best_furnishing, tile_gain
from engine.caverna.valuation import (
    EMPTY_CAVERN,
    EMPTY_FIELD,
    HUNGER_LATER,
    HUNGER_NOW,
    SOWN_EXTRA,
    Horizon,
    animals_worth,
    board_worth,
    change_worth,
    fade,
    family_worth,
    food_at_hand,
    goods_worth,
    growth_gain,
    horizon,
    hunger_weight,
    income_worth,
    shortfall,
    weapons_worth,
)
from engine.caverna.weapons import forge_cost, forge_strengths

EARLY_BONUS = 0.5      # share of the yellow tiles' bonus counted while many rounds remain
EARLY = 4              # "many rounds": more than this many still to come
BEGGING_AVERSION = 3.5  # beyond the sheet's 3 points: ties go to converting goods
FIRST_PLAYER = 0.8
IMITATE = 1.0
MARKET = 1.0
LOOT_SLOT = 0.3        # an expedition's item not chosen yet (every item is worth more)
TWIN_SPACES = 2        # a twin tile covers two unused spaces (1 point each)
MINE_POINTS = {"ore": 3, "ruby": 4}


# --- the horizon of one seat ---------------------------------------------------------


def fed(state: CavernaState, seat: int) -> bool:
    """Has ``seat`` been through this round's feeding already?"""
    if state.phase != "harvest":
        return False
    for frame in state.stacks.get(seat, []):
        if isinstance(frame, FeedStep) or (
            isinstance(frame, HarvestStep) and "feed" in frame.stages
        ):
            return False
    return True


def seat_horizon(state: CavernaState, seat: int) -> Horizon:
    """The rounds and feedings still ahead of ``seat``."""
    return horizon(state, fed(state, seat))


def rounds_left(state: CavernaState) -> int:
    """Rounds still to come after this one."""
    return sum(1 for r in state.rounds if r > state.round)


# --- food ----------------------------------------------------------------------------


def hunger(state: CavernaState, seat: int) -> float:
    """The penalty for food ``seat``'s next feeding would lack (an open feeding: the
    food it still owes)."""
    top = state.top(seat)
    if isinstance(top, FeedStep):
        player = state.players[seat]
        return HUNGER_NOW * max(0, top.need - food_at_hand(player, False))
    h = seat_horizon(state, seat)
    at_home = len(state.players[seat].home()) if state.phase == "work" else 0
    first, second = shortfall(state, seat, h)
    return hunger_weight(h, at_home) * first + HUNGER_LATER * second


# --- the parts of an action still to do ----------------------------------------------


def _twin_gain(player: Player, kinds: list[str], h: Horizon) -> float:
    """The best of the twin tiles ``kinds``: two unused spaces covered, and what the
    halves are good for."""
    caverns = len(player.board.empty_caverns())
    seed = player.goods["grain"] + player.goods["vegetable"]

    def cavern(i: int) -> float:
        return EMPTY_CAVERN[min(caverns + i, len(EMPTY_CAVERN) - 1)] * fade(h)

    best = 0.0
    for kind in kinds:
        if kind == "meadow_field":
            field = EMPTY_FIELD * fade(h) if seed > len(empty_fields(player)) else 0.3
            value = TWIN_SPACES + field + 0.3
        elif kind == "cavern_tunnel":
            value = TWIN_SPACES + cavern(0) + 0.2
        elif kind == "cavern_cavern":
            value = TWIN_SPACES + cavern(0) + cavern(1)
        else:  # the ore mine and deep tunnel go on tunnels: no space newly used
            value = MINE_POINTS["ore"] + 0.3 * h.rounds + 0.3
        best = max(best, value)
    return best


def _single_gain(player: Player, tile: str, h: Horizon) -> float:
    if tile == "cavern":
        return 1 + EMPTY_CAVERN[min(len(player.board.empty_caverns()),
                                    len(EMPTY_CAVERN) - 1)] * fade(h)
    if tile == "field":
        return 1 + EMPTY_FIELD * fade(h)
    return 1.2


def _ruby_mine_gain(h: Horizon) -> float:
    return MINE_POINTS["ruby"] + 0.35 * h.rounds


def _sow_gain(player: Player, h: Horizon) -> float:
    """Sowing what the fields and the seed allow (2 of each at most)."""
    fields = len(empty_fields(player))
    grain = min(2, player.goods["grain"], fields)
    veg = min(2, player.goods["vegetable"], fields - grain)
    # A sown grain becomes 3 (1 point more), a vegetable 2; each crop waits for harvests.
    gain = grain * (1.0 + 2 * SOWN_EXTRA) + veg * (1.0 + SOWN_EXTRA)
    return gain + change_worth(player, {"grain": -grain, "vegetable": -veg}, h) + (
        grain + veg) * (0.5 if h.harvests else 0.0)


def _fence_gain(player: Player, step: FenceStep | None, h: Horizon) -> float:
    wood = player.goods["wood"]
    best = 0.0
    for size, points, wood_cost in (("small", 2, 2), ("large", 4, 4)):
        if step is not None and size not in fence_sizes(step):
            continue
        if wood >= wood_cost:
            value = points + 0.5 * points + change_worth(player, {"wood": -wood_cost}, h)
            best = max(best, value)
    return best


def _forge_gain(player: Player, dwarf: int, h: Horizon) -> float:
    """The best weapon ``dwarf`` could forge now, less its ore."""
    best = 0.0
    base = weapons_worth(player, h)
    for strength in forge_strengths(player, dwarf):
        weapon = player.dwarfs[dwarf].weapon
        player.dwarfs[dwarf].weapon = strength
        try:
            armed = weapons_worth(player, h)
        finally:
            player.dwarfs[dwarf].weapon = weapon
        cost = forge_cost(player, strength)
        best = max(best, armed - base + change_worth(player, {"ore": -cost["ore"]}, h))
    return best


def _expedition_gain(player: Player, dwarf: int, level: int, h: Horizon) -> float:
    weapon = player.dwarfs[dwarf].weapon
    if not weapon:
        return 0.0
    item = 1.0 + 0.15 * min(weapon, 12)
    return level * item + 0.35 * min(1.0, h.rounds / 3)


def _trade_gain(player: Player, h: Horizon) -> float:
    times = min(3, player.goods["ore"] // 2)
    return change_worth(player, {"ore": -2 * times, "gold": 2 * times, "food": times}, h)


def _gain(player: Player, goods: Mapping[str, int], h: Horizon) -> float:
    """Goods received; farm animals beyond the room for them are eaten (1 food each at
    the least, whatever the kind)."""
    kept = dict(goods)
    for kind in FARM_ANIMALS:
        arriving = kept.get(kind, 0)
        if arriving:
            fit = min(arriving, room_for(player.board, player.animals, kind, len(player.dwarfs)))
            kept[kind] = fit
            kept["food"] = kept.get("food", 0) + arriving - fit
    return change_worth(player, kept, h)


def part_gain(state: CavernaState, seat: int, step: GroupStep, part: Part, h: Horizon) -> float:
    """What carrying out ``part`` of the step's action would roughly bring ``seat``."""
    player = state.players[seat]
    do = part.do
    if do == "take":
        return 0.0 if step.imitated else _gain(player, state.space(step.space).goods, h)
    if do in ("gain", "gain_if_mines"):
        return _gain(player, dict(part.goods), h)
    if do == "gain_per_mine":
        mines = player.board.count("ore_mine")
        return _gain(player, {g: n * mines for g, n in part.goods}, h)
    if do == "group":
        assert part.group is not None
        values = [part_gain(state, seat, step, p, h) for p in part.group.parts]
        return max(values, default=0.0) if part.group.connective == EITHER else sum(values)
    if do == "family_growth":
        return growth_gain(player, h) if can_grow(player) else 0.0
    if do == "furnish":
        return max(0.0, best_furnishing(state, seat, part.kinds[0], h))
    if do in ("twin", "twin_one_of"):
        return _twin_gain(player, list(part.kinds), h)
    if do == "ruby_mine":
        return _ruby_mine_gain(h)
    if do == "sow":
        return max(0.0, _sow_gain(player, h))
    if do == "fences":
        return _fence_gain(player, None, h)
    if do == "stable":
        return 0.3 if player.goods["stone"] else 0.0
    if do == "expedition":
        return _expedition_gain(player, step.dwarf, part.level, h)
    if do == "forge":
        return _forge_gain(player, step.dwarf, h)
    if do == "trade":
        return max(0.0, _trade_gain(player, h))
    if do == "first_player":
        return FIRST_PLAYER
    if do == "market":
        return MARKET
    if do == "imitate":
        return IMITATE
    return 0.5


def group_gain(state: CavernaState, seat: int, step: GroupStep, h: Horizon) -> float:
    """The parts of the step's group still open: all of them, or the best one where only
    one may be chosen."""
    group = group_at(step.space, step.path)
    values = [
        part_gain(state, seat, step, group.parts[i], h) for i in eligible(state, step)
        if part_doable(state, seat, step.dwarf, step.space, group.parts[i], step.imitated)
    ]
    if not values:
        return 0.0
    if connective(state, seat, group) == EITHER:
        return max(values)
    return sum(v for v in values if v > 0)


# --- steps begun ---------------------------------------------------------------------


def board_step_gain(state: CavernaState, step: HomeBoardStep, h: Horizon) -> float:
    """A home-board step under way: what finishing it should bring."""
    player = state.players[step.seat]
    if isinstance(step, FurnishStep):
        if step.args.tile is not None:
            return tile_gain(state, step.seat, step.args.tile, h, step.args.scope)
        return best_furnishing(state, step.seat, step.args.scope, h, None)
    if isinstance(step, TwinTileStep):
        return _twin_gain(player, list(step.args.kinds), h)
    if isinstance(step, SingleTileStep):
        return _single_gain(player, step.args.tile, h)
    if isinstance(step, RubyMineStep):
        return _ruby_mine_gain(h)
    if isinstance(step, SowStep):
        return max(0.0, _sow_gain(player, h))
    if isinstance(step, FenceStep):
        return _fence_gain(player, step, h)
    return 0.0


def _pay_gain(state: CavernaState, step: PayStep, h: Horizon) -> float:
    head, _, rest = step.then.partition(":")
    player = state.players[step.seat]
    bill = change_worth(player, {g: -n for g, n in step.bill.items() if n}, h)
    if head == "furnish":
        return tile_gain(state, step.seat, rest.partition("@")[0], h, paid=True) + bill
    if head == "buy":
        return _gain(player, {rest: 1}, h) + bill
    return IMITATE + bill


def frame_gain(state: CavernaState, seat: int, frame: Frame, h: Horizon) -> float:
    """What an open decision of ``seat`` should still bring."""
    if isinstance(frame, GroupStep):
        return group_gain(state, seat, frame, h)
    if isinstance(frame, BoardStep):
        return board_step_gain(state, frame, h)
    if isinstance(frame, LootStep):
        return LOOT_SLOT * max(0, frame.level - len(frame.taken))
    if isinstance(frame, ForgeStep):
        return _forge_gain(state.players[seat], frame.dwarf, h)
    if isinstance(frame, PayStep):
        return _pay_gain(state, frame, h)
    if isinstance(frame, TradeStep):
        return max(0.0, _trade_gain(state.players[seat], h))
    return 0.0


def open_action(state: CavernaState, seat: int) -> float:
    """What the decisions ``seat`` has open should still bring."""
    h = seat_horizon(state, seat)
    return sum(frame_gain(state, seat, f, h) for f in state.stacks.get(seat, []))


# --- the position --------------------------------------------------------------------


def holdings_worth(state: CavernaState, seat: int, h: Horizon) -> float:
    """What ``seat``'s supply, family, weapons, board and tiles will still be worth."""
    player = state.players[seat]
    return (goods_worth(player.goods, h) + income_worth(player, state, h)
            + family_worth(player, h) + weapons_worth(player, h) + board_worth(player, h)
            + animals_worth(player, h) + abilities_worth(player, h))


def position_value(state: CavernaState, seat: int) -> float:
    """Estimated worth of ``seat``'s position, in points."""
    lines = sheet(state, seat)
    score = float(sum(lines.values()))
    if state.phase == "over":
        return score
    h = seat_horizon(state, seat)
    if h.rounds > EARLY:
        score -= (1 - EARLY_BONUS) * lines["bonus"]
    player = state.players[seat]
    score -= BEGGING_AVERSION * player.begging
    return (score + holdings_worth(state, seat, h) - hunger(state, seat)
            + sum(frame_gain(state, seat, f, h) for f in state.stacks.get(seat, [])))

