"""Every open decision as a prompt, and carrying out a chosen option.

One pair of functions per kind of step lists its options and applies a key; a key that
is not listed is refused with a reason code. Every apply function checks the whole key
before its first change to the state.

Keys (stable, short):

- work phase: ``go:<space>`` (the next dwarf in weapon order), ``dwarf:<i>`` (another
  dwarf, for 1 ruby), ``ruby`` (spend rubies); after ``dwarf:<i>``: ``go:<space>``;
- an action's parts: ``part:<i>`` (the i-th printed part), ``stop``;
- ``copy:<space>`` (imitate), ``pay:<conversion>`` (``grain*1+sheep*2``; the cheapest
  ways first) or ``conv:<kind>`` (one good at a time) or ``exchange`` (the any-time
  trades that keep the bill payable), ``forge:<strength>``, ``loot:<item>`` (a toggle:
  take it, or put back a taken item offered as a "back" option; ``done`` confirms),
  ``buy:<good>``, ``trade:<times>``,
  ``keep:<animals>`` / ``young:<animals>`` (``none`` for nothing), ``skip:field`` /
  ``skip:breed``, ``keep:<space>`` / ``clear`` (solo), ``done``, ``back``;
- feeding: ``cover:<conversion>``, ``conv:<kind>``, ``work:<good>``, ``beg``;
- the home board: ``lay:<tile>:<where>`` (``"2,3+1,3"`` for a twin), or first
  ``at:<x,y>`` (the square of the tile's first half, when it can be laid from there in
  several ways) then ``lay:``; ``tile:<id>`` (options grouped dwelling / green / yellow
  by their label's ``group``) then ``at:<x,y>`` (furnishing),
  ``sow:<grain fields>:<vegetable fields>``,
  ``small:<x,y>`` / ``large:<x,y+x,y>`` (fences), ``stable:<x,y>``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.caverna.animals import keep_options
from engine.caverna.anytime_trades import can_exchange, disarm, disarmable, swap, swaps
from engine.caverna.board import SOWN, Crop, pos_of
from engine.caverna.board import key as pos_key
from engine.caverna.breeding import born, breed_options
from engine.caverna.components import FARM_ANIMALS, components
from engine.caverna.expedition import ALL_WEAPONS, loot_table, returnable, supply
from engine.caverna.feeding import (
    beg,
    can_pay,
    convert,
    covers,
    decode,
    encode,
    holdings,
    one_step,
    pay,
    single_conversions,
    slaughter_bonus,
    spare,
    step_of,
    ways_to_pay,
    working_cave_cost,
    working_cave_options,
)
from engine.caverna.flow import open_action
from engine.caverna.landscape import Placement, lay, placements, ruby_mine_on_deep_tunnel
from engine.caverna.loot import loot_choices, take_loot
from engine.caverna.pastures import (
    build_stable,
    fence,
    parse_pasture_key,
    pasture_key,
    stable_spots,
)
from engine.caverna.placement import (
    RUBY_OUT_OF_ORDER,
    next_in_order,
    open_spaces,
    out_of_order,
    space_open,
    stand,
)
from engine.caverna.receiving import keep_animals, receive, settle_animals
from engine.caverna.rubies import ruby_goods, ruby_tiles
from engine.caverna.spaces import (
    arg_int,
    board_questions,
    eligible,
    empty_fields,
    fence_choices,
    fence_cost,
    furnish_bills,
    furnish_choices,
    furnish_cost,
    group_at,
    imitation_targets,
    stable_cost,
    tile_spots,
)
from engine.caverna.state import (
    BoardStep,
    BreedStep,
    CavernaState,
    ClearStep,
    ExchangeStep,
    FeedStep,
    ForgeStep,
    GroupStep,
    HarvestStep,
    ImitateStep,
    LootStep,
    MarketStep,
    OverflowStep,
    PayStep,
    PlaceStep,
    Player,
    SkipStep,
    TradeStep,
)
from engine.caverna.tile_effects import replaced_by_ore
from engine.caverna.weapons import forge, forge_strengths
from engine.core.errors import IllegalMove
from engine.core.keys import parse_number
from engine.core.machine import Machine
from engine.core.prompts import BACK, Event, Label, Option, Prompt
from engine.core.steps import Step, StepRules, Turn

DONE = Option("done", Label("cav.opt.done"))
TRADE_ORE = 2
TRADE_TIMES = 3


def _opt(key: str, code: str, **args: Any) -> Option:
    return Option(key, Label(f"cav.opt.{code}", args))


def _animals_key(animals: Mapping[str, int]) -> str:
    text = encode({k: n for k, n in animals.items() if n})
    return text or "none"


def _animals_of(text: str) -> dict[str, int] | None:
    if text == "none":
        return {}
    conv = decode(text)
    if conv is None or any(k not in FARM_ANIMALS for k in conv):
        return None
    return conv


# --- the work phase ------------------------------------------------------------------


def _space_option(state: CavernaState, space_id: str) -> Option:
    space = state.space(space_id)
    return _opt(f"go:{space_id}", "go", space=space_id, goods=dict(space.goods))


def _work_options(state: CavernaState, turn: Turn) -> list[Option]:
    seat = turn.seat
    player = state.players[seat]
    nxt = next_in_order(player)
    assert nxt is not None
    with board_questions():
        opts = [_space_option(state, s) for s in open_spaces(state, seat, nxt)]
        for dwarf in out_of_order(player):
            if open_spaces(state, seat, dwarf):
                opts.append(_opt(f"dwarf:{dwarf}", "dwarf", dwarf=dwarf,
                                 weapon=player.dwarfs[dwarf].weapon, rubies=RUBY_OUT_OF_ORDER))
    if can_exchange(state, seat):
        opts.append(_opt("exchange", "exchange"))
    return opts


def _go(state: CavernaState, seat: int, dwarf: int, space_id: str, ruby: bool,
        events: list[Event]) -> None:
    if not space_open(state, seat, dwarf, space_id):
        raise IllegalMove("space_not_open", space=space_id)
    if ruby:
        state.players[seat].goods["ruby"] -= RUBY_OUT_OF_ORDER
    stand(state, seat, dwarf, space_id)
    state.acting = seat
    events.append(Event("placed", seat, {"space": space_id, "dwarf": dwarf,
                                         "weapon": state.players[seat].dwarfs[dwarf].weapon,
                                         "out_of_order": ruby}))
    open_action(state, seat, dwarf, space_id)


def _apply_work(state: CavernaState, turn: Turn, key: str, events: list[Event]) -> None:
    seat = turn.seat
    player = state.players[seat]
    head, _, arg = key.partition(":")
    if head == "go":
        nxt = next_in_order(player)
        assert nxt is not None
        _go(state, seat, nxt, arg, False, events)
    elif head == "dwarf":
        dwarf = parse_number(arg)
        if dwarf is None or dwarf not in out_of_order(player):
            raise IllegalMove("dwarf_not_free", dwarf=arg)
        state.push(PlaceStep(seat=seat, dwarf=dwarf))
    elif key == "exchange":
        _open_exchange(state, seat)
    else:
        raise IllegalMove("unknown_option", key=key)


def _place_options(state: CavernaState, step: PlaceStep) -> list[Option]:
    return [*(_space_option(state, s) for s in open_spaces(state, step.seat, step.dwarf)), BACK]


def _apply_place(state: CavernaState, step: PlaceStep, key: str, events: list[Event]) -> None:
    if key == "back":
        state.pop(step.seat)
        return
    head, _, arg = key.partition(":")
    if head != "go":
        raise IllegalMove("unknown_option", key=key)
    if not space_open(state, step.seat, step.dwarf, arg):
        raise IllegalMove("space_not_open", space=arg)
    state.pop(step.seat)
    _go(state, step.seat, step.dwarf, arg, True, events)


# --- an action's parts ---------------------------------------------------------------


def _part_label(step: GroupStep, index: int) -> dict[str, Any]:
    part = group_at(step.space, step.path).parts[index]
    args: dict[str, Any] = {"space": step.space, "do": part.do}
    if part.goods:
        args["goods"] = dict(part.goods)
    if part.kinds:
        args["kinds"] = list(part.kinds)
    if part.level:
        args["level"] = part.level
    if part.group is not None:
        args["parts"] = [p.do for p in part.group.parts]
    return args


def _group_options(state: CavernaState, step: GroupStep) -> list[Option]:
    opts = [_opt(f"part:{i}", "part", **_part_label(step, i)) for i in eligible(state, step)]
    if step.done:
        opts.append(_opt("stop", "stop"))
    return opts


def _apply_group(state: CavernaState, step: GroupStep, key: str, events: list[Event]) -> None:
    from engine.caverna.flow import do_part

    if key == "stop" and step.done:
        state.pop(step.seat)
        return
    head, _, arg = key.partition(":")
    index = parse_number(arg)
    if head != "part" or index is None or index not in eligible(state, step):
        raise IllegalMove("part_not_open", key=key)
    do_part(state, step, index, events)


# --- imitation and payments ----------------------------------------------------------


def _imitate_options(state: CavernaState, step: ImitateStep) -> list[Option]:
    return [
        _opt(f"copy:{s}", "copy", space=s, cost=step.cost)
        for s in imitation_targets(state, step.seat, step.dwarf, step.cost)
    ]


def _apply_imitate(state: CavernaState, step: ImitateStep, key: str, events: list[Event]) -> None:
    head, _, target = key.partition(":")
    if head != "copy" or target not in imitation_targets(state, step.seat, step.dwarf, step.cost):
        raise IllegalMove("cannot_imitate", key=key)
    state.pop(step.seat)
    events.append(Event("imitated", step.seat, {"space": target, "cost": step.cost}))
    _pay_then(state, step.seat, {"food": step.cost}, f"imitate:{target}:{step.dwarf}", events)


FEW_WAYS = 3  # cheapest ways offered for a payment or a feeding


def _pay_then(state: CavernaState, seat: int, bill: dict[str, int], then: str,
              events: list[Event]) -> None:
    """Pay ``bill``, asking how when food must be converted and there is a choice, then
    carry on."""
    ways = ways_to_pay(state.players[seat], bill)
    assert ways, f"unpayable bill {bill}"
    step = PayStep(seat=seat, bill=bill, then=then)
    if len(ways) == 1 and (ways == [{}] or len(_pay_options(state, step)) == 2):
        _paid(state, seat, bill, ways[0], then, events)
    else:
        state.push(step)


def _paid(state: CavernaState, seat: int, bill: dict[str, int], conversion: dict[str, int],
          then: str, events: list[Event]) -> None:
    player = state.players[seat]
    rubies = pay(player, bill, conversion)
    args: dict[str, Any] = {"bill": {g: n for g, n in bill.items() if n}, "for": then}
    if conversion:
        args["converted"] = dict(conversion)
    if rubies:
        args["rubies"] = rubies
    events.append(Event("paid", seat, args))
    _carry_on(state, seat, then, events)


def _carry_on(state: CavernaState, seat: int, then: str, events: list[Event]) -> None:
    """What a payment was for."""
    head, _, rest = then.partition(":")
    if head == "imitate":
        target, _, dwarf = rest.partition(":")
        open_action(state, seat, int(dwarf), target, imitated=True)
    elif head == "furnish":
        tile_id, _, where = rest.partition("@")
        pos = pos_of(where)
        assert pos is not None
        _furnish(state, seat, tile_id, pos, events)
    elif head == "buy":
        receive(state, seat, {rest: 1}, events)
    else:
        raise AssertionError(then)


def _convert_opt(player: Player, have: Mapping[str, int], kind: str, short: int) -> Option:
    """Converting one step of ``kind``, labelled with what it takes and gives (gold and
    donkeys go more than one at a time)."""
    count, food = step_of(player, have, kind, short)
    return _opt(f"conv:{kind}", "convert", kind=kind, count=count, food=food)


def _pay_kinds(player: Player, bill: Mapping[str, int]) -> list[str]:
    """Kinds that may be converted one step at a time towards ``bill`` (the custom
    way), while the food is still short."""
    if player.goods["food"] >= bill.get("food", 0):
        return []
    have = spare(player, bill)
    return [k for k, n in have.items() if n and (k != "gold" or n >= 2)]


def _pay_options(state: CavernaState, step: PayStep) -> list[Option]:
    """The cheapest ways first (fewest points lost), then converting one kind at a time,
    then the any-time trades."""
    player = state.players[step.seat]
    opts = [_opt(f"pay:{encode(c)}", "pay", bill=dict(step.bill), converted=c)
            for c in ways_to_pay(player, step.bill)[:FEW_WAYS]]
    short = step.bill.get("food", 0) - player.goods["food"]
    have = spare(player, step.bill)
    opts += [_convert_opt(player, have, k, short) for k in _pay_kinds(player, step.bill)]
    if _safe_trades(state, step.seat, step.bill):
        opts.append(_opt("exchange", "exchange"))
    return opts


def _apply_pay(state: CavernaState, step: PayStep, key: str, events: list[Event]) -> None:
    player = state.players[step.seat]
    head, _, arg = key.partition(":")
    if head == "conv" and arg in _pay_kinds(player, step.bill):
        short = step.bill.get("food", 0) - player.goods["food"]
        count = one_step(spare(player, step.bill), arg, short)
        food = convert(player, {arg: count})
        events.append(Event("converted", step.seat, {"kind": arg, "count": count, "food": food}))
        return
    if key == "exchange" and _safe_trades(state, step.seat, step.bill):
        state.push(ExchangeStep(seat=step.seat))
        return
    conversion = ({} if arg == "" else decode(arg)) if head == "pay" else None
    if conversion is None or conversion not in ways_to_pay(player, step.bill)[:FEW_WAYS]:
        raise IllegalMove("unknown_option", key=key)
    state.pop(step.seat)
    _paid(state, step.seat, step.bill, conversion, step.then, events)


# --- weapons, expeditions, market, trade ---------------------------------------------


def _forge_options(state: CavernaState, step: ForgeStep) -> list[Option]:
    player = state.players[step.seat]
    return [_opt(f"forge:{s}", "forge", strength=s) for s in forge_strengths(player, step.dwarf)]


def _apply_forge(state: CavernaState, step: ForgeStep, key: str, events: list[Event]) -> None:
    head, _, arg = key.partition(":")
    strength = parse_number(arg)
    if head != "forge" or strength not in forge_strengths(state.players[step.seat], step.dwarf):
        raise IllegalMove("cannot_forge", key=key)
    assert strength is not None
    state.pop(step.seat)
    forge(state, step.seat, step.dwarf, strength, events)


def _loot_options(state: CavernaState, step: LootStep) -> list[Option]:
    """Loot as toggles: each item still open (tap to take), each taken item that can be
    put back (shown apart, as a step back), and the confirmation with the count."""
    table = loot_table()
    opts = [
        _opt(f"loot:{i}", "loot", item=i, strength=table[i].strength,
             goods=dict(table[i].goods), does=table[i].does)
        for i in loot_choices(state, step)
    ]
    opts += [Option(f"loot:{i}", Label("cav.opt.loot_back", {"item": i}), back=True)
             for i in returnable(state, step)]
    return [*opts, _opt("done", "loot_done", taken=len(step.taken), level=step.level)]


def _take(state: CavernaState, step: LootStep, item: str, events: list[Event]) -> None:
    """Take ``item``, and note what it gave if it can be put back."""
    player = state.players[step.seat]
    before, depth, mark = supply(player), len(state.stacks[step.seat]), len(events)
    take_loot(state, step, item, events)
    settled = state.top(step.seat) is step and len(state.stacks[step.seat]) == depth
    eaten = any(e.code == "animals_eaten" for e in events[mark:])
    plain = loot_table()[item].goods or loot_table()[item].does == ALL_WEAPONS
    if plain and settled and not eaten:
        after = supply(player)
        step.returns[item] = {g: after[g] - before[g] for g in after if after[g] != before[g]}


def _put_back(state: CavernaState, step: LootStep, item: str, events: list[Event]) -> None:
    """Undo taking ``item`` (one of :func:`returnable`)."""
    player = state.players[step.seat]
    for good, amount in step.returns.pop(item).items():
        if good in player.animals:
            player.animals[good] -= amount
        else:
            player.goods[good] -= amount
    step.taken.remove(item)
    events.append(Event("loot_returned", step.seat, {"item": item}))


def _apply_loot(state: CavernaState, step: LootStep, key: str, events: list[Event]) -> None:
    from engine.caverna.expedition import finish_expedition

    if key == "done":
        state.pop(step.seat)
        finish_expedition(state, step, events)
        return
    head, _, item = key.partition(":")
    if head == "loot" and item in returnable(state, step):
        _put_back(state, step, item, events)
    elif head == "loot" and item in loot_choices(state, step):
        _take(state, step, item, events)
    else:
        raise IllegalMove("loot_not_open", key=key)


def _market_goods(state: CavernaState, step: MarketStep) -> list[str]:
    player = state.players[step.seat]
    return [
        g for g, price in components().market_prices.items()
        if g not in step.bought and can_pay(player, {"gold": price})
    ]


def _market_options(state: CavernaState, step: MarketStep) -> list[Option]:
    prices = components().market_prices
    opts = [_opt(f"buy:{g}", "buy", good=g, gold=prices[g]) for g in _market_goods(state, step)]
    return [*opts, DONE]


def _apply_market(state: CavernaState, step: MarketStep, key: str, events: list[Event]) -> None:
    if key == "done":
        state.pop(step.seat)
        return
    head, _, good = key.partition(":")
    if head != "buy" or good not in _market_goods(state, step):
        raise IllegalMove("cannot_buy", key=key)
    step.bought.append(good)
    price = components().market_prices[good]
    pay(state.players[step.seat], {"gold": price}, {})
    events.append(Event("bought", step.seat, {"good": good, "gold": price}))
    receive(state, step.seat, {good: 1}, events)


def _trade_times(state: CavernaState, step: TradeStep) -> list[int]:
    ore = state.players[step.seat].goods["ore"]
    return list(range(1, min(TRADE_TIMES, ore // TRADE_ORE) + 1))


def _trade_options(state: CavernaState, step: TradeStep) -> list[Option]:
    return [_opt(f"trade:{k}", "trade", times=k) for k in _trade_times(state, step)]


def _apply_trade(state: CavernaState, step: TradeStep, key: str, events: list[Event]) -> None:
    head, _, arg = key.partition(":")
    times = parse_number(arg)
    if head != "trade" or times not in _trade_times(state, step):
        raise IllegalMove("cannot_trade", key=key)
    assert times is not None
    state.pop(step.seat)
    player = state.players[step.seat]
    player.goods["ore"] -= TRADE_ORE * times
    events.append(Event("traded", step.seat, {"times": times}))
    receive(state, step.seat, {"gold": 2 * times, "food": times}, events)


# --- animals -------------------------------------------------------------------------


def _overflow_choices(state: CavernaState, seat: int) -> list[dict[str, int]]:
    player = state.players[seat]
    return keep_options(player.board, player.animals, len(player.dwarfs))


def _overflow_options(state: CavernaState, step: OverflowStep) -> list[Option]:
    return [
        _opt(f"keep:{_animals_key(k)}", "keep", animals=k)
        for k in _overflow_choices(state, step.seat)
    ]


def _apply_overflow(state: CavernaState, step: OverflowStep, key: str,
                    events: list[Event]) -> None:
    head, _, arg = key.partition(":")
    keep = _animals_of(arg) if head == "keep" else None
    choices = _overflow_choices(state, step.seat)
    if keep is None:
        raise IllegalMove("unknown_option", key=key)
    full = {k: keep.get(k, 0) for k in FARM_ANIMALS}
    if full not in choices:
        raise IllegalMove("unknown_option", key=key)
    state.pop(step.seat)
    keep_animals(state, step.seat, full, events)


def _breed_options(state: CavernaState, step: BreedStep) -> list[Option]:
    return [
        _opt(f"young:{_animals_key(o)}", "young", animals=o)
        for o in breed_options(state, step.seat, step.limit)
    ]


def _apply_breed(state: CavernaState, step: BreedStep, key: str, events: list[Event]) -> None:
    head, _, arg = key.partition(":")
    young = _animals_of(arg) if head == "young" else None
    if young is None or young not in breed_options(state, step.seat, step.limit):
        raise IllegalMove("unknown_option", key=key)
    state.pop(step.seat)
    born(state, step.seat, young, events)


# --- trades at any time -------------------------------------------------------------


def _trades(state: CavernaState, seat: int) -> list[Option]:
    """Every any-time trade open to ``seat``."""
    opts = [_opt(f"buy:{g}", "ruby_buy", good=g) for g in ruby_goods(state, seat)]
    costs = components().tables.ruby_tiles
    opts += [_opt(f"tile:{t}", "ruby_tile", tile=t, rubies=costs[t])
             for t in ruby_tiles(state, seat)]
    opts += [_opt(f"swap:{t}:{i}", "swap", tile=t, choice=i) for t, i in swaps(state, seat)]
    dwarfs = state.players[seat].dwarfs
    opts += [_opt(f"disarm:{d}", "disarm", dwarf=d, food=dwarfs[d].weapon)
             for d in disarmable(state, seat)]
    return opts


def _safe_trades(state: CavernaState, seat: int, bill: Mapping[str, int]) -> list[Option]:
    """The trades that leave ``bill`` payable (tried on a copy), during a payment. A
    single tile bought with rubies is left out: it is laid later and its rubies might be
    the ones the bill needs."""
    out = []
    for option in _trades(state, seat):
        if option.key.startswith("tile:"):
            continue
        trial = state.model_copy(deep=True)
        _trade(trial, ExchangeStep(seat=seat), option.key, [])
        if can_pay(trial.players[seat], bill):
            out.append(option)
    return out


def _paying(state: CavernaState, step: ExchangeStep) -> PayStep | None:
    """The payment an exchange was opened from, if any (it lies right below)."""
    stack = state.stacks.get(step.seat, [])
    below = stack[-2] if len(stack) > 1 and stack[-1] is step else None
    return below if isinstance(below, PayStep) else None


def _exchange_options(state: CavernaState, step: ExchangeStep) -> list[Option]:
    paying = _paying(state, step)
    opts = (_trades(state, step.seat) if paying is None
            else _safe_trades(state, step.seat, paying.bill))
    return [*opts, DONE if step.final else BACK]


def _apply_exchange(state: CavernaState, step: ExchangeStep, key: str,
                    events: list[Event]) -> None:
    seat = step.seat
    if key == ("done" if step.final else "back"):
        state.pop(seat)
        return
    paying = _paying(state, step)
    if paying is not None and key not in {o.key for o in _safe_trades(state, seat,
                                                                        paying.bill)}:
        raise IllegalMove("unknown_option", key=key)
    _trade(state, step, key, events)


def _trade(state: CavernaState, step: ExchangeStep, key: str, events: list[Event]) -> None:
    """Carry out the any-time trade ``key``."""
    seat = step.seat
    head, _, arg = key.partition(":")
    player = state.players[seat]
    if head == "buy" and arg in ruby_goods(state, seat):
        player.goods["ruby"] -= 1
        if arg == "cattle":
            player.goods["food"] -= components().tables.ruby_cattle.get("food", 0)
        events.append(Event("ruby_spent", seat, {"good": arg}))
        receive(state, seat, {arg: 1}, events)
    elif head == "tile" and arg in ruby_tiles(state, seat):
        cost = components().tables.ruby_tiles[arg]
        state.push(BoardStep(seat=seat, what="single", args={"tile": arg, "ruby": cost}))
    elif head == "swap":
        tile_id, _, text = arg.partition(":")
        index = parse_number(text)
        if index is None or (tile_id, index) not in swaps(state, seat):
            raise IllegalMove("cannot_swap", key=key)
        swap(state, seat, tile_id, index, events)
    elif head == "disarm":
        dwarf = parse_number(arg)
        if dwarf is None or dwarf not in disarmable(state, seat):
            raise IllegalMove("cannot_disarm", key=key)
        disarm(state, seat, dwarf, events)
    else:
        raise IllegalMove("unknown_option", key=key)


def _open_exchange(state: CavernaState, seat: int) -> None:
    if not can_exchange(state, seat):
        raise IllegalMove("nothing_to_exchange")
    state.push(ExchangeStep(seat=seat))


# --- the harvest ---------------------------------------------------------------------


def _skip_options(state: CavernaState, step: SkipStep) -> list[Option]:
    return [_opt("skip:field", "skip", stage="field"), _opt("skip:breed", "skip", stage="breed")]


def _apply_skip(state: CavernaState, step: SkipStep, key: str, events: list[Event]) -> None:
    stage = {"skip:field": "field", "skip:breed": "breed"}.get(key)
    if stage is None:
        raise IllegalMove("unknown_option", key=key)
    state.pop(step.seat)
    harvest = state.top(step.seat)
    assert isinstance(harvest, HarvestStep)
    harvest.stages.remove(stage)
    events.append(Event("skipped", step.seat, {"stage": stage}))


def _feed_covers(state: CavernaState, step: FeedStep) -> list[dict[str, int]]:
    player = state.players[step.seat]
    short = step.need - player.goods["food"]
    return covers(holdings(player), short, slaughter_bonus(player), limit=FEW_WAYS)


def _per_dwarf(state: CavernaState, step: FeedStep) -> int:
    """Food one dwarf eats in this feeding (from the harvest under the feeding step)."""
    stack = state.stacks[step.seat]
    harvest = stack[-2] if len(stack) > 1 else None
    if isinstance(harvest, HarvestStep):
        return harvest.feed_per_dwarf
    return components().tables.harvest.food_per_dwarf


def _working_cave(state: CavernaState, step: FeedStep) -> list[str]:
    if step.substituted or step.need <= 0:
        return []
    return working_cave_options(state.players[step.seat])


def _feed_options(state: CavernaState, step: FeedStep) -> list[Option]:
    player = state.players[step.seat]
    opts = [_opt(f"cover:{encode(c)}", "cover", converted=c) for c in _feed_covers(state, step)]
    short = step.need - player.goods["food"]
    opts += [_convert_opt(player, holdings(player), k, short) for k in single_conversions(player)]
    opts += [_opt(f"work:{g}", "working_cave", good=g, cost=working_cave_cost(player, g))
             for g in _working_cave(state, step)]
    if can_exchange(state, step.seat):
        opts.append(_opt("exchange", "exchange"))
    missing = step.need - player.goods["food"]
    opts.append(_opt("beg", "beg", food=player.goods["food"], markers=missing))
    return opts


def _apply_feed(state: CavernaState, step: FeedStep, key: str, events: list[Event]) -> None:
    player = state.players[step.seat]
    head, _, arg = key.partition(":")
    if key == "beg":
        state.pop(step.seat)
        beg(state, step.seat, step.need, events)
    elif key == "exchange":
        _open_exchange(state, step.seat)
    elif head == "cover":
        conv = decode(arg)
        if conv is None or conv not in _feed_covers(state, step):
            raise IllegalMove("unknown_option", key=key)
        food = convert(player, conv)
        events.append(Event("converted", step.seat, {"goods": conv, "food": food}))
    elif head == "conv" and arg in single_conversions(player):
        short = step.need - player.goods["food"]
        count = one_step(holdings(player), arg, short)
        food = convert(player, {arg: count})
        events.append(Event("converted", step.seat, {"kind": arg, "count": count, "food": food}))
    elif head == "work" and arg in _working_cave(state, step):
        player.goods[arg] -= working_cave_cost(player, arg)
        step.need = max(0, step.need - _per_dwarf(state, step))
        step.substituted = True
        events.append(Event("fed_with", step.seat, {"good": arg}))
    else:
        raise IllegalMove("unknown_option", key=key)


# --- solo clearing -------------------------------------------------------------------


def _clear_options(state: CavernaState, step: ClearStep) -> list[Option]:
    opts = []
    if state.players[step.seat].goods["ruby"] >= 1:
        opts = [_opt(f"keep:{s}", "keep_space", space=s, goods=dict(state.space(s).goods))
                for s in step.spaces]
    return [*opts, _opt("clear", "clear", spaces=list(step.spaces))]


def _apply_clear(state: CavernaState, step: ClearStep, key: str, events: list[Event]) -> None:
    from engine.caverna.rounds import clear_space

    head, _, space = key.partition(":")
    player = state.players[step.seat]
    if key == "clear":
        state.pop(step.seat)
        for s in step.spaces:
            clear_space(state, s, events)
    elif head == "keep" and space in step.spaces and player.goods["ruby"] >= 1:
        player.goods["ruby"] -= 1
        step.spaces.remove(space)
        events.append(Event("space_kept", step.seat, {"space": space}))
        if not step.spaces:
            state.pop(step.seat)
    else:
        raise IllegalMove("unknown_option", key=key)


# --- the home board ------------------------------------------------------------------


def board_options(state: CavernaState, step: BoardStep) -> list[Option]:
    """The options of a home-board step."""
    player = state.players[step.seat]
    board = player.board
    args = step.args
    what = step.what
    opts: list[Option] = []
    if what in ("twin", "single", "ruby_mine"):
        first = args.get("first")
        for spot, found in _by_spot(_lay_choices(state, step)).items():
            if first is not None and spot != first:
                continue
            if first is None and len(found) > 1:
                # Several ways to lay the tile from this square: its square first, then
                # (a second step) which way the tile points.
                opts.append(_opt(f"at:{spot}", "lay_at", at=spot, ways=len(found)))
            else:
                opts += [_opt(f"lay:{tile}:{p.key}", "lay", tile=tile, at=p.key)
                         for tile, p in found]
        if first is not None or "ruby" in args:
            opts.append(BACK)
    elif what == "furnish":
        chosen = args.get("tile")
        if chosen is None:
            scope = str(args["scope"])
            opts = [_opt(f"tile:{t}", "tile", tile=t, cost=furnish_cost(player, t, scope),
                         group=_furnish_group(t))
                    for t in _by_group(furnish_choices(state, step.seat, scope))]
        elif "at" not in args:
            opts = [_opt(f"at:{pos_key(p)}", "at", tile=chosen, at=pos_key(p))
                    for p in tile_spots(state, step.seat, str(chosen))]
            opts.append(BACK)
        else:
            opts = [_opt(f"ore:{_ore_key(bill, v)}", "pay_ore", tile=chosen, bill=v)
                    for bill, v in _ore_bills(player, step)]
            opts.append(BACK)
    elif what == "sow":
        opts = [_opt(f"sow:{g}:{v}", "sow", grain=g, vegetable=v) for g, v in _sowings(state, step)]
    elif what == "fences":
        opts = [_opt(f"{size}:{pasture_key(spot)}", "fence", size=size, at=pasture_key(spot),
                     cost=fence_cost(player, step, size))
                for size, spot in fence_choices(player, step)]
        if args.get("built"):
            opts.append(DONE)
    elif what == "stable" and can_pay(player, stable_cost(player, step)):
        opts = [_opt(f"stable:{pos_key(p)}", "stable", at=pos_key(p),
                     cost=stable_cost(player, step))
                for p in stable_spots(board)]
    return opts


def _lay_choices(state: CavernaState, step: BoardStep) -> list[tuple[str, Placement]]:
    board = state.players[step.seat].board
    return [(t, p) for t, base in _tiles_of(step) for p in placements(board, t, base)]


def _first(placement: Placement) -> str:
    """The square of a placement's first half: where a tile is said to be laid."""
    return pos_key(placement.cells[0][0])


