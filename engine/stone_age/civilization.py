"""Civilization cards: buying one and what its top gives at once.

A card costs 1–4 resources by its slot (rightmost 1, leftmost 4), paid in any
resources; the top acts immediately, the bottom counts at the end (see scoring).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from engine.core.prompts import Event
from engine.core.stacks import push
from engine.stone_age.components import Card, components
from engine.stone_age.gathering import start_roll
from engine.stone_age.state import PickStep, StoneAgeState
from engine.stone_age.tools import gain_tool


def slot_cost(slot: int) -> int:
    """Cost of the card in row index ``slot`` (0 is the rightmost)."""
    return components().slot_costs[slot]


def raise_agriculture(state: StoneAgeState, seat: int, events: list[Event]) -> None:
    """One step up the agriculture track, which stops at its top."""
    player = state.players[seat]
    if player.agriculture < components().max_agriculture:
        player.agriculture += 1
        events.append(Event("agriculture_up", seat, {"level": player.agriculture}))
    else:
        events.append(Event("agriculture_maxed", seat))


def give_tool(state: StoneAgeState, seat: int, events: list[Event]) -> None:
    """One tool step, as at the tool maker."""
    player = state.players[seat]
    if gain_tool(player):
        events.append(Event("tool_gained", seat, {"tools": list(player.tools)}))
    else:
        events.append(Event("tools_maxed", seat))


def _food(state: StoneAgeState, seat: int, card: Card, events: list[Event]) -> None:
    state.players[seat].goods["food"] += card.top.amount
    events.append(Event("food_gained", seat, {"amount": card.top.amount}))


def _resource(state: StoneAgeState, seat: int, card: Card, events: list[Event]) -> None:
    assert card.top.resource is not None
    state.players[seat].goods[card.top.resource] += card.top.amount
    events.append(
        Event("resource_gained", seat, {"resource": card.top.resource, "amount": card.top.amount})
    )


def _points(state: StoneAgeState, seat: int, card: Card, events: list[Event]) -> None:
    state.players[seat].points["cards"] += card.top.amount
    events.append(Event("points_gained", seat, {"amount": card.top.amount}))


def _tool(state: StoneAgeState, seat: int, card: Card, events: list[Event]) -> None:
    give_tool(state, seat, events)


def _agriculture(state: StoneAgeState, seat: int, card: Card, events: list[Event]) -> None:
    raise_agriculture(state, seat, events)


def _extra_card(state: StoneAgeState, seat: int, card: Card, events: list[Event]) -> None:
    # Only the taker sees the drawn card: it is marked blind, and the public event
    # does not name it.
    if state.deck:
        drawn = state.deck.pop()
        state.players[seat].cards.append(drawn)
        state.players[seat].blind.append(drawn)
        events.append(Event("extra_card", seat))
    else:
        events.append(Event("extra_card_none", seat))


def _one_use_tool(state: StoneAgeState, seat: int, card: Card, events: list[Event]) -> None:
    state.players[seat].one_use_tools.append(card.top.value)
    events.append(Event("one_use_tool_gained", seat, {"value": card.top.value}))


def _two_resources(state: StoneAgeState, seat: int, card: Card, events: list[Event]) -> None:
    state.players[seat].boons += 1
    events.append(Event("boon_gained", seat))


def _resource_dice(state: StoneAgeState, seat: int, card: Card, events: list[Event]) -> None:
    assert card.top.resource is not None
    start_roll(state, seat, card.id, card.top.resource, 2, events)


def _dice_for_all(state: StoneAgeState, seat: int, card: Card, events: list[Event]) -> None:
    # Tools never change these dice: they are rewards, not a gathering roll.
    dice = sorted(state.rng.randint(1, 6) for _ in range(state.n))
    events.append(Event("dice_for_all", seat, {"dice": list(dice)}))
    order = [(seat + i) % state.n for i in range(state.n)]
    push(state.stacks, PickStep(seat=seat, card=card.id, dice=dice, order=order))


CardEffect = Callable[[StoneAgeState, int, Card, list[Event]], None]

CARD_EFFECTS: Final[dict[str, CardEffect]] = {
    "food": _food,
    "resource": _resource,
    "points": _points,
    "tool": _tool,
    "agriculture": _agriculture,
    "extra_card": _extra_card,
    "one_use_tool": _one_use_tool,
    "two_resources": _two_resources,
    "resource_dice": _resource_dice,
    "dice_for_all": _dice_for_all,
}


def take_card(state: StoneAgeState, seat: int, slot: int, events: list[Event]) -> None:
    """Move the card from the row to the buyer and carry out its top."""
    card_id = state.row[slot]
    assert card_id is not None
    state.row[slot] = None
    state.players[seat].cards.append(card_id)
    card = components().cards[card_id]
    CARD_EFFECTS[card.top.effect](state, seat, card, events)


def die_reward(state: StoneAgeState, seat: int, face: int, events: list[Event]) -> None:
    """Give what a die of the dice-for-everyone card shows."""
    reward = components().dice_faces[face]
    events.append(Event("die_taken", seat, {"face": face}))
    if "resource" in reward:
        resource = reward["resource"]
        state.players[seat].goods[resource] += 1
        events.append(Event("resource_gained", seat, {"resource": resource, "amount": 1}))
    elif "tool" in reward:
        give_tool(state, seat, events)
    else:
        raise_agriculture(state, seat, events)
