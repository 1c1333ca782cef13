"""Every open decision as a prompt, and carrying out a chosen option.

Each kind of decision (placing, choosing the next action, adding tools to a roll,
paying, taking two resources, picking a die) has one function that lists its options
and one that applies a key. A key that is not listed is refused with the reason the
rules give — except for a few complete shortcuts (a full ``pay:`` bill, tiles of one
value named by another slot in ``take:``) that a typed command may use and that are
checked just as strictly, and the keys of games logged before choices were merged:
``at:<site>`` then ``n:<people>`` (a step of its own), tools added one at a time
(``tool:<slot>``, ``once:<index>``, then ``take``).
"""

from __future__ import annotations

from functools import cache, lru_cache
from typing import Any, Final

from engine.core.errors import IllegalMove
from engine.core.keys import keyed_number, parse_number
from engine.core.machine import Machine
from engine.core.prompts import BACK, Event, Label, Option, one_per_label
from engine.core.stacks import pop, push, stack_depth
from engine.core.steps import Step, StepRules, Turn, fixed_label
from engine.stone_age.buildings import building_points, take_building, top_building
from engine.stone_age.civilization import slot_cost, take_card
from engine.stone_age.components import GATHERING, RESOURCES, components
from engine.stone_age.feeding import HUNGER_PENALTY, feed_with, go_hungry
from engine.stone_age.flow import put_people, start_action, take_die
from engine.stone_age.gathering import (
    ToolUse,
    divisor,
    finish_roll,
    roll_total,
    roll_yield,
    toggle_once,
    toggle_tool,
    tool_uses,
    tools_bonus,
    use_tools,
)
from engine.stone_age.listing import forgetting
from engine.stone_age.order import later, next_action
from engine.stone_age.payment import (
    Bill,
    affordable,
    bill_dict,
    bill_key,
    bill_of,
    bills,
    card_rule,
    completable,
    fits,
    holdings,
    listed,
    parse_bill,
    pay,
)
from engine.stone_age.placement import (
    CARD_SLOTS,
    PILE_SLOTS,
    fixed_count,
    legal_counts,
    open_places,
    placement_error,
    slot_index,
)
from engine.stone_age.state import (
    BoonStep,
    CountStep,
    Frame,
    PayStep,
    PickStep,
    Player,
    RollStep,
    StoneAgeState,
)
from engine.stone_age.tools import ready_tools

# Every way to take two resources, for the "two resources of your choice" card.
TWO_RESOURCE_BILLS: Final[list[Bill]] = bills(card_rule(2), (2, 2, 2, 2))

# The options that never change, made once (options and labels are frozen, and nothing
# changes a label's arguments).
_BOON: Final = Option("boon", Label("sa.opt.boon"))
_ADD: Final = {r: Option(f"add:{r}", Label("sa.opt.add", {"resource": r})) for r in RESOURCES}
_UNDO: Final = Option("undo", Label("sa.opt.undo"), back=True)
_STARVE: Final = Option("starve", Label("sa.opt.hungry", {"penalty": HUNGER_PENALTY}))
_DECLINE: Final = {purpose: Option("decline", Label(f"sa.opt.decline_{purpose}"))
            for purpose in ("card", "building")}
_DIE: Final = {face: Option(f"die:{face}", Label("sa.opt.die", {"face": face}))
               for face in range(1, 7)}


def _chooser(owner: int, top: Frame) -> int:
    """Who decides the step on top of ``owner``'s stack: the owner, except in "dice for
    everyone", where each seat in turn picks a die."""
    return top.order[0] if isinstance(top, PickStep) else owner


def _frame(state: StoneAgeState, seat: int) -> Frame | None:
    """The innermost open step whose decision belongs to ``seat``."""
    for owner, stack in state.stacks.items():
        if stack and _chooser(owner, stack[-1]) == seat:
            return stack[-1]
    return None


def seats_to_ask(state: StoneAgeState) -> list[int]:
    """The seats with a decision open now: ``pending``'s seats, without its options."""
    if state.phase == "over":
        return []
    if state.stacks:
        return [_chooser(owner, stack[-1]) for owner, stack in sorted(state.stacks.items())
                if stack]
    return [state.turn]