def _by_spot(choices: list[tuple[str, Placement]]) -> dict[str, list[tuple[str, Placement]]]:
    """The legal placements grouped by the square of their first half, in board order."""
    out: dict[str, list[tuple[str, Placement]]] = {}
    for tile, placement in choices:
        out.setdefault(_first(placement), []).append((tile, placement))
    return out


FURNISH_GROUPS: tuple[str, ...] = ("dwelling", "green", "yellow")


def _furnish_group(tile_id: str) -> str:
    """The option group of a furnishing tile: dwellings, green or yellow tiles."""
    kind = components().furnishings[tile_id].kind
    return kind if kind in FURNISH_GROUPS else "green"


def _by_group(tiles: list[str]) -> list[str]:
    """``tiles`` with the dwellings first, then the green, then the yellow tiles (supply
    order within each), so the buttons keep the order of the groups they are shown in."""
    return sorted(tiles, key=lambda t: FURNISH_GROUPS.index(_furnish_group(t)))


def _tiles_of(step: BoardStep) -> list[tuple[str, str | None]]:
    args = step.args
    if step.what == "twin":
        kinds = args["kinds"]
        return [(str(k), None) for k in (kinds if isinstance(kinds, list) else [kinds])]
    if step.what == "single":
        return [(str(args["tile"]), None)]
    return [("ruby_mine", str(args["onto"]))]


