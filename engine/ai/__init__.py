"""Computer players: what a seat decides, from what that seat may know.

Every player here is fair by construction: it is handed the real state only to redraw
it at once (``Game.redraw``: everything hidden from its seat put in a canonical order and
drawn again from the player's own seed), and decides on that redrawn state alone. Two
states that differ only in what the seat cannot see therefore give the same decision
for the same seed. Where a player simulates, each simulation redraws again, so it
plays against every way the hidden part could be, never the real one.

``decide`` is the one entry point; the levels (``engine.ai.levels``) are data.
"""

from engine.ai.levels import LEVELS, Level, decide

__all__ = ["LEVELS", "Level", "decide"]