# --- placement ---------------------------------------------------------------------


# The gathering sites, as a set: asked of every open place of every placement prompt.
_SITES: Final = frozenset(GATHERING)


def _place_options(state: StoneAgeState, turn: Turn) -> list[Option]:
    """Every placement in one step: a place that takes a set number of people is one
    option (``at:<loc>``); a gathering site offers each number of people it may take
    (``place:<loc>:<n>``), grouped by site so a platform that cannot show them all
    may open a site's numbers in a second step."""
    options: list[Option] = []
    for loc, counts in open_places(state, turn.seat):
        if loc in _SITES:
            options += _site_options(loc, len(counts))
        else:
            options.append(_at_option(loc, counts[0], _lying_at(state, loc)))
    return options


# The options below are built once for each input and shared by every prompt that
# offers them: options and labels are frozen, and nothing changes a label's arguments.


@cache
def _site_options(loc: str, most: int) -> tuple[Option, ...]:
    """A gathering site's options: each number of people from 1 to ``most``."""
    counts = list(range(1, most + 1))
    return tuple(Option(f"place:{loc}:{n}", Label("sa.opt.place", {
        "loc": loc, "count": n, "counts": counts, "group": loc})) for n in counts)


@cache
def _at_option(loc: str, need: int, lying: str | None) -> Option:
    """The option of a place that takes ``need`` people, naming what lies there."""
    return Option(f"at:{loc}", Label("sa.opt.at", _place_args(loc, lying, counts=[need])))


def _place_args(loc: str, lying: str | None, **more: Any) -> dict[str, Any]:
    """A label's arguments about ``loc``: the place, ``more``, and the card or building
    lying there (``lying``), so a button can describe it."""
    args: dict[str, Any] = {"loc": loc, **more}
    if loc.startswith("card"):
        args["card"] = lying
    elif loc.startswith("bld"):
        args["building"] = lying
    return args


def _lying_at(state: StoneAgeState, loc: str) -> str | None:
    """The card or face-up building at ``loc`` (None for the other places)."""
    slot = CARD_SLOTS.get(loc)
    if slot is not None:
        return state.row[slot]
    slot = PILE_SLOTS.get(loc)
    if slot is not None:
        pile = state.piles[slot]
        return pile[-1] if pile else None  # the face-up one is the last
    return None


def _refuse_placement(state: StoneAgeState, seat: int, loc: str, count: int) -> None:
    reason = placement_error(state, seat, loc, count)
    if reason:
        raise IllegalMove(reason, loc=loc, count=count)


def _apply_place(state: StoneAgeState, turn: Turn, key: str, events: list[Event]) -> None:
    seat = turn.seat
    head, _, rest = key.partition(":")
    if head == "at":
        counts = legal_counts(state, seat, rest)
        if not counts:
            _refuse_placement(state, seat, rest, fixed_count(rest) or 1)
            raise IllegalMove("unknown_option", key=key)
        if len(counts) == 1:
            put_people(state, seat, rest, counts[0], events)
        else:
            # Logs from before the number was chosen with the site: "at:forest", then
            # "n:3" in a step of its own. Still accepted, so those games replay.
            push(state.stacks, CountStep(seat=seat, loc=rest))
        return
    if head == "place":
        loc, _, text = rest.partition(":")
        count = parse_number(text)
        if count is None:
            raise IllegalMove("bad_count", loc=loc)
        _refuse_placement(state, seat, loc, count)
        put_people(state, seat, loc, count, events)
        return
    raise IllegalMove("unknown_option", key=key)


def _count_options(state: StoneAgeState, step: CountStep) -> list[Option]:
    counts = legal_counts(state, step.seat, step.loc)
    opts = [Option(f"n:{n}", Label("sa.opt.count", {"loc": step.loc, "count": n})) for n in counts]
    return [*opts, BACK]