def _sowings(state: CavernaState, step: BoardStep) -> list[tuple[int, int]]:
    player = state.players[step.seat]
    fields = len(empty_fields(player))
    out = []
    for g in range(3):
        for v in range(3):
            if 0 < g + v <= fields and can_pay(player, {"grain": g, "vegetable": v}):
                out.append((g, v))
    return out


def _apply_board(state: CavernaState, step: BoardStep, key: str, events: list[Event]) -> None:
    seat = step.seat
    player = state.players[seat]
    board = player.board
    head, _, arg = key.partition(":")
    what = step.what
    if key == "back":
        for name in ("first", "at", "tile") if what != "single" else ("first",):
            if name in step.args:
                del step.args[name]
                return
        if "ruby" in step.args:
            state.pop(seat)
            return
        raise IllegalMove("unknown_option", key=key)
    if what in ("twin", "single", "ruby_mine") and head == "at":
        found = _by_spot(_lay_choices(state, step)).get(arg, [])
        if "first" in step.args or len(found) < 2:
            raise IllegalMove("tile_not_here", key=key)
        step.args["first"] = arg
        return
    if what in ("twin", "single", "ruby_mine") and head == "lay":
        tile, _, where = arg.partition(":")
        for t, base in _tiles_of(step):
            if t != tile:
                continue
            for placement in placements(board, tile, base):
                if placement.key == where:
                    state.pop(seat)
                    rubies = arg_int(step, "ruby")
                    player.goods["ruby"] -= rubies
                    deep = ruby_mine_on_deep_tunnel(board, placement)
                    gained = lay(board, placement)
                    events.append(Event("tile_laid", seat, {"tile": tile, "at": where,
                                                            "rubies": rubies, "deep": deep}))
                    receive(state, seat, gained, events)
                    settle_animals(state, seat, events)
                    return
        raise IllegalMove("tile_not_here", key=key)
    if what == "furnish":
        _apply_furnish(state, step, head, arg, events)
        return
    if what == "sow" and head == "sow":
        g_text, _, v_text = arg.partition(":")
        g, v = parse_number(g_text), parse_number(v_text)
        if g is None or v is None or (g, v) not in _sowings(state, step):
            raise IllegalMove("cannot_sow", key=key)
        state.pop(seat)
        _sow(state, seat, g, v, events)
        return
    if what == "fences":
        if key == "done" and step.args.get("built"):
            state.pop(seat)
            return
        spot = parse_pasture_key(arg)
        if spot is None or (head, spot) not in fence_choices(player, step):
            raise IllegalMove("pasture_not_here", key=key)
        cost = fence_cost(player, step, head)
        pay(player, cost, {})
        kind = fence(board, spot)
        built = step.args.get("built")
        step.args["built"] = [*(built if isinstance(built, list) else []), head]
        step.args["discounted"] = 1
        events.append(Event("fenced", seat, {"pasture": kind, "at": arg, "cost": cost}))
        if not fence_choices(player, step):
            state.pop(seat)
        settle_animals(state, seat, events)
        return
    if what == "stable" and head == "stable":
        pos = pos_of(arg)
        if pos is None or pos not in stable_spots(board) or not can_pay(
            player, stable_cost(player, step)
        ):
            raise IllegalMove("stable_not_here", key=key)
        state.pop(seat)
        cost = stable_cost(player, step)
        pay(player, cost, {})
        build_stable(board, pos)
        events.append(Event("stable_built", seat, {"at": arg, "cost": cost}))
        settle_animals(state, seat, events)
        return
    raise IllegalMove("unknown_option", key=key)


