"""A rough value of a position for one seat, for the bot's greedy autopilot."""

from __future__ import annotations

from engine.caverna.results import sheet
from engine.caverna.state import CavernaState


def position_value(state: CavernaState, seat: int) -> float:
    """Estimated worth of ``seat``'s position."""
    return float(sum(sheet(state, seat).values()))