def _apply_count(state: StoneAgeState, step: CountStep, key: str, events: list[Event]) -> None:
    if key == "back":
        pop(state.stacks, step.seat)
        return
    count = keyed_number(key, "n")
    if count is None:
        raise IllegalMove("unknown_option", key=key)
    _refuse_placement(state, step.seat, step.loc, count)
    pop(state.stacks, step.seat)
    put_people(state, step.seat, step.loc, count, events)


# --- action phase ------------------------------------------------------------------


def _boon_option(state: StoneAgeState, seat: int) -> list[Option]:
    if state.players[seat].boons:
        return [_BOON]
    return []


def order_choices(state: StoneAgeState, seat: int) -> list[str]:
    """The places ``seat`` chooses the next one from (see ``engine.stone_age.order``).

    A game saved before the engine went on by itself may wait at this question where
    now nothing is left to choose: its one next place is then the one option."""
    alone, asked = next_action(state, seat)
    return asked or ([alone] if alone is not None else [])


def _act_options(state: StoneAgeState, turn: Turn) -> list[Option]:
    seat = turn.seat
    player = state.players[seat]
    opts = [_do_option(loc, player.placed[loc], _lying_at(state, loc))
            for loc in order_choices(state, seat)]
    return opts + _boon_option(state, seat)


@cache
def _do_option(loc: str, count: int, lying: str | None) -> Option:
    """The option of resolving ``loc``, where ``count`` people stand, naming what lies
    there."""
    return Option(f"do:{loc}", Label("sa.opt.do", _place_args(loc, lying, count=count)))


def _open_boon(state: StoneAgeState, seat: int) -> None:
    if not state.players[seat].boons:
        raise IllegalMove("no_boon")
    push(state.stacks, BoonStep(seat=seat))


def _apply_act(state: StoneAgeState, turn: Turn, key: str, events: list[Event]) -> None:
    seat = turn.seat
    if key == "boon":
        _open_boon(state, seat)
        return
    head, _, loc = key.partition(":")
    if head != "do":
        raise IllegalMove("unknown_option", key=key)
    if loc not in state.players[seat].placed:
        raise IllegalMove("nothing_there", loc=loc)
    if loc not in order_choices(state, seat):
        raise IllegalMove("resolves_later", loc=loc)
    start_action(state, seat, loc, events)


# --- rolls and tools ---------------------------------------------------------------


def _use_key(use: ToolUse) -> str:
    """``take`` without tools, else ``take:t0.t2.o1`` (tile slots, one-use indexes)."""
    parts = [f"t{i}" for i in use[0]] + [f"o{i}" for i in use[1]]
    return f"take:{'.'.join(parts)}" if parts else "take"


def _parse_use(text: str) -> ToolUse | None:
    tiles: list[int] = []
    once: list[int] = []
    for part in text.split("."):
        index = parse_number(part[1:])
        if index is None or part[:1] not in ("t", "o"):
            return None
        (tiles if part[0] == "t" else once).append(index)
    return tuple(tiles), tuple(once)


def _roll_options(state: StoneAgeState, step: RollStep) -> list[Option]:
    player = state.players[step.seat]
    if step.tools or step.once:
        return _toggle_options(player, step)
    # One press: every different way to add tools, each taking the yield at once.
    return list(_take_options(step.resource, sum(step.dice), tuple(player.tools),
                              tuple(player.one_use_tools), tuple(tool_uses(player))))


@lru_cache(maxsize=4096)
def _take_options(resource: str, dice: int, tiles: tuple[int, ...], once: tuple[int, ...],
                  uses: tuple[ToolUse, ...]) -> tuple[Option, ...]:
    """Taking a roll of ``dice`` pips for ``resource`` with each of ``uses`` (on a
    board with tool tiles ``tiles`` and one-use tools ``once``); shared like the places'
    options."""
    out = []
    for use in uses:
        total = dice + tools_bonus(tiles, once, *use)
        out.append(Option(_use_key(use), Label("sa.opt.take", {
            "resource": resource, "total": total, "amount": total // divisor(resource),
            "tiles": [tiles[i] for i in use[0]], "once": [once[i] for i in use[1]],
        })))
    return tuple(out)