def _apply_furnish(state: CavernaState, step: BoardStep, head: str, arg: str,
                   events: list[Event]) -> None:
    seat = step.seat
    scope = str(step.args["scope"])
    chosen = step.args.get("tile")
    if chosen is None:
        if head != "tile" or arg not in furnish_choices(state, seat, scope):
            raise IllegalMove("cannot_furnish", tile=arg)
        spots = tile_spots(state, seat, arg)
        if len(spots) > 1:
            step.args["tile"] = arg
            return
        chosen, pos = arg, spots[0]
    elif "at" not in step.args:
        found = pos_of(arg) if head == "at" else None
        if found is None or found not in tile_spots(state, seat, str(chosen)):
            raise IllegalMove("cannot_furnish_here", at=arg)
        pos = found
    else:
        pos = pos_of(str(step.args["at"])) or (0, 0)
        bill = next((v for b, v in _ore_bills(state.players[seat], step)
                     if head == "ore" and _ore_key(b, v) == arg), None)
        if bill is None:
            raise IllegalMove("unknown_option", key=f"{head}:{arg}")
        state.pop(seat)
        _pay_then(state, seat, bill, f"furnish:{chosen}@{pos_key(pos)}", events)
        return
    tile_id = str(chosen)
    bills = furnish_bills(state.players[seat], tile_id, scope)
    if len(bills) > 1:
        # The Builder: which goods ore stands in for is the player's choice.
        step.args["tile"], step.args["at"] = tile_id, pos_key(pos)
        return
    state.pop(seat)
    _pay_then(state, seat, bills[0], f"furnish:{tile_id}@{pos_key(pos)}", events)


