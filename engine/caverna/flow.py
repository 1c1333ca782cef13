"""Moving the game along between decisions, and carrying out the parts of actions.

After every choice ``advance`` does everything that needs nobody's decision: parts of
an action that are forced or plain gains, expeditions with nothing left to take,
harvest steps, the next player's turn, the end of the work phase and of the round. It
stops at the next open decision.

Goods are received through ``receive``: animals join the home board (the engine
arranges them; what cannot stay is turned into food, and when the room allows
different sets the player says which to keep), and furnishings that react to a gain
(the Seam, the Dog school) add theirs.
"""

from __future__ import annotations

from collections.abc import Mapping
from itertools import combinations

from engine.caverna.animals import house, keep_options, newborn_options
from engine.caverna.board import ENTRY_DWELLING
from engine.caverna.components import ANIMALS, FARM_ANIMALS, Effect, components
from engine.caverna.expedition import (
    finish_expedition,
    loot_table,
    returnable,
    start_expedition,
    within_reach,
)
from engine.caverna.family import grow
from engine.caverna.feeding import (
    beg,
    convert,
    feed_all,
    food_needed,
    single_conversions,
    working_cave_options,
)
from engine.caverna.harvest import field_phase, start_harvest
from engine.caverna.placement import can_place
from engine.caverna.rounds import end_round, fill_round, finish, return_home
from engine.caverna.spaces import (
    ALL,
    EITHER,
    LOOT_DWELLING,
    PLAIN,
    THEN,
    board_step,
    board_step_possible,
    can_lay,
    connective,
    eligible,
    group_at,
    part_doable,
)
from engine.caverna.state import (
    BoardStep,
    BreedStep,
    CavernaState,
    ExchangeStep,
    FeedStep,
    ForgeStep,
    GroupStep,
    HarvestStep,
    ImitateStep,
    LootStep,
    MarketStep,
    OverflowStep,
    SkipStep,
    TradeStep,
)
from engine.caverna.tile_effects import GUEST_ROOM_USED, gain_bonus, guest_once_spaces
from engine.core.prompts import Event

# --- receiving goods -----------------------------------------------------------------


def receive(
    state: CavernaState, seat: int, goods: Mapping[str, int], events: list[Event],
    triggers: bool = True,
) -> None:
    """``seat`` gets ``goods`` (animals go onto the home board)."""
    player = state.players[seat]
    got = {g: n for g, n in goods.items() if n > 0}
    if not got:
        return
    for good, amount in got.items():
        if good in ANIMALS:
            player.animals[good] += amount
        else:
            player.goods[good] += amount
    events.append(Event("gained", seat, {"goods": got}))
    if triggers:
        receive(state, seat, gain_bonus(player, got), events, triggers=False)
    if any(g in FARM_ANIMALS for g in got):
        settle_animals(state, seat, events)


def furnishing_effects(state: CavernaState, seat: int, key: str) -> list[Effect]:
    """Effects with ``key`` of ``seat``'s furnishings."""
    tiles = components().furnishings
    out: list[Effect] = []
    for tile_id in state.players[seat].board.furnishings:
        tile = tiles.get(tile_id)
        if tile is None:
            continue
        out += [e for e in tile.effects if e.key == key]
    return out


def settle_animals(state: CavernaState, seat: int, events: list[Event]) -> None:
    """After animals arrived: if they do not all fit, turn the surplus into food, or ask
    which to keep when the room allows different sets."""
    player = state.players[seat]
    options = keep_options(player.board, player.animals, len(player.dwarfs))
    farm = {k: player.animals[k] for k in FARM_ANIMALS}
    if len(options) == 1:
        if options[0] != farm:
            keep_animals(state, seat, options[0], events)
        return
    top = state.top(seat)
    if not isinstance(top, OverflowStep):
        state.push(OverflowStep(seat=seat))


def keep_animals(
    state: CavernaState, seat: int, keep: Mapping[str, int], events: list[Event]
) -> None:
    """Keep ``keep`` and turn the other farm animals into food."""
    player = state.players[seat]
    surplus = {k: player.animals[k] - keep.get(k, 0) for k in FARM_ANIMALS}
    surplus = {k: n for k, n in surplus.items() if n > 0}
    if surplus:
        food = convert(player, surplus)
        events.append(Event("animals_eaten", seat, {"animals": surplus, "food": food}))


