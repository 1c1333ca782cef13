"""How many rounds a Stone Age game probably has left, from how fast it is running out.

The game ends after the round in which a building pile runs out, or when the deck can
no longer fill the row. How fast each runs out depends on how the table plays, so the
pace seen so far is taken, pulled toward a typical pace while few rounds have been
played (the first rounds say little).
"""

from __future__ import annotations

from engine.stone_age.components import components
from engine.stone_age.state import StoneAgeState

# Typical pace per round, and how many rounds' weight that guess carries against the
# pace seen: cards leave the deck at about 0.5 + 0.6 per player, the fastest building
# pile loses about 0.6 tiles.
CARD_PACE_BASE = 0.5
CARD_PACE_PER_PLAYER = 0.6
PILE_PACE = 0.6
PRIOR_ROUNDS = 2.0
# No game runs on for ever: the estimate is capped (a pile nobody builds from).
MOST_ROUNDS = 20.0


def rounds_after_this(state: StoneAgeState) -> float:
    """The expected number of whole rounds still to be played after the current one
    (0 in the last round and once the game is over)."""
    if state.phase == "over" or state.last_round:
        return 0.0
    comp = components()
    played = state.round - 1
    deck_start = len(comp.cards) - comp.row_slots
    drawn = deck_start - len(state.deck)
    card_pace = (drawn + PRIOR_ROUNDS * (CARD_PACE_BASE + CARD_PACE_PER_PLAYER * state.n)) / (
        played + PRIOR_ROUNDS)
    by_deck = len(state.deck) / card_pace
    shortest = min(len(pile) for pile in state.piles)
    built = comp.pile_size - shortest
    pile_pace = (built + PRIOR_ROUNDS * PILE_PACE) / (played + PRIOR_ROUNDS)
    # The round in which the pile runs out is played to its end: one round fewer after.
    by_piles = shortest / pile_pace - 1.0
    return max(0.0, min(by_deck, by_piles, MOST_ROUNDS))
