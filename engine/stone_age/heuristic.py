"""A rough value of a position for one seat, for the bot's simple greedy autopilot.

Points count fully; things that become points later count at guessed rates. It only
needs to rank the options of one decision sensibly, not to play well.
"""

from __future__ import annotations

from engine.stone_age.components import RESOURCES, components
from engine.stone_age.scoring import breakdown
from engine.stone_age.state import StoneAgeState


def position_value(state: StoneAgeState, seat: int) -> float:
    """Estimated worth of ``seat``'s position."""
    player = state.players[seat]
    values = components().values
    score = sum(breakdown(player).values())
    goods = sum(player.goods[r] * values[r] for r in RESOURCES) / 3
    growth = 4 * player.people + 3 * player.agriculture + 2 * sum(player.tools)
    return score + goods + player.goods["food"] / 2 + growth + 2 * len(player.one_use_tools)
