"""Telling where the animals live: the engine houses them itself, so after every change
of a seat's arrangement it says so in an event (``housed``).

The event lists each place that keeps animals, in board order, as
``{"at": holder id, "place": what it is, "animals": {kind: n}}`` (dogs guarding sheep
under ``dog``), and ``free_dogs`` for dogs roaming elsewhere. ``place`` is
``large_pasture``, ``small_pasture``, ``stable`` (a stable on a meadow or in the forest),
``meadow`` (sheep guarded by dogs on a bare meadow), ``ore_mine``, ``ruby_mine``,
``field`` (the Stubble room) or a furnishing tile's id (a dwelling, the Breakfast room …).
The last arrangement told is kept in ``Player.housed`` so that nothing is repeated.
"""

from __future__ import annotations

from typing import Any

from engine.caverna.animals import house
from engine.caverna.board import BoardSignature, HomeBoard, pos_of
from engine.caverna.memo import Memo
from engine.caverna.state import CavernaState, Player
from engine.caverna.told import Inputs
from engine.core.prompts import Event

FREE_DOGS = "-"  # Player.housed's entry for the dogs roaming elsewhere


def place_of(board: HomeBoard, holder: str) -> str:
    """What the holder ``holder`` (a space key, two for a large pasture) is."""
    if "+" in holder:
        return "large_pasture"
    pos = pos_of(holder)
    if pos is None:
        return "other"
    space = board.at(pos)
    if space.furnishing is not None:
        return space.furnishing
    if space.tile in ("small_pasture", "ore_mine", "ruby_mine", "field"):
        return space.tile
    if space.stable:
        return "stable"
    return "meadow" if space.tile == "meadow" else "other"


def arrangement(player: Player) -> dict[str, dict[str, int]]:
    """Where ``player``'s animals live now (``FREE_DOGS`` for the roaming dogs)."""
    return {holder: dict(kept) for holder, kept in _arrangement(player).items()}


# An arrangement: holder -> animals there, in board order (as ``Player.housed`` keeps it).
Arrangement = dict[str, dict[str, int]]
# Memoised by board, animals and family: every seat's arrangement is looked at after
# every move, and it changes only when one of those does. The memo's arrangements are
# shared, so they are never changed: whoever keeps one keeps a copy.
_ARRANGEMENTS: Memo[tuple[BoardSignature, tuple[tuple[str, int], ...], int], Arrangement] = (
    Memo())
_NONE: Arrangement = {}


def _arrangement(player: Player) -> Arrangement:
    """``player``'s arrangement as the memo holds it (shared: never to be changed)."""
    if not any(player.animals.values()):
        return _NONE
    board, animals, dwarfs = player.board, tuple(player.animals.items()), len(player.dwarfs)
    question = (board.signature(), animals, dwarfs)
    # Asked for every seat after every move, and nearly always known: read first, so
    # that no function to work it out is made for nothing.
    found = _ARRANGEMENTS.known(question)
    if found is None:
        found = _ARRANGEMENTS.get(question, lambda: _arrange(board, dict(animals), dwarfs))
    return found


def _arrange(board: HomeBoard, animals: dict[str, int], dwarfs: int) -> Arrangement:
    housing = house(board, animals, dwarfs)
    out = {h: {k: n for k, n in a.items() if n} for h, a in housing.held.items()}
    out = {h: a for h, a in out.items() if a}
    if housing.free_dogs:
        out[FREE_DOGS] = {"dog": housing.free_dogs}
    return out


def tell_housing(state: CavernaState, events: list[Event]) -> None:
    """A ``housed`` event for each seat whose animals' arrangement changed (a seat whose
    board, animals and family are as when it was last told on this state is passed
    over: ``engine.caverna.told``)."""
    told: dict[int, Inputs] = state.__pydantic_private__["_told"].by_seat  # type: ignore[index]
    for seat, player in enumerate(state.players):
        animals = player.animals
        if not player.housed and not any(animals.values()):
            continue
        inputs = told.get(seat)
        signature, dwarfs = player.board.signature(), len(player.dwarfs)
        if (inputs is not None and inputs[0] is signature and inputs[2] == dwarfs
                and inputs[1] == animals):
            continue
        told[seat] = (signature, dict(animals), dwarfs)
        if _arrangement(player) == player.housed:
            continue
        now = player.housed = arrangement(player)
        places: list[dict[str, Any]] = [
            {"at": h, "place": place_of(player.board, h), "animals": dict(a)}
            for h, a in now.items() if h != FREE_DOGS
        ]
        free = now.get(FREE_DOGS, {}).get("dog", 0)
        events.append(Event("housed", seat, {"places": places, "free_dogs": free}))