def _toggle_options(player: Player, step: RollStep) -> list[Option]:
    """A roll begun by adding tools one at a time (a game saved before tools were
    chosen in one press) goes on that way."""
    opts = [
        Option(f"tool:{i}", Label("sa.opt.tool", {"value": player.tools[i], "on": i in step.tools}))
        for i in ready_tools(player)
    ]
    opts += [
        Option(f"once:{i}", Label("sa.opt.once", {"value": v, "on": i in step.once}))
        for i, v in enumerate(player.one_use_tools)
    ]
    take = {"resource": step.resource, "total": roll_total(player, step),
            "amount": roll_yield(player, step), "tiles": [], "once": []}
    # Tools of one value are interchangeable: one button adds (or takes away) "a +2 tool".
    return [*one_per_label(opts), Option("take", Label("sa.opt.take", take))]


def _refuse_use(player: Player, use: ToolUse) -> None:
    tiles, once = use
    ready = ready_tools(player)
    for slot in tiles:
        if slot not in ready:
            raise IllegalMove("tool_not_ready", slot=slot)
    for index in once:
        if index >= len(player.one_use_tools):
            raise IllegalMove("tool_not_ready", slot=index)
    if len(set(tiles)) < len(tiles) or len(set(once)) < len(once):
        raise IllegalMove("unknown_option", key=_use_key(use))


def _apply_roll(state: StoneAgeState, step: RollStep, key: str, events: list[Event]) -> None:
    player = state.players[step.seat]
    head, _, arg = key.partition(":")
    index = parse_number(arg)
    if key == "take":
        pop(state.stacks, step.seat)
        finish_roll(state, step, events)
    elif head == "take":
        use = _parse_use(arg)
        if use is None:
            raise IllegalMove("unknown_option", key=key)
        _refuse_use(player, use)
        use_tools(step, use)
        pop(state.stacks, step.seat)
        finish_roll(state, step, events)
    # Adding tools one at a time: the keys of games saved before, still accepted.
    elif head == "tool" and index is not None:
        _refuse_use(player, ((index,), ()))
        toggle_tool(step, index)
    elif head == "once" and index is not None:
        _refuse_use(player, ((), (index,)))
        toggle_once(step, index)
    else:
        raise IllegalMove("unknown_option", key=key)


# --- payments ----------------------------------------------------------------------


def _bill_label(state: StoneAgeState, step: PayStep, bill: Bill) -> Label:
    return _pay_label_of(bill, _points_of(_building_paid(state, step), bill))


def _building_paid(state: StoneAgeState, step: PayStep) -> str | None:
    """The building a payment is for (None: a card or food)."""
    if step.purpose != "building":
        return None
    return _lying_at(state, step.target)


def _points_of(building: str | None, bill: Bill) -> int | None:
    """The points ``building`` paid with ``bill`` scores (None: not a building)."""
    return None if building is None else building_points(components().buildings[building], bill)


@lru_cache(maxsize=4096)
def _pay_label_of(bill: Bill, points: int | None) -> Label:
    """The label of paying ``bill`` (scoring ``points``, for a building); shared like
    the places' options."""
    args: dict[str, Any] = {"paid": bill_dict(bill)}
    if points is not None:
        args["points"] = points
    return Label("sa.opt.pay", args)


@lru_cache(maxsize=4096)
def _whole_bill_options(whole: tuple[Bill, ...], building: str | None) -> tuple[Option, ...]:
    """Paying each of the bills ``whole`` in one press (for ``building``: with the points
    it scores)."""
    return tuple(Option(bill_key(b), _pay_label_of(b, _points_of(building, b))) for b in whole)


def _pay_options(state: StoneAgeState, step: PayStep) -> list[Option]:
    have = holdings(state.players[step.seat])
    paid = bill_of(step.paid)
    whole = listed(step.rule, have) if not step.paid else None
    if whole is not None:
        opts = list(_whole_bill_options(tuple(whole), _building_paid(state, step)))
    else:
        opts = []
        for i, r in enumerate(RESOURCES):
            more = list(paid)
            more[i] += 1
            if completable(step.rule, have, (more[0], more[1], more[2], more[3])):
                opts.append(_ADD[r])
        if fits(step.rule, paid):
            opts.append(Option("confirm", _bill_label(state, step, paid)))
        if step.paid:
            opts.append(_UNDO)
    opts += _boon_option(state, step.seat)
    if step.purpose == "feed":
        opts.append(_STARVE)
    else:
        opts.append(_DECLINE[step.purpose])
    return opts