def _ore_bills(player: Player, step: BoardStep) -> list[tuple[dict[str, int], dict[str, int]]]:
    """(the tile's cost, a payable bill) for each way the Builder allows."""
    tile_id, scope = str(step.args["tile"]), str(step.args["scope"])
    cost = furnish_cost(player, tile_id, scope)
    return [(cost, bill) for bill in furnish_bills(player, tile_id, scope)]


def _ore_key(cost: Mapping[str, int], bill: Mapping[str, int]) -> str:
    """``none``, ``wood``, ``stone`` or ``wood+stone``: what ore stands in for."""
    return "+".join(replaced_by_ore(cost, bill)) or "none"


def _furnish(state: CavernaState, seat: int, tile_id: str, pos: tuple[int, int],
             events: list[Event]) -> None:
    from engine.caverna.furnishing import furnished

    player = state.players[seat]
    below = player.board.at(pos).furnishing
    if below is not None:
        player.covered.append(below)  # overbuilt: its ability and points are gone
        events.append(Event("covered", seat, {"tile": below}))
    player.board.edit(pos).furnishing = tile_id
    events.append(Event("furnished", seat, {"tile": tile_id, "at": pos_key(pos)}))
    furnished(state, seat, tile_id, pos, events)


def _sow(state: CavernaState, seat: int, grain: int, vegetable: int, events: list[Event]) -> None:
    player = state.players[seat]
    pay(player, {"grain": grain, "vegetable": vegetable}, {})
    fields = empty_fields(player)
    for i, pos in enumerate(fields[:grain + vegetable]):
        crop: Crop = "grain" if i < grain else "vegetable"
        space = player.board.edit(pos)
        space.crop = crop
        space.crop_count = SOWN[crop]
    events.append(Event("sowed", seat, {"grain": grain, "vegetable": vegetable}))
    settle_animals(state, seat, events)


