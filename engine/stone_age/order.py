"""The order of a player's actions: when it can matter, and what goes by itself.

In the action phase a player resolves every place they stand on, in an order they
choose (rulebook, "actions": the order may differ from the order of placing). Often
the order cannot change anything, and then the engine does not ask:

- a hut or a field changes only people and agriculture, which nothing in the action
  phase reads (feeding comes after), so they go in any order;
- two payments (cards, buildings) draw on the same stock: either order lets exactly the
  same pairs of bills be paid;
- a place that brings resources (a gathering site, a resource card) before a payment
  offers everything the other order does and more, since the payment may then use
  them; so the payment waits;
- the tool maker before a roll would change which tools that roll can use, and a tool
  gained after a roll leaves a different tool turned aside: there the player chooses;
- two places that roll dice (gathering, a card's dice, "dice for everyone") draw from
  the same dice: their order is the player's.

Each place is described by what resolving it touches (:class:`Touches`). Place ``a``
*may precede* ``b`` when resolving ``a`` then ``b`` reaches every outcome that ``b``
then ``a`` reaches. A place that may precede every other one is resolved at once; a
place every other one may precede waits for the end; the player is asked only among
the rest, and only when two or more are left (one place resolves by itself).
``tests/engine/stone_age/test_order.py`` checks by exhaustive expansion that no outcome
a player could reach by choosing every order is lost.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import Final

from engine.stone_age.components import GATHERING, components
from engine.stone_age.placement import CARD_SLOTS
from engine.stone_age.state import StoneAgeState

# Card tops by what they touch besides the payment for the card.
_ROLLING_CARDS: Final = frozenset({"resource_dice", "dice_for_all"})
_TOOL_CARDS: Final = frozenset({"tool", "one_use_tool", "dice_for_all"})
_GAINING_CARDS: Final = frozenset({"resource", "two_resources", "resource_dice", "dice_for_all"})


@dataclass(frozen=True, slots=True)
class Touches:
    """What resolving a place touches, as far as the order of actions goes."""

    dice: bool = False  # draws dice
    tools_roll: bool = False  # a roll that tools may be added to
    tools_gain: bool = False  # gives a tool (tile or one-use)
    pays: bool = False  # asks a payment in resources
    gains: bool = False  # brings resources that can pay (or a "two resources" card)


def touches(state: StoneAgeState, loc: str) -> Touches:
    """What resolving ``loc`` touches for the player standing there."""
    return _touches(*_place(state, loc))


# A place as far as the order goes: its location and, for a card slot, the effect of
# the card's top (empty otherwise). Plain strings, so sets of them hash fast.
Place = tuple[str, str]


def _place(state: StoneAgeState, loc: str) -> Place:
    slot = CARD_SLOTS.get(loc)
    if slot is not None:
        card_id = state.row[slot]
        return loc, components().cards[card_id].top.effect if card_id else ""
    return loc, ""


@cache
def _touches(loc: str, effect: str) -> Touches:
    """What resolving ``loc`` touches, a card slot holding a card whose top is
    ``effect`` (empty for other places); a memo, as there are few of each."""
    if loc in GATHERING:
        # Hunting brings food, which pays for nothing before feeding.
        return Touches(dice=True, tools_roll=True, gains=loc != "hunt")
    if loc == "toolmaker":
        return Touches(tools_gain=True)
    if loc.startswith("card"):
        return Touches(dice=effect in _ROLLING_CARDS, tools_roll=effect == "resource_dice",
                       tools_gain=effect in _TOOL_CARDS, pays=True,
                       gains=effect in _GAINING_CARDS)
    if loc.startswith("bld"):
        return Touches(pays=True)
    return Touches()  # hut, field


def may_precede(a: Touches, b: Touches) -> bool:
    """Does resolving ``a`` before ``b`` reach every outcome of ``b`` before ``a``?"""
    if a.dice and b.dice:
        return False
    if (a.tools_gain and b.tools_roll) or (b.tools_gain and a.tools_roll):
        return False
    # A payment before something that brings resources could only pay with less.
    return not (a.pays and b.gains)


def _places(state: StoneAgeState, seat: int) -> tuple[Place, ...]:
    return tuple(_place(state, loc) for loc in state.players[seat].placed)


def _first(places: Sequence[tuple[str, Touches]]) -> str | None:
    """A place that may precede every other one."""
    for loc, mine in places:
        if all(may_precede(mine, other) for o, other in places if o != loc):
            return loc
    return None


def _waiting(places: Sequence[tuple[str, Touches]]) -> set[str]:
    """The places every other one may precede: they can wait for the end."""
    return {loc for loc, mine in places
            if all(may_precede(other, mine) for o, other in places if o != loc)}


def _step(places: tuple[Place, ...]) -> tuple[str | None, list[str]]:
    """What happens next among ``places``: see ``next_action``."""
    alone, asked = _decided(places)
    return alone, list(asked)


@lru_cache(maxsize=4096)
def _decided(places: tuple[Place, ...]) -> tuple[str | None, tuple[str, ...]]:
    """``_step``, as a memo: a player stands on a few places of a few kinds, so the
    same sets come up again and again (a test that changes ``may_precede`` clears it)."""
    if len(places) < 2:
        return (places[0][0] if places else None), ()
    touched = [(loc, _touches(loc, effect)) for loc, effect in places]
    first = _first(touched)
    if first is not None:
        return first, ()
    waiting = _waiting(touched)
    asked = tuple(loc for loc, _ in places if loc not in waiting)
    if len(asked) > 1:
        return None, asked
    # One place cannot wait: it goes first. (None at all cannot happen: then every
    # place may precede every other one, and ``_first`` found one.)
    return (asked or (places[0][0],))[0], ()


def next_action(state: StoneAgeState, seat: int) -> tuple[str | None, list[str]]:
    """What happens next in ``seat``'s actions: ``(place, [])`` when the engine resolves
    ``place`` by itself, ``(None, asked)`` when the player chooses among ``asked`` (in
    the order they were placed), ``(None, [])`` when nothing is left."""
    return _step(_places(state, seat))


def will_choose(state: StoneAgeState, seat: int) -> bool:
    """Will ``seat`` surely be asked to choose which place comes next, once its turn to
    act comes? (What a place touches does not change while places resolve, so the
    places that will go by themselves can be taken away on paper.)"""
    places = _places(state, seat)
    while places:
        alone, asked = _step(places)
        if asked:
            return True
        places = tuple(p for p in places if p[0] != alone)
    return False


def later(state: StoneAgeState, seat: int) -> list[str]:
    """The places that will follow by themselves once the player's choices are made."""
    _, asked = next_action(state, seat)
    return [loc for loc in state.players[seat].placed if loc not in asked] if asked else []
