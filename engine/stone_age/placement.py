"""Phase 1, placing people: which location takes how many of whose workers.

Rules (rulebook, "placing people" and the 2–3 player changes):
- a player places once per location per round, the hunting grounds included;
- hunting grounds are unlimited; forest, clay pit, quarry and river hold 7 workers in
  all, and with 3 players only 2 players may share one, with 2 players only 1;
- tool maker and field take 1 worker, the hut exactly 2 of one player; with 2 or 3
  players only two of these three places may be taken in a round;
- each civilization card and each building pile takes 1 worker;
- nobody may pass while they can still place.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import Final

from engine.core.keys import parse_number
from engine.stone_age.components import GATHERING, VILLAGE, components
from engine.stone_age.listing import Places, listing
from engine.stone_age.state import StoneAgeState


def card_locations(state: StoneAgeState) -> list[str]:
    """``card1``..``card4``: slot 1 is the rightmost, cheapest card."""
    return list(_CARD_LOCS[:len(state.row)])


def building_locations(state: StoneAgeState) -> list[str]:
    """``bld1``..``bldN``: one per building pile."""
    return list(_BUILDING_LOCS[:len(state.piles)])


def all_locations(state: StoneAgeState) -> list[str]:
    """Every location of the board in display order."""
    return list(_all_locations(len(state.row), len(state.piles)))


# Enough names for any row and any number of piles (both are at most four).
_CARD_LOCS: Final = tuple(f"card{i + 1}" for i in range(9))
_BUILDING_LOCS: Final = tuple(f"bld{i + 1}" for i in range(9))
_SITES: Final = frozenset(GATHERING)
_VILLAGE_PLACES: Final = frozenset(VILLAGE)
_BOARD: Final = _SITES | _VILLAGE_PLACES


@cache
def _all_locations(cards: int, piles: int) -> tuple[str, ...]:
    """The board's locations for a row of ``cards`` slots and ``piles`` building piles."""
    return (*GATHERING, *VILLAGE, *_CARD_LOCS[:cards], *_BUILDING_LOCS[:piles])


def is_location(state: StoneAgeState, loc: str) -> bool:
    """Does ``loc`` name a location of this game's board?"""
    if loc in _BOARD:
        return True
    for prefix, count in (("card", len(state.row)), ("bld", len(state.piles))):
        if loc.startswith(prefix):
            number = parse_number(loc[len(prefix):])
            return number is not None and 1 <= number <= count
    return False


# The row index of each card slot and the pile index of each building pile.
CARD_SLOTS: Final[dict[str, int]] = {loc: i for i, loc in enumerate(_CARD_LOCS)}
PILE_SLOTS: Final[dict[str, int]] = {loc: i for i, loc in enumerate(_BUILDING_LOCS)}
_SLOT_INDEX: Final = {**CARD_SLOTS, **PILE_SLOTS}


def slot_index(loc: str) -> int:
    """The row index of ``cardK`` or the pile index of ``bldK``."""
    index = _SLOT_INDEX.get(loc)
    if index is not None:
        return index
    return int(loc[4:] if loc.startswith("card") else loc[3:]) - 1


def workers_at(state: StoneAgeState, loc: str) -> int:
    """How many workers of all players stand on ``loc``."""
    total = 0
    for p in state.players:
        n = p.placed.get(loc)
        if n:
            total += n
    return total


class Placing:
    """What the placement checks of one decision read, counted once for all of them:
    ``seat``'s own places and people left, the workers of all players on each
    location, how many players stand there, how many village places are taken, and
    the limits for this number of players."""

    __slots__ = ("limits", "mine", "seat", "sharing", "state", "unplaced", "villages_taken",
                 "workers")

    def __init__(self, state: StoneAgeState, seat: int) -> None:
        kept = listing(state)
        if kept.tally is None:
            kept.tally = _tally(state)
        self.workers, self.sharing, self.villages_taken = kept.tally
        player = state.players[seat]
        self.state = state
        self.seat = seat
        self.mine = mine = player.placed
        self.unplaced = player.people - sum(mine.values())
        self.limits = components().by_players[len(state.players)]


def _tally(state: StoneAgeState) -> tuple[dict[str, int], dict[str, int], int]:
    """The workers of all players on each location, how many players stand there, and
    how many village places are taken."""
    workers: dict[str, int] = {}
    sharing: dict[str, int] = {}
    for p in state.players:
        for loc, n in p.placed.items():
            if loc in workers:
                workers[loc] += n
                sharing[loc] += 1
            else:
                workers[loc] = n
                sharing[loc] = 1
    # A place is in ``workers`` only with someone on it (nobody places zero people).
    return workers, sharing, len(workers.keys() & _VILLAGE_PLACES)


# The exact number of workers each village place, card slot and building pile takes.
_FIXED_COUNT: Final = {**components().village_people, **dict.fromkeys(_SLOT_INDEX, 1)}


def fixed_count(loc: str) -> int | None:
    """The exact number of workers ``loc`` takes, or None for gathering places."""
    need = _FIXED_COUNT.get(loc)
    if need is not None:
        return need
    if loc in VILLAGE:
        return components().village_people[loc]
    if loc.startswith(("card", "bld")):
        return 1
    return None


def placement_error(state: StoneAgeState, seat: int, loc: str, count: int) -> str | None:
    """Why ``seat`` may not place ``count`` workers on ``loc`` now, or None if allowed."""
    listed = listing(state).places.get(seat)
    if listed is not None and count in listed.get(loc, ()):
        return None  # listed for this state: checked already
    if not is_location(state, loc):
        return "unknown_location"
    return _location_error(Placing(state, seat), loc, count)