# --- the questions ------------------------------------------------------------------


def _work_label(state: CavernaState, turn: Turn) -> Label:
    player = state.players[turn.seat]
    nxt = next_in_order(player)
    weapon = player.dwarfs[nxt].weapon if nxt is not None else 0
    return Label("cav.prompt.place", {"round": state.round, "dwarf": nxt, "weapon": weapon})


def _group_label(state: CavernaState, step: GroupStep) -> Label:
    return Label("cav.prompt.group", {"space": step.space, "imitated": step.imitated})


def _loot_label(state: CavernaState, step: LootStep) -> Label:
    return Label("cav.prompt.loot", {"level": step.level, "strength": step.strength,
                                     "taken": list(step.taken)})


def _feed_label(state: CavernaState, step: FeedStep) -> Label:
    return Label("cav.prompt.feed",
                 {"need": step.need, "food": state.players[step.seat].goods["food"]})


def _board_label(state: CavernaState, step: BoardStep) -> Label:
    return Label("cav.prompt.board", {"what": step.what, **step.args})


def _pay_label(state: CavernaState, step: PayStep) -> Label:
    return Label("cav.prompt.pay",
                 {"bill": dict(step.bill), "food": state.players[step.seat].goods["food"]})


def _imitate_label(state: CavernaState, step: ImitateStep) -> Label:
    return Label("cav.prompt.imitate", {"cost": step.cost})


