"""Moving the game along between decisions.

After every choice ``advance`` carries out everything that needs nobody's decision:
skipping players who cannot place, placing a player's people where only one placement
is left, starting the action phase, resolving the places whose order cannot matter
(``engine.stone_age.order``), feeding players who have food enough, ending rounds and
the game. It stops at the next open decision.
"""

from __future__ import annotations

from engine.core.prompts import Event
from engine.core.stacks import pop, push
from engine.stone_age.buildings import top_building
from engine.stone_age.civilization import die_reward, give_tool, raise_agriculture, slot_cost
from engine.stone_age.components import GATHERING, components
from engine.stone_age.feeding import go_hungry, start_feeding
from engine.stone_age.gathering import start_roll
from engine.stone_age.listing import forget
from engine.stone_age.order import next_action
from engine.stone_age.payment import building_rule, card_rule, holdings, payable
from engine.stone_age.placement import first_places, lone_placement, place, slot_index
from engine.stone_age.rounds import end_round
from engine.stone_age.state import PayStep, PickStep, StoneAgeState


def acting_seat(state: StoneAgeState) -> int | None:
    """In the action phase: the first seat, in turn order, with workers still out."""
    players, first = state.players, state.first
    n = len(players)
    for i in range(n):
        seat = (first + i) % n
        if players[seat].placed:
            return seat
    return None


def _next_placer(state: StoneAgeState) -> tuple[int, list[tuple[str, list[int]]]] | None:
    """The seat to place next, from the one whose turn it is, skipping those who
    cannot, with its open places (kept with the state for its prompt)."""
    n, turn = state.n, state.turn
    for i in range(n):
        seat = (turn + i) % n
        found = first_places(state, seat)
        if found:
            return seat, found
    return None


def put_people(state: StoneAgeState, seat: int, loc: str, count: int,
               events: list[Event]) -> None:
    """Place ``count`` people of ``seat`` on ``loc`` (checked legal) and pass the turn."""
    place(state, seat, loc, count)
    events.append(Event("placed", seat, {"loc": loc, "count": count}))
    state.turn = (seat + 1) % state.n


def take_die(state: StoneAgeState, step: PickStep, face: int, events: list[Event]) -> None:
    """The next seat in the dice-for-everyone order takes a die showing ``face``."""
    chooser = step.order.pop(0)
    step.dice.remove(face)
    die_reward(state, chooser, face, events)
    if not step.order:
        pop(state.stacks, step.seat)


def start_action(state: StoneAgeState, seat: int, loc: str, events: list[Event]) -> None:
    """Take the workers back from ``loc`` and carry out what they went there for."""
    player = state.players[seat]
    count = player.placed.pop(loc)
    if loc in GATHERING:
        start_roll(state, seat, loc, components().sites[loc].yields, count, events)
    elif loc == "toolmaker":
        give_tool(state, seat, events)
    elif loc == "hut":
        if player.people < components().max_people:
            player.people += 1
            events.append(Event("person_gained", seat, {"people": player.people}))
        else:
            events.append(Event("people_maxed", seat))
    elif loc == "field":
        raise_agriculture(state, seat, events)
    elif loc.startswith("card"):
        rule = card_rule(slot_cost(slot_index(loc)))
        _ask_payment(state, PayStep(seat=seat, purpose="card", target=loc, rule=rule), events)
    else:
        building = top_building(state, slot_index(loc))
        assert building is not None
        rule = building_rule(building)
        _ask_payment(state, PayStep(seat=seat, purpose="building", target=loc, rule=rule),
                     events)


def _ask_payment(state: StoneAgeState, step: PayStep, events: list[Event]) -> None:
    """Ask for a card's or a building's payment, unless it cannot be made at all."""
    if _payable(state, step):
        push(state.stacks, step)
    else:
        _cannot_pay(state, step, events)


def _payable(state: StoneAgeState, step: PayStep) -> bool:
    """Can the payment still be made, "two resources" cards included?"""
    player = state.players[step.seat]
    return payable(step.rule, holdings(player), player.boons)


def _cannot_pay(state: StoneAgeState, step: PayStep, events: list[Event]) -> None:
    """Nothing is left to choose but not paying: it is done without asking."""
    if step.purpose == "feed":
        go_hungry(state, step.seat, events)
    else:
        events.append(Event(f"{step.purpose}_declined", step.seat,
                            {"loc": step.target, "cannot_pay": True}))


def _settle_stacks(state: StoneAgeState, events: list[Event]) -> bool:
    """Make forced picks; True if any was made. (A finished stack is already gone:
    ``engine.core.stacks.pop`` drops it.)"""
    changed = False
    for seat in list(state.stacks):
        stack = state.stacks.get(seat)
        if not stack:
            continue  # emptied by a pick made just before
        top = stack[-1]
        if isinstance(top, PickStep) and len(set(top.dice)) == 1:
            take_die(state, top, top.dice[0], events)
            changed = True
        elif isinstance(top, PayStep) and not top.paid and not _payable(state, top):
            # A "two resources" card taken during the payment did not make it payable.
            pop(state.stacks, seat)
            _cannot_pay(state, top, events)
            changed = True
    return changed


def _pass_turn(state: StoneAgeState, seat: int) -> None:
    """Make it ``seat``'s turn. Mostly it is already: a model's field is set only when
    it changes, as setting one costs more than reading it."""
    if state.turn != seat:
        state.turn = seat


def advance(state: StoneAgeState, events: list[Event]) -> None:
    """Carry out everything automatic until a decision is open or the game is over."""
    while state.phase != "over":
        # What was counted for the state is true of it only until the next change:
        # each thing done here forgets it first (``engine.stone_age.listing``).
        forget(state)
        if state.stacks:
            if _settle_stacks(state, events):
                continue
            return
        if state.phase == "placement":
            placer = _next_placer(state)
            if placer is not None:
                seat, found = placer
                _pass_turn(state, seat)
                only = lone_placement(found)
                if only is None:
                    return
                # One placement left: nobody may pass while they can place, so the
                # people go there without asking.
                put_people(state, seat, *only, events)
                continue
            state.phase = "actions"
            state.turn = state.first
            events.append(Event("actions_started", state.first))
        elif state.phase == "actions":
            actor = acting_seat(state)
            if actor is None:
                start_feeding(state, events)
                continue
            _pass_turn(state, actor)
            loc, _ = next_action(state, actor)
            if loc is None:
                return  # the player chooses which place comes next
            start_action(state, actor, loc, events)
        else:
            end_round(state, events)
