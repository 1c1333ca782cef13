"""The protocol every Campfire game implements, and what the games share."""

from engine.core.errors import IllegalMove
from engine.core.prompts import Event, Label, Option, Prompt
from engine.core.protocol import Game, Result, SeatScore, Summary
from engine.core.rng import RandomSource, ScriptedRandom, SeededRandom

__all__ = [
    "Event",
    "Game",
    "IllegalMove",
    "Label",
    "Option",
    "Prompt",
    "RandomSource",
    "Result",
    "ScriptedRandom",
    "SeatScore",
    "SeededRandom",
    "Summary",
]