def _kind_label(state: CavernaState, step: Step) -> Label:
    """The question of a step that mentions nothing but its kind."""
    return Label(f"cav.prompt.{step.kind}", {})


# --- the machine ---------------------------------------------------------------------

# Each kind of step: its options, how a key is applied, its question. ``work`` is the
# first step of a turn in the work phase (a ``Turn``: placing the next dwarf).
RULES: dict[str, StepRules[CavernaState, Any]] = {
    "work": StepRules(_work_options, _apply_work, _work_label),
    "place": StepRules(_place_options, _apply_place, _kind_label),
    "group": StepRules(_group_options, _apply_group, _group_label),
    "imitate": StepRules(_imitate_options, _apply_imitate, _imitate_label),
    "pay": StepRules(_pay_options, _apply_pay, _pay_label),
    "forge": StepRules(_forge_options, _apply_forge, _kind_label),
    "loot": StepRules(_loot_options, _apply_loot, _loot_label),
    "market": StepRules(_market_options, _apply_market, _kind_label),
    "trade": StepRules(_trade_options, _apply_trade, _kind_label),
    "overflow": StepRules(_overflow_options, _apply_overflow, _kind_label),
    "breed": StepRules(_breed_options, _apply_breed, _kind_label),
    "exchange": StepRules(_exchange_options, _apply_exchange, _kind_label),
    "skip": StepRules(_skip_options, _apply_skip, _kind_label),
    "feed": StepRules(_feed_options, _apply_feed, _feed_label),
    "clear": StepRules(_clear_options, _apply_clear, _kind_label),
    "board": StepRules(board_options, _apply_board, _board_label),
}


def _deciding(state: CavernaState) -> list[int]:
    """Seats with a decision open now."""
    if state.phase == "over":
        return []
    if state.stacks:
        return sorted(state.stacks)
    if state.phase == "work":
        return [state.turn]
    return []


def _current(state: CavernaState, seat: int) -> Step:
    """The step ``seat`` faces: its open step, else placing its next dwarf."""
    frame = state.top(seat)
    return Turn("work", seat) if frame is None else frame


def _depth(state: CavernaState, step: Step) -> int:
    """In the work phase the stack sits on top of the turn's own first step."""
    if isinstance(step, Turn):
        return 1
    return len(state.stacks[step.seat]) + (1 if state.phase == "work" else 0)


def _over(state: CavernaState) -> bool:
    return state.phase == "over"


MACHINE: Machine[CavernaState] = Machine(
    rules=RULES, over=_over, deciding=_deciding, current=_current, depth=_depth,
)


def prompt_for(state: CavernaState, seat: int) -> Prompt | None:
    """The decision open for ``seat`` now, if any."""
    return MACHINE.prompt_for(state, seat)


def pending(state: CavernaState) -> list[Prompt]:
    """Every open decision."""
    return MACHINE.pending(state)
