"""Caverna's hidden part drawn again (``Game.redraw``).

Caverna hides nothing from one player only: every seat knows the same. What it is taken
to know, from the set-up rules:

- which round cards are still face down (a stage's cards less those turned) and which
  rounds they lie on, but not which lies where. The cards of a stage are shuffled among
  that stage's rounds only, so the cards left of a stage are one pool over the rounds
  of that stage still to come. The round-4 card is always the same
  card, and solo lays every card in an order the rules print: those are known, and
  stay where they are.
- how many harvest markers of each colour are still face down (the set-up counts less
  those turned so far). They were shuffled over all their rounds together, so the
  markers left are one pool over the rounds still to come.
- nothing of the random source, which is drawn afresh.
"""

from __future__ import annotations

from engine.caverna.components import components
from engine.caverna.listing import forget
from engine.caverna.state import CavernaState
from engine.core.redraw import Redraw


def redeal(state: CavernaState, seed: int) -> CavernaState:
    """Draw ``state``'s face-down round cards and harvest markers again from ``seed``,
    in place (the caller hands in a copy it owns), and return it."""
    redraw = Redraw.from_seed(seed)
    if not state.solo:
        _redeal_cards(state, redraw)
    markers = sorted(state.markers)
    (colours,) = redraw.redeal([[state.markers[r] for r in markers]])
    state.markers = dict(zip(markers, colours, strict=True))
    state.rng = redraw.dice
    forget(state)  # changed by hand: nothing listed before holds for sure
    return state


def _redeal_cards(state: CavernaState, redraw: Redraw) -> None:
    tables = components().tables.rounds
    fixed = components().fixed_round_cards()
    for _, rounds in sorted(tables.stages.items()):
        hidden = [r for r in rounds if r in state.cards and fixed.get(r) != state.cards[r]]
        (cards,) = redraw.redeal([[state.cards[r] for r in hidden]])
        state.cards.update(zip(hidden, cards, strict=True))