# --- carrying out parts --------------------------------------------------------------


def open_action(
    state: CavernaState, seat: int, dwarf: int, space_id: str, imitated: bool = False
) -> None:
    """Start carrying out ``space_id``'s action for ``dwarf``."""
    state.push(GroupStep(seat=seat, dwarf=dwarf, space=space_id, imitated=imitated))


def do_part(state: CavernaState, step: GroupStep, index: int, events: list[Event]) -> None:
    """Carry out part ``index`` of the step's group (or open its decision)."""
    group = group_at(step.space, step.path)
    part = group.parts[index]
    step.done.append(index)
    seat, dwarf = step.seat, step.dwarf
    player = state.players[seat]
    if len(step.done) == 2 and group.connective == EITHER and step.space in guest_once_spaces(
        player
    ):
        # The Guest room's second half of an "either … or" on a once-per-game space.
        player.spent.append(GUEST_ROOM_USED + step.space)
    do = part.do
    if do == "take":
        space = state.space(step.space)
        goods, space.goods = dict(space.goods), {}
        events.append(Event("took", seat, {"space": step.space, "goods": goods}))
        receive(state, seat, goods, events)
    elif do in ("gain", "gain_if_mines"):
        receive(state, seat, dict(part.goods), events)
    elif do == "gain_per_mine":
        mines = player.board.count("ore_mine")
        receive(state, seat, {g: n * mines for g, n in part.goods}, events)
    elif do == "first_player":
        state.next_first = seat
        events.append(Event("first_player_taken", seat))
    elif do == "group":
        state.push(GroupStep(seat=seat, dwarf=dwarf, space=step.space,
                             path=[*step.path, index], imitated=step.imitated))
    elif do == "family_growth":
        grow(state, seat, events)
    elif do == "forge":
        state.push(ForgeStep(seat=seat, dwarf=dwarf))
    elif do == "expedition":
        start_expedition(state, seat, dwarf, part.level, events)
    elif do == "trade":
        state.push(TradeStep(seat=seat))
    elif do == "market":
        state.push(MarketStep(seat=seat))
    elif do == "imitate":
        state.push(ImitateStep(seat=seat, dwarf=dwarf, space=step.space, cost=part.level))
    else:
        state.push(board_step(seat, do, part.kinds))


def _settle_group(state: CavernaState, step: GroupStep, events: list[Event]) -> bool:
    group = group_at(step.space, step.path)
    conn = connective(state, step.seat, group)
    if conn == ALL:
        last = max(step.done) if step.done else -1
        for index in range(last + 1, len(group.parts)):
            if part_doable(state, step.seat, step.dwarf, step.space, group.parts[index],
                           step.imitated):
                do_part(state, step, index, events)
                return True
            step.done.append(index)  # passed over: it cannot be done
        state.pop(step.seat)
        return True
    options = eligible(state, step)
    if not options:
        state.pop(step.seat)
        return True
    if not step.done and len(options) == 1:
        do_part(state, step, options[0], events)
        return True
    if conn == THEN and step.done:
        plain = [i for i in options if group.parts[i].do in PLAIN]
        if plain:
            do_part(state, step, plain[0], events)
            return True
    return False


def loot_choices(state: CavernaState, step: LootStep) -> list[str]:
    """Loot items the expedition may still take now."""
    return [item.id for item in within_reach(step) if loot_doable(state, step.seat, item.id)]


def loot_doable(state: CavernaState, seat: int, item_id: str) -> bool:
    """Can the loot item be used now? (Goods always; actions need their room.)"""
    item = loot_table()[item_id]
    if item.goods or item.does == "all_weapons_plus_one":
        return True
    if item.does == "breed_two_kinds":
        return bool(breed_options(state, seat, 2))
    return board_step_possible(state, loot_step(seat, item_id))


