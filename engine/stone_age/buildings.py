"""Buildings: paying for the face-up tile of a pile and scoring it at once."""

from __future__ import annotations

from engine.core.prompts import Event
from engine.stone_age.components import Building, components
from engine.stone_age.payment import Bill, bill_dict, bill_value
from engine.stone_age.state import StoneAgeState


def top_building(state: StoneAgeState, pile: int) -> Building | None:
    """The face-up building of a pile, if the pile is not empty."""
    stack = state.piles[pile]
    return components().buildings[stack[-1]] if stack else None


def building_points(building: Building, bill: Bill) -> int:
    """Printed points for a fixed tile; the value of what was paid otherwise."""
    return building.points if building.form == "fixed" else bill_value(bill)


def take_building(
    state: StoneAgeState, seat: int, pile: int, bill: Bill, events: list[Event]
) -> None:
    """Give the paid-for building to ``seat``, score it and reveal the next one."""
    building_id = state.piles[pile].pop()
    building = components().buildings[building_id]
    points = building_points(building, bill)
    player = state.players[seat]
    player.buildings.append(building_id)
    player.points["buildings"] += points
    events.append(
        Event(
            "building_built",
            seat,
            {"building": building_id, "paid": bill_dict(bill), "points": points},
        )
    )
    if not state.piles[pile]:
        # The rulebook lets the round finish, feeding included, before the game ends.
        state.last_round = True
        events.append(Event("pile_empty", seat, {"loc": f"bld{pile + 1}", "pile": pile + 1}))
