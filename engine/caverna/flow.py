"""Moving the game along between decisions, and carrying out the parts of actions.

After every choice ``advance`` does everything that needs nobody's decision by the
rules: parts of an action that are forced or plain gains, a feeding the food covers,
harvest steps, the next player's turn, the end of the work phase and of the round. It
stops at the next open step; a step that offers only one real option is then taken by
:mod:`engine.caverna.forced`, the one rule for every kind of step.

The rules it calls on live in modules named for them: receiving goods
(:mod:`engine.caverna.receiving`), breeding (:mod:`engine.caverna.breeding`), expedition
loot (:mod:`engine.caverna.loot`), rubies (:mod:`engine.caverna.rubies`), the other
any-time trades (:mod:`engine.caverna.anytime_trades`) and what a furnishing does once
laid (:mod:`engine.caverna.furnishing`).
"""

from __future__ import annotations

from engine.caverna.anytime_trades import offer_final_trades
from engine.caverna.breeding import breed, breed_options
from engine.caverna.expedition import start_expedition
from engine.caverna.family import grow
from engine.caverna.feeding import feed_all, food_needed
from engine.caverna.harvest import field_phase, start_harvest
from engine.caverna.placement import can_place
from engine.caverna.receiving import receive
from engine.caverna.rounds import end_round, fill_round, finish, return_home
from engine.caverna.spaces import (
    ALL,
    EITHER,
    PLAIN,
    THEN,
    board_step,
    connective,
    each_eligible,
    group_at,
    part_doable,
)
from engine.caverna.state import (
    CavernaState,
    FeedStep,
    ForgeStep,
    GroupStep,
    HarvestStep,
    ImitateStep,
    MarketStep,
    SkipStep,
    TradeStep,
)
from engine.caverna.tile_effects import GUEST_ROOM_USED, guest_once_spaces
from engine.core.prompts import Event

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
    options = each_eligible(state, step)
    if conn == THEN and step.done:
        # After "then" the plain parts follow by themselves, the first one first.
        found = False
        for index in options:
            found = True
            if group.parts[index].do in PLAIN:
                do_part(state, step, index, events)
                return True
        if found:
            return False
    elif next(options, None) is not None:
        return False
    state.pop(step.seat)
    return True


# --- the harvest ---------------------------------------------------------------------


def _settle_harvest(state: CavernaState, step: HarvestStep, events: list[Event]) -> bool:
    seat = step.seat
    if not step.stages:
        state.pop(seat)
        return True
    stage = step.stages.pop(0)
    if stage == "choose":
        player = state.players[seat]
        # One of the two is left out; when one of them would bring nothing, that one
        # goes without asking, and the log says why.
        if not any(player.board.at(p).crop for p in player.board.fields()):
            step.stages.remove("field")
            events.append(Event("skipped_empty", seat, {"stage": "field"}))
        elif not breed_options(state, seat, None):
            step.stages.remove("breed")
            events.append(Event("skipped_empty", seat, {"stage": "breed"}))
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
    if isinstance(top, HarvestStep):
        return _settle_harvest(state, top, events)
    if isinstance(top, FeedStep) and feed_all(state, seat, top.need, events):
        state.pop(seat)
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