def _complete_payment(
    state: StoneAgeState, step: PayStep, bill: Bill, events: list[Event]
) -> None:
    player = state.players[step.seat]
    if not fits(step.rule, bill):
        raise IllegalMove("wrong_payment", paid=bill_dict(bill))
    if not affordable(bill, holdings(player)):
        raise IllegalMove("cannot_afford", paid=bill_dict(bill))
    pop(state.stacks, step.seat)
    if step.purpose == "feed":
        feed_with(state, step.seat, bill, events)
        return
    pay(player, bill)
    if step.purpose == "card":
        slot = slot_index(step.target)
        card_id = state.row[slot]
        events.append(Event("card_bought", step.seat,
                            {"card": card_id, "slot": slot + 1, "paid": bill_dict(bill)}))
        take_card(state, step.seat, slot, events)
    else:
        take_building(state, step.seat, slot_index(step.target), bill, events)


def _apply_pay(state: StoneAgeState, step: PayStep, key: str, events: list[Event]) -> None:
    head, _, arg = key.partition(":")
    player = state.players[step.seat]
    if head == "pay":
        bill = parse_bill(arg)
        if bill is None:
            raise IllegalMove("unknown_option", key=key)
        _complete_payment(state, step, bill, events)
    elif head == "add":
        if arg not in RESOURCES:
            raise IllegalMove("food_is_not_a_resource" if arg == "food" else "unknown_option",
                              key=key)
        more = bill_of([*step.paid, arg])
        if not affordable(more, holdings(player)):
            raise IllegalMove("cannot_afford", resource=arg)
        if not step.paid and listed(step.rule, holdings(player)) is not None:
            # Small bills are offered whole; building one up is not offered then, so a
            # typed ``add:`` must not reach it either (one choice, one key). The checks
            # above still come first: their reasons say more than "not offered".
            raise IllegalMove("unknown_option", key=key)
        if not completable(step.rule, holdings(player), more):
            raise IllegalMove("wrong_payment", resource=arg)
        step.paid.append(arg)
    elif key == "confirm":
        if not fits(step.rule, bill_of(step.paid)):
            raise IllegalMove("payment_incomplete")
        _complete_payment(state, step, bill_of(step.paid), events)
    elif key == "undo":
        if not step.paid:
            raise IllegalMove("nothing_to_undo")
        step.paid.pop()
    elif key == "boon":
        _open_boon(state, step.seat)
    elif key == "decline" and step.purpose != "feed":
        pop(state.stacks, step.seat)
        events.append(Event(f"{step.purpose}_declined", step.seat,
                            {"loc": step.target, "cannot_pay": False}))
    elif key == "starve" and step.purpose == "feed":
        pop(state.stacks, step.seat)
        go_hungry(state, step.seat, events)
    else:
        raise IllegalMove("unknown_option", key=key)


# --- two resources of choice -------------------------------------------------------


def _boon_options(state: StoneAgeState, step: BoonStep) -> list[Option]:
    opts = [
        Option("gain:" + bill_key(b)[4:], Label("sa.opt.gain", {"goods": bill_dict(b)}))
        for b in TWO_RESOURCE_BILLS
    ]
    return [*opts, BACK]


def _apply_boon(state: StoneAgeState, step: BoonStep, key: str, events: list[Event]) -> None:
    if key == "back":
        pop(state.stacks, step.seat)
        return
    head, _, arg = key.partition(":")
    bill = parse_bill(arg) if head == "gain" else None
    if bill is None or sum(bill) != 2:
        raise IllegalMove("unknown_option", key=key)
    player = state.players[step.seat]
    pop(state.stacks, step.seat)
    player.boons -= 1
    for n, r in zip(bill, RESOURCES, strict=True):
        player.goods[r] += n
    events.append(Event("boon_used", step.seat, {"goods": bill_dict(bill)}))


