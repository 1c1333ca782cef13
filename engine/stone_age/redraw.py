"""Stone Age's hidden part drawn again for one seat (``Game.redraw``).

What a seat is taken to know: everything face up (the row, the top of each building
pile, every card bought in the open, its own blind-drawn cards) and the size of every
hidden heap. It cannot tell apart

- the civilization cards it never saw: the deck and the cards another seat drew blind
  (until the game is over, when every hand is shown) — any unseen card could be in any
  of those places, so they are one pool;
- the buildings under the face-up ones and those left in the box — one pool too, as
  the piles were cut from one shuffled heap;
- the dice to come: the random source.
"""

from __future__ import annotations

from engine.core.redraw import Redraw
from engine.stone_age.state import StoneAgeState


def redeal(state: StoneAgeState, seat: int, seed: int) -> StoneAgeState:
    """Draw ``state``'s hidden part for ``seat`` again from ``seed``, in place (the
    caller hands in a copy it owns), and return it."""
    redraw = Redraw.from_seed(seed)
    _redeal_cards(state, seat, redraw)
    _redeal_buildings(state, redraw)
    state.rng = redraw.dice
    return state


def _redeal_cards(state: StoneAgeState, seat: int, redraw: Redraw) -> None:
    # Once the game is over every hand is shown: only the deck is left unseen.
    others = [] if state.phase == "over" else [
        p for s, p in enumerate(state.players) if s != seat and p.blind]
    deck, *blinds = redraw.redeal([state.deck, *(p.blind for p in others)])
    state.deck = deck
    for player, blind in zip(others, blinds, strict=True):
        # A blind card keeps its place among the cards held: the order shown of the
        # cards bought in the open stays as it was.
        swap = dict(zip(player.blind, blind, strict=True))
        player.cards = [swap.get(card, card) for card in player.cards]
        player.blind = blind


def _redeal_buildings(state: StoneAgeState, redraw: Redraw) -> None:
    unders = [pile[:-1] for pile in state.piles]
    *dealt, box = redraw.redeal([*unders, state.box])
    state.piles = [under + pile[-1:] for under, pile in zip(dealt, state.piles, strict=True)]
    state.box = box