def _location_error(ctx: Placing, loc: str, count: int) -> str | None:
    """``placement_error`` for a location of the board."""
    return _error_at(ctx, loc, count, _CHECKS[loc])


def _error_at(ctx: Placing, loc: str, count: int, check: Check) -> str | None:
    """``_location_error``, with the location's own ``check`` already looked up."""
    if loc in ctx.mine:
        return "already_there"
    if count < 1:
        return "bad_count"
    return check(ctx, loc, count)


# Each gathering site's room for workers (None: unlimited).
_CAPACITY: Final = {name: site.capacity for name, site in components().sites.items()}


def _room(ctx: Placing, loc: str) -> int:
    """Free spaces left on a gathering place (a large number when unlimited)."""
    capacity = _CAPACITY[loc]
    return 99 if capacity is None else capacity - ctx.workers.get(loc, 0)


def _site_error(ctx: Placing, loc: str, count: int) -> str | None:
    room = _room(ctx, loc)
    if room <= 0:
        return "location_full"
    if loc != "hunt" and ctx.sharing.get(loc, 0) >= ctx.limits.players_per_site:
        return "site_players_limit"
    if count > ctx.unplaced:
        return "not_enough_people"
    if count > room:
        return "not_enough_room"
    return None


def _village_error(ctx: Placing, loc: str, count: int) -> str | None:
    if ctx.workers.get(loc):
        return "location_full"
    if ctx.villages_taken >= ctx.limits.village_places_open:
        return "village_limit"
    need = components().village_people[loc]
    if ctx.unplaced < need:
        return "hut_needs_two" if loc == "hut" else "not_enough_people"
    return "bad_count" if count != need else None


def _card_error(ctx: Placing, loc: str, count: int) -> str | None:
    if ctx.state.row[CARD_SLOTS[loc]] is None:
        return "no_card"
    return _single_error(ctx, loc, count)


def _pile_error(ctx: Placing, loc: str, count: int) -> str | None:
    if not ctx.state.piles[PILE_SLOTS[loc]]:
        return "no_building"
    return _single_error(ctx, loc, count)


def _single_error(ctx: Placing, loc: str, count: int) -> str | None:
    """A card slot or a building pile: one worker, of one player."""
    if ctx.workers.get(loc):
        return "location_full"
    return "bad_count" if count != 1 else None


# The rules of one location beyond those of every location (see ``_error_at``).
Check = Callable[[Placing, str, int], str | None]
_CHECKS: Final[dict[str, Check]] = {
    **dict.fromkeys(GATHERING, _site_error), **dict.fromkeys(VILLAGE, _village_error),
    **dict.fromkeys(_CARD_LOCS, _card_error), **dict.fromkeys(_BUILDING_LOCS, _pile_error),
}


def legal_counts(state: StoneAgeState, seat: int, loc: str) -> list[int]:
    """Every number of workers ``seat`` may place on ``loc`` now."""
    return list(_listed(state, seat).get(loc, ()))


@cache
def _board(cards: int, piles: int) -> tuple[tuple[str, int | None, Check], ...]:
    """Each location of ``_all_locations`` with the exact number of workers it takes
    (None: a gathering site) and its own check."""
    return tuple((loc, _FIXED_COUNT.get(loc), _CHECKS[loc]) for loc in _all_locations(cards, piles))


def _listed(state: StoneAgeState, seat: int) -> Places:
    """The locations open to ``seat``, in board order, with the numbers of people each
    may take: counted once for the state as it is now, and kept with it
    (:mod:`engine.stone_age.listing`; callers do not change what they read)."""
    kept = listing(state)
    found = kept.places.get(seat)
    if found is None:
        ctx = Placing(state, seat)  # counts the state's tally first, if not yet
        found = {}
        for loc, need, check in _board(len(state.row), len(state.piles)):
            if need is not None:
                if _error_at(ctx, loc, need, check) is None:
                    found[loc] = [need]
            elif _error_at(ctx, loc, 1, check) is None:
                found[loc] = list(range(1, min(ctx.unplaced, _room(ctx, loc)) + 1))
        kept.places[seat] = found
    return found


def open_places(state: StoneAgeState, seat: int) -> list[tuple[str, list[int]]]:
    """Every location ``seat`` may place on now, in board order, with the numbers of
    people it may take."""
    return list(_listed(state, seat).items())


def placements(state: StoneAgeState, seat: int) -> list[tuple[str, int]]:
    """Every (location, number of people) ``seat`` may place now, in board order."""
    return [(loc, n) for loc, counts in open_places(state, seat) for n in counts]


def first_places(state: StoneAgeState, seat: int) -> list[tuple[str, list[int]]]:
    """``open_places``, and at once none when ``seat``'s people are all out: enough to
    tell whether ``seat`` can place and whether it has a choice. (The places are kept
    with the state, so the prompt that follows lists them without counting again.)"""
    if state.players[seat].unplaced <= 0:
        return []
    return open_places(state, seat)


def lone_placement(places: list[tuple[str, list[int]]]) -> tuple[str, int] | None:
    """The one (location, number of people) among open ``places``, or None when
    they offer more than one placement."""
    if len(places) == 1 and len(places[0][1]) == 1:
        return places[0][0], places[0][1][0]
    return None


def place(state: StoneAgeState, seat: int, loc: str, count: int) -> None:
    """Put the workers down (the caller has checked ``placement_error``)."""
    state.players[seat].placed[loc] = count