# --- dice for everyone -------------------------------------------------------------


def _pick_options(state: StoneAgeState, step: PickStep) -> list[Option]:
    return [_DIE[f] for f in sorted(set(step.dice))]


def _apply_pick(state: StoneAgeState, step: PickStep, key: str, events: list[Event]) -> None:
    face = keyed_number(key, "die")
    if face is None:
        raise IllegalMove("unknown_option", key=key)
    if face not in step.dice:
        raise IllegalMove("no_such_die", face=face)
    take_die(state, step, face, events)


# --- the questions ------------------------------------------------------------------


def _place_label(state: StoneAgeState, turn: Turn) -> Label:
    return Label("sa.prompt.place", {"unplaced": state.players[turn.seat].unplaced})


def _act_label(state: StoneAgeState, turn: Turn) -> Label:
    return Label("sa.prompt.act", {"later": later(state, turn.seat)})


def _count_label(state: StoneAgeState, step: CountStep) -> Label:
    return Label("sa.prompt.count", {"loc": step.loc})


def _roll_label(state: StoneAgeState, step: RollStep) -> Label:
    return Label("sa.prompt.roll", {"dice": list(step.dice), "resource": step.resource,
                                    "source": step.source})


def _pay_label(state: StoneAgeState, step: PayStep) -> Label:
    args: dict[str, Any] = {"target": step.target, "paid": bill_dict(bill_of(step.paid))}
    if step.purpose == "card":
        args["cost"] = slot_cost(slot_index(step.target))
    elif step.purpose == "building":
        building = top_building(state, slot_index(step.target))
        args["building"] = building.id if building else None
    else:
        args["missing"] = step.rule.count_min
    return Label(f"sa.prompt.pay_{step.purpose}", args)


def _pick_label(state: StoneAgeState, step: PickStep) -> Label:
    return Label("sa.prompt.pick", {"dice": list(step.dice), "card": step.card})


# --- the machine ---------------------------------------------------------------------

# Each kind of step: its options, how a key is applied, its question. ``place`` and
# ``act`` are the first step of a turn in the placement and action phases (a ``Turn``).
_RULES: dict[str, StepRules[StoneAgeState, Any]] = {
    "place": StepRules(_place_options, _apply_place, _place_label),
    "act": StepRules(_act_options, _apply_act, _act_label),
    "count": StepRules(_count_options, _apply_count, _count_label),
    "roll": StepRules(_roll_options, _apply_roll, _roll_label),
    "pay": StepRules(_pay_options, _apply_pay, _pay_label),
    "boon": StepRules(_boon_options, _apply_boon, fixed_label("sa.prompt.boon")),
    "pick": StepRules(_pick_options, _apply_pick, _pick_label),
}
# Every key applied forgets what was counted for the state (engine.stone_age.listing).
RULES: Final = {kind: forgetting(rules) for kind, rules in _RULES.items()}


def _current(state: StoneAgeState, seat: int) -> Step:
    """The step ``seat`` faces: its open step, else the phase's first step."""
    frame = _frame(state, seat)
    if frame is not None:
        return frame
    return _turn("place" if state.phase == "placement" else "act", seat)


@cache
def _turn(kind: str, seat: int) -> Turn:
    """The first step of ``seat``'s turn, made once: a ``Turn`` is frozen, and every
    prompt and every choice asks for one."""
    return Turn(kind, seat)


def _depth(state: StoneAgeState, step: Step) -> int:
    """Feeding decisions start a fresh stack; in other phases the stack sits on top of
    the phase's own first step."""
    return stack_depth(state.stacks, step, 0 if state.phase == "feeding" else 1)


def _over(state: StoneAgeState) -> bool:
    return state.phase == "over"


MACHINE: Machine[StoneAgeState] = Machine(
    rules=RULES, over=_over, deciding=seats_to_ask, current=_current, depth=_depth,
)