def loot_step(seat: int, item_id: str) -> BoardStep:
    """The home-board decision a loot action opens."""
    item = loot_table()[item_id]
    does = item.does or ""
    if does == "free_stable":
        return BoardStep(seat=seat, what="stable", args={"stone": 0})
    if does.startswith("single_"):
        return BoardStep(seat=seat, what="single", args={"tile": does[len("single_"):]})
    if does in ("small_pasture", "large_pasture"):
        size = does.split("_")[0]
        return BoardStep(seat=seat, what="fences", args={size: item.cost.get("wood", 0)})
    if does == "dwelling":
        return BoardStep(seat=seat, what="furnish", args={"scope": LOOT_DWELLING})
    if does == "furnish":
        return BoardStep(seat=seat, what="furnish", args={"scope": "any"})
    assert does == "sow", does
    return BoardStep(seat=seat, what="sow")


def take_loot(state: CavernaState, step: LootStep, item_id: str, events: list[Event]) -> None:
    """Take one loot item."""
    item = loot_table()[item_id]
    step.taken.append(item_id)
    events.append(Event("loot", step.seat, {"item": item_id}))
    if item.goods:
        receive(state, step.seat, item.goods, events)
    elif item.does == "breed_two_kinds":
        breed(state, step.seat, events, limit=2)
    elif item.does != "all_weapons_plus_one":
        state.push(loot_step(step.seat, item_id))


# --- the harvest ---------------------------------------------------------------------


def breed(state: CavernaState, seat: int, events: list[Event], limit: int | None = None) -> None:
    """Breeding: young for each kind with 2 or more that can be housed; asks when the
    room (or the loot's limit of 2 kinds) leaves a choice."""
    options = breed_options(state, seat, limit)
    if not options:
        events.append(Event("no_young", seat))
    elif len(options) == 1:
        born(state, seat, options[0], events)
    else:
        state.push(BreedStep(seat=seat, limit=limit))


def breed_options(state: CavernaState, seat: int, limit: int | None) -> list[dict[str, int]]:
    """The sets of young the player could get (largest first; none if no young at all)."""
    player = state.players[seat]
    options = [o for o in newborn_options(player.board, player.animals, len(player.dwarfs)) if o]
    if limit is None:
        return options
    out: list[dict[str, int]] = []
    for option in options:
        kinds = list(option)
        candidates = [option] if len(kinds) <= limit else [
            dict.fromkeys(c, 1) for c in combinations(kinds, limit)
        ]
        for c in candidates:
            if c not in out:
                out.append(c)
    return out


def born(state: CavernaState, seat: int, young: Mapping[str, int], events: list[Event]) -> None:
    """The young join the family's herds; furnishings that reward births pay out."""
    player = state.players[seat]
    for kind, n in young.items():
        player.animals[kind] += n
    count = sum(young.values())
    events.append(Event("young_born", seat, {"animals": dict(young)}))
    bonus: dict[str, int] = {}
    for effect in furnishing_effects(state, seat, "on_birth"):
        animal = effect.params.get("animal")
        if isinstance(animal, str) and young.get(animal):
            for g, n in effect.goods().items():
                bonus[g] = bonus.get(g, 0) + n * young[animal]
    for effect in furnishing_effects(state, seat, "breed_bonus"):
        table = effect.params.get("food_by_newborns") or {}
        food = int(table.get(count, table.get(str(count), 0))) if count else 0
        if food:
            bonus["food"] = bonus.get("food", 0) + food
    receive(state, seat, bonus, events)


def _settle_harvest(state: CavernaState, step: HarvestStep, events: list[Event]) -> bool:
    seat = step.seat
    if not step.stages:
        state.pop(seat)
        return True
    stage = step.stages.pop(0)
    if stage == "choose":
        player = state.players[seat]
        if not any(player.board.at(p).crop for p in player.board.fields()):
            step.stages.remove("field")
            events.append(Event("skipped", seat, {"stage": "field"}))
        elif not breed_options(state, seat, None):
            step.stages.remove("breed")
            events.append(Event("skipped", seat, {"stage": "breed"}))
        else:
            state.push(SkipStep(seat=seat))
    elif stage == "field":
        field_phase(state, seat, events)
    elif stage == "feed":
        need = food_needed(state.players[seat], step.feed_per_dwarf)
        if not feed_all(state, seat, need, events):
            state.push(FeedStep(seat=seat, need=need))
    else:
        breed(state, seat, events)
    return True


