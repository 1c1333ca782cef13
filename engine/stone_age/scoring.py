"""Final scoring and the winner.

Green cards: each set of different culture symbols scores its size squared; doubles
start further sets. Sand cards: farmers × agriculture level, tool makers × total tool
value, hut builders × buildings, shamans × people. Every resource left scores 1 (food
does not). Ties go to the highest agriculture + tool value + people.
"""

from __future__ import annotations

from collections import Counter

from engine.core.protocol import Result, SeatScore
from engine.stone_age.components import CULTURES, MULTIPLIERS, RESOURCES, components
from engine.stone_age.state import Player, StoneAgeState
from engine.stone_age.tools import tool_total

# The order of the breakdown, as a score sheet lists it.
BREAKDOWN_KEYS: tuple[str, ...] = (
    "buildings", "cards", "feeding", "culture", *MULTIPLIERS, "resources",
)


def culture_points(symbols: list[str]) -> int:
    """Sum of squared sizes of the sets of different symbols."""
    counts = Counter(symbols)
    points, layer = 0, 1
    while True:
        size = sum(1 for s in CULTURES if counts[s] >= layer)
        if not size:
            return points
        points += size * size
        layer += 1


def multiplier_basis(player: Player, multiplier: str) -> int:
    """What one figure of ``multiplier`` is worth to this player."""
    return {
        "farmer": player.agriculture,
        "toolmaker": tool_total(player),
        "hut_builder": len(player.buildings),
        "shaman": player.people,
    }[multiplier]


def breakdown(player: Player) -> dict[str, int]:
    """Every part of a player's final score, by name."""
    cards = [components().cards[c] for c in player.cards]
    parts = dict(player.points)
    parts["culture"] = culture_points([c.culture for c in cards if c.culture])
    for m in MULTIPLIERS:
        figures = sum(c.figures for c in cards if c.multiplier == m)
        parts[m] = figures * multiplier_basis(player, m)
    # An untaken "two resources" card is counted as the two resources it would give:
    # the rulebook lets them be taken at any time, so they are never lost.
    parts["resources"] = sum(player.goods[r] for r in RESOURCES) + 2 * player.boons
    return {k: parts[k] for k in BREAKDOWN_KEYS}


def tiebreak(player: Player) -> int:
    """The village's development: agriculture + tool value + people."""
    return player.agriculture + tool_total(player) + player.people


def final_result(state: StoneAgeState) -> Result:
    """Scores, winners (ties broken by development, then shared) and the end reason."""
    scores = []
    for seat, player in enumerate(state.players):
        parts = breakdown(player)
        scores.append(SeatScore(seat, sum(parts.values()), parts, tiebreak(player)))
    best = max((s.total, s.tiebreak) for s in scores)
    winners = [s.seat for s in scores if (s.total, s.tiebreak) == best]
    return Result(scores=scores, winners=winners, reason=state.end_reason or "")
