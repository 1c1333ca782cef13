"""Phase 3, feeding the tribe.

Each player first takes food equal to their agriculture level, then pays one food per
person. A player short of food hands in all the food they have and then either covers
the rest with resources, one for one, or loses 10 points (a flat penalty however many
go hungry). The choice is the player's; players decide at the same time.
"""

from __future__ import annotations

from typing import Final

from engine.core.prompts import Event
from engine.core.stacks import push
from engine.stone_age.payment import Bill, bill_dict, food_rule, holdings, pay, payable
from engine.stone_age.state import PayStep, StoneAgeState

HUNGER_PENALTY: Final = 10


def start_feeding(state: StoneAgeState, events: list[Event]) -> None:
    """Income and feeding for everyone; a short player is asked unless nothing can help."""
    state.phase = "feeding"
    state.feeding = []
    n = state.n
    for i in range(n):
        seat = (state.first + i) % n
        player = state.players[seat]
        if player.agriculture:
            player.goods["food"] += player.agriculture
            events.append(Event("income", seat, {"food": player.agriculture}))
        food = player.goods["food"]
        if food >= player.people:
            player.goods["food"] = food - player.people
            events.append(Event("fed", seat, {"food": player.people}))
            continue
        player.goods["food"] = 0
        missing = player.people - food
        events.append(Event("short_of_food", seat, {"food": food, "missing": missing}))
        if payable(food_rule(missing), holdings(player), player.boons):
            state.feeding.append(seat)
            push(state.stacks,
                 PayStep(seat=seat, purpose="feed", target="feed", rule=food_rule(missing)))
        else:
            go_hungry(state, seat, events)


def go_hungry(state: StoneAgeState, seat: int, events: list[Event]) -> None:
    """Take the flat penalty (the food was already handed in)."""
    state.players[seat].points["feeding"] -= HUNGER_PENALTY
    events.append(Event("hungry", seat, {"penalty": HUNGER_PENALTY}))
    if seat in state.feeding:
        state.feeding.remove(seat)


def feed_with(state: StoneAgeState, seat: int, bill: Bill, events: list[Event]) -> None:
    """Cover the missing food with resources."""
    pay(state.players[seat], bill)
    events.append(Event("fed_with_resources", seat, {"paid": bill_dict(bill)}))
    if seat in state.feeding:
        state.feeding.remove(seat)
