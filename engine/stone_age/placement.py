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

from engine.core.keys import parse_number
from engine.stone_age.components import GATHERING, VILLAGE, components
from engine.stone_age.state import StoneAgeState


def card_locations(state: StoneAgeState) -> list[str]:
    """``card1``..``card4``: slot 1 is the rightmost, cheapest card."""
    return [f"card{i + 1}" for i in range(len(state.row))]


def building_locations(state: StoneAgeState) -> list[str]:
    """``bld1``..``bldN``: one per building pile."""
    return [f"bld{i + 1}" for i in range(len(state.piles))]


def all_locations(state: StoneAgeState) -> list[str]:
    """Every location of the board in display order."""
    return [*GATHERING, *VILLAGE, *card_locations(state), *building_locations(state)]


_BOARD = frozenset((*GATHERING, *VILLAGE))


def is_location(state: StoneAgeState, loc: str) -> bool:
    """Does ``loc`` name a location of this game's board?"""
    if loc in _BOARD:
        return True
    for prefix, count in (("card", len(state.row)), ("bld", len(state.piles))):
        if loc.startswith(prefix):
            number = parse_number(loc[len(prefix):])
            return number is not None and 1 <= number <= count
    return False


def slot_index(loc: str) -> int:
    """The row index of ``cardK`` or the pile index of ``bldK``."""
    return int(loc[4:] if loc.startswith("card") else loc[3:]) - 1


def workers_at(state: StoneAgeState, loc: str) -> int:
    """How many workers of all players stand on ``loc``."""
    total = 0
    for p in state.players:
        n = p.placed.get(loc)
        if n:
            total += n
    return total


def fixed_count(loc: str) -> int | None:
    """The exact number of workers ``loc`` takes, or None for gathering places."""
    if loc in VILLAGE:
        return components().village_people[loc]
    if loc.startswith(("card", "bld")):
        return 1
    return None


def site_room(state: StoneAgeState, loc: str) -> int:
    """Free spaces left on a gathering place (a large number when unlimited)."""
    capacity = components().sites[loc].capacity
    return 99 if capacity is None else capacity - workers_at(state, loc)


def placement_error(state: StoneAgeState, seat: int, loc: str, count: int) -> str | None:
    """Why ``seat`` may not place ``count`` workers on ``loc`` now, or None if allowed."""
    if not is_location(state, loc):
        return "unknown_location"
    player = state.players[seat]
    if loc in player.placed:
        return "already_there"
    if count < 1:
        return "bad_count"
    if loc in GATHERING:
        return _site_error(state, seat, loc, count)
    if loc in VILLAGE:
        return _village_error(state, seat, loc, count)
    if loc.startswith("card"):
        if state.row[slot_index(loc)] is None:
            return "no_card"
    elif not state.piles[slot_index(loc)]:
        return "no_building"
    if workers_at(state, loc):
        return "location_full"
    return "bad_count" if count != 1 else None


def _site_error(state: StoneAgeState, seat: int, loc: str, count: int) -> str | None:
    room = site_room(state, loc)
    if room <= 0:
        return "location_full"
    if loc != "hunt":
        sharing = sum(1 for p in state.players if loc in p.placed)
        if sharing >= components().by_players[state.n].players_per_site:
            return "site_players_limit"
    if count > state.players[seat].unplaced:
        return "not_enough_people"
    if count > room:
        return "not_enough_room"
    return None


def _village_error(state: StoneAgeState, seat: int, loc: str, count: int) -> str | None:
    if workers_at(state, loc):
        return "location_full"
    taken = sum(1 for v in VILLAGE if workers_at(state, v))
    if taken >= components().by_players[state.n].village_places_open:
        return "village_limit"
    need = components().village_people[loc]
    if state.players[seat].unplaced < need:
        return "hut_needs_two" if loc == "hut" else "not_enough_people"
    return "bad_count" if count != need else None


def legal_counts(state: StoneAgeState, seat: int, loc: str) -> list[int]:
    """Every number of workers ``seat`` may place on ``loc`` now."""
    need = fixed_count(loc)
    if need is not None:
        return [need] if placement_error(state, seat, loc, need) is None else []
    if placement_error(state, seat, loc, 1) is not None:
        return []
    most = min(state.players[seat].unplaced, site_room(state, loc))
    return list(range(1, most + 1))


def placements(state: StoneAgeState, seat: int) -> list[tuple[str, int]]:
    """Every (location, number of people) ``seat`` may place now, in board order."""
    return [(loc, n) for loc in all_locations(state) for n in legal_counts(state, seat, loc)]


def can_place(state: StoneAgeState, seat: int) -> bool:
    """True while ``seat`` has workers left and somewhere to put them."""
    if state.players[seat].unplaced <= 0:
        return False
    # Hunting is almost always open; checking it first keeps this cheap.
    return any(legal_counts(state, seat, loc) for loc in all_locations(state))


def place(state: StoneAgeState, seat: int, loc: str, count: int) -> None:
    """Put the workers down (the caller has checked ``placement_error``)."""
    state.players[seat].placed[loc] = count