# --- settling and advancing ----------------------------------------------------------


def _settle_top(state: CavernaState, seat: int, events: list[Event]) -> bool:
    """Resolve ``seat``'s innermost step if it needs no decision; True if it did."""
    top = state.top(seat)
    if top is None:
        return False
    if isinstance(top, GroupStep):
        return _settle_group(state, top, events)
    if isinstance(top, LootStep):
        if not loot_choices(state, top) and not returnable(state, top):
            state.pop(seat)
            finish_expedition(state, top, events)
            return True
        return False
    if isinstance(top, HarvestStep):
        return _settle_harvest(state, top, events)
    if isinstance(top, FeedStep):
        if feed_all(state, seat, top.need, events):
            state.pop(seat)
            return True
        player = state.players[seat]
        # Begging only when nothing could still give food: conversions, the Working
        # cave, or an any-time trade (the Peaceful cave's weapons, the Spare part
        # storage's gold).
        if not single_conversions(player) and (
            top.substituted or not working_cave_options(player)
        ) and not can_exchange(state, seat):
            state.pop(seat)
            beg(state, seat, top.need, events)
            return True
        return False
    if isinstance(top, ExchangeStep) and not can_exchange(state, seat):
        state.pop(seat)  # nothing left to trade
        return True
    if isinstance(top, OverflowStep):
        player = state.players[seat]
        if len(keep_options(player.board, player.animals, len(player.dwarfs))) == 1:
            state.pop(seat)
            settle_animals(state, seat, events)
            return True
    return False


def settle(state: CavernaState, events: list[Event]) -> bool:
    """Resolve every step that needs no decision; True if anything changed."""
    changed = False
    progress = True
    while progress:
        progress = False
        for seat in sorted(state.stacks):
            if _settle_top(state, seat, events):
                progress = changed = True
    return changed


def _next_placer(state: CavernaState) -> int | None:
    """The seat whose turn it is to place, from ``state.turn`` on (None: all are done)."""
    for i in range(state.n):
        seat = (state.turn + i) % state.n
        if seat not in state.passed and state.players[seat].home():
            return seat
    return None


def advance(state: CavernaState, events: list[Event]) -> None:
    """Carry out everything automatic until a decision is open or the game is over."""
    while state.phase != "over":
        settle(state, events)
        if state.stacks:
            return
        if state.phase == "start":
            fill_round(state, events)
        elif state.phase == "work":
            if state.acting is not None:
                state.turn = (state.acting + 1) % state.n
                state.acting = None
            seat = _next_placer(state)
            if seat is None:
                return_home(state)
                state.phase = "harvest"
                if not start_harvest(state, events) and end_round(state, events):
                    offer_final_trades(state)
            elif not can_place(state, seat):
                state.passed.append(seat)
                events.append(Event("no_space", seat))
            else:
                state.turn = seat
                return
        elif state.phase == "harvest":
            if end_round(state, events):
                offer_final_trades(state)
        else:
            finish(state, events)


def holdings_after_house(state: CavernaState, seat: int) -> dict[str, dict[str, int]]:
    """Where the engine keeps ``seat``'s animals (for views and furnishings)."""
    player = state.players[seat]
    return house(player.board, player.animals, len(player.dwarfs)).held


# --- furnishing ----------------------------------------------------------------------


def furnished(
    state: CavernaState, seat: int, tile_id: str, pos: tuple[int, int], events: list[Event]
) -> None:
    """What a furnishing tile does once it is laid: goods at once, goods per animal or
    per neighbouring dwelling, goods put on future rounds."""
    tile = components().furnishings[tile_id]
    player = state.players[seat]
    gained: dict[str, int] = {}
    for effect in tile.effects:
        if effect.key == "on_build":
            for g, n in effect.goods().items():
                gained[g] = gained.get(g, 0) + n
        elif effect.key == "on_build_per":
            count = _count_for(state, seat, str(effect.params.get("per")), pos)
            for g, n in effect.goods().items():
                gained[g] = gained.get(g, 0) + n * count
        elif effect.key == "future_income":
            later = [r for r in state.rounds if r > state.round]
            for r in later[: int(effect.params.get("rounds", 0))]:
                bucket = player.income.setdefault(r, {})
                for g, n in effect.goods().items():
                    bucket[g] = bucket.get(g, 0) + n
    receive(state, seat, gained, events)


def _count_for(state: CavernaState, seat: int, per: str, pos: tuple[int, int]) -> int:
    player = state.players[seat]
    if per in player.animals:
        return player.animals[per]
    if per == "adjacent_dwelling":
        tiles = components().furnishings
        count = 0
        for other in player.board.neighbours(pos):
            furnishing = player.board.at(other).furnishing
            if furnishing == ENTRY_DWELLING or (
                furnishing in tiles and tiles[furnishing].is_dwelling
            ):
                count += 1
        return count
    return 0


# --- trades at any time --------------------------------------------------------------


def ruby_goods(state: CavernaState, seat: int) -> list[str]:
    """Goods one ruby buys for ``seat`` now (cattle also cost 1 food)."""
    player = state.players[seat]
    if player.goods["ruby"] < 1:
        return []
    tables = components().tables
    goods = list(tables.ruby_buys)
    if player.goods["food"] >= tables.ruby_cattle.get("food", 0):
        goods.append("cattle")
    return goods


def ruby_tiles(state: CavernaState, seat: int) -> list[str]:
    """Single tiles ``seat`` could buy with rubies and lay now."""
    player = state.players[seat]
    return [
        t for t, cost in components().tables.ruby_tiles.items()
        if player.goods["ruby"] >= cost and can_lay(player.board, t)
    ]


def swaps(state: CavernaState, seat: int) -> list[tuple[str, int]]:
    """The furnishings' conversions ``seat`` can afford now: (tile, choice index)."""
    player = state.players[seat]
    tiles = components().furnishings
    out = []
    for tile_id in player.board.furnishings:
        tile = tiles.get(tile_id)
        effect = tile.effect("convert") if tile else None
        if effect is None or not _has(player.goods, player.animals, effect.goods("give")):
            continue
        choices = effect.params.get("get_one_of") or [effect.goods("get")]
        out += [(tile_id, i) for i in range(len(choices))]
    return out


def _has(goods: Mapping[str, int], animals: Mapping[str, int], bill: Mapping[str, int]) -> bool:
    return all((animals if g in animals else goods).get(g, 0) >= n for g, n in bill.items())


def swap(state: CavernaState, seat: int, tile_id: str, index: int, events: list[Event]) -> None:
    """Carry out a furnishing's conversion (already checked by ``swaps``)."""
    player = state.players[seat]
    effect = components().furnishings[tile_id].effect("convert")
    assert effect is not None
    give = effect.goods("give")
    choices = effect.params.get("get_one_of") or [effect.goods("get")]
    get = dict(choices[index])
    for good, n in give.items():
        if good in player.animals:
            player.animals[good] -= n
        else:
            player.goods[good] -= n
    events.append(Event("swapped", seat, {"tile": tile_id, "give": give, "get": get}))
    receive(state, seat, get, events)


def disarmable(state: CavernaState, seat: int) -> list[int]:
    """Dwarfs whose weapon the Peaceful cave would turn into food."""
    if not any(True for _ in furnishing_effects(state, seat, "weapon_to_food")):
        return []
    return [i for i, d in enumerate(state.players[seat].dwarfs) if d.weapon]


def disarm(state: CavernaState, seat: int, dwarf: int, events: list[Event]) -> None:
    """The dwarf gives up its weapon for as much food as it was strong."""
    player = state.players[seat]
    strength = player.dwarfs[dwarf].weapon
    player.dwarfs[dwarf].weapon = 0
    player.goods["food"] += strength
    events.append(Event("disarmed", seat, {"dwarf": dwarf, "food": strength}))


def can_exchange(state: CavernaState, seat: int) -> bool:
    """Is any any-time trade open to ``seat``?"""
    return bool(
        ruby_goods(state, seat) or ruby_tiles(state, seat) or swaps(state, seat)
        or disarmable(state, seat)
    )


def offer_final_trades(state: CavernaState) -> None:
    """After the last harvest: each seat that could still trade may do so."""
    for seat in range(state.n):
        if can_exchange(state, seat):
            state.push(ExchangeStep(seat=seat, final=True))
