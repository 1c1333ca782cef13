"""The work phase: placing dwarfs one at a time, in weapon order.

Turns go round from the first player; each turn one dwarf goes to a free action space
and its action is carried out at once. A player whose dwarfs are all out passes over.
A player's dwarfs go out weakest first: unarmed ones, then armed ones by rising
strength. Paying 1 ruby lets one dwarf go out of that order. A dwarf may only go where
it can carry out at least one of the space's actions; a space holds one dwarf a round.
"""

from __future__ import annotations

from collections.abc import Iterator

from engine.caverna.components import components
from engine.caverna.spaces import board_questions, doable_on, space_doable
from engine.caverna.state import ActionSpace, CavernaState, Player

RUBY_OUT_OF_ORDER = components().tables.ruby_out_of_order


def next_in_order(player: Player) -> int | None:
    """The dwarf that must go out next (the weakest at home), if any."""
    home = player.home()
    if not home:
        return None
    return min(home, key=lambda i: (player.dwarfs[i].weapon, i))


def out_of_order(player: Player) -> list[int]:
    """Dwarfs that a ruby could send out instead of the next in order: one per weapon
    strength other than the next one's (dwarfs of equal strength are alike)."""
    nxt = next_in_order(player)
    if nxt is None or player.goods["ruby"] < RUBY_OUT_OF_ORDER:
        return []
    seen = {player.dwarfs[nxt].weapon}
    out = []
    for i in sorted(player.home(), key=lambda i: (player.dwarfs[i].weapon, i)):
        weapon = player.dwarfs[i].weapon
        if weapon not in seen:
            seen.add(weapon)
            out.append(i)
    return out


def open_spaces(state: CavernaState, seat: int, dwarf: int) -> list[str]:
    """Free action spaces where ``dwarf`` could carry out an action."""
    with board_questions():
        return [s.id for s in open_spaces_of(state, seat, dwarf)]


def open_spaces_of(state: CavernaState, seat: int, dwarf: int) -> list[ActionSpace]:
    """The spaces of :func:`open_spaces` themselves, in one pass (inside
    ``board_questions()``: the state does not change while they are read)."""
    # ``seat is None``: not ``taken``, without a property call for each
    return [s for s in state.spaces if s.seat is None and doable_on(state, seat, dwarf, s)]


def each_open_space(state: CavernaState, seat: int, dwarf: int) -> Iterator[ActionSpace]:
    """The spaces of :func:`open_spaces` one at a time, for a caller that may need only
    the first few (inside ``board_questions()``: the state does not change while they
    are read)."""
    return (  # ``seat is None``: not ``taken``, without a property call for each
        s for s in state.spaces if s.seat is None and doable_on(state, seat, dwarf, s)
    )


def space_open(state: CavernaState, seat: int, dwarf: int, space_id: str) -> bool:
    """Is ``space_id`` free, and could ``dwarf`` carry out an action there?"""
    if not state.has_space(space_id) or state.space(space_id).taken:
        return False
    return space_doable(state, seat, dwarf, space_id)


def can_place(state: CavernaState, seat: int) -> bool:
    """Does ``seat`` have a dwarf at home and somewhere to send it?"""
    player = state.players[seat]
    nxt = next_in_order(player)
    if nxt is None:
        return False
    with board_questions():
        return any(any(each_open_space(state, seat, d)) for d in [nxt, *out_of_order(player)])


def stand(state: CavernaState, seat: int, dwarf: int, space_id: str) -> None:
    """Put ``dwarf`` on ``space_id``."""
    space = state.space(space_id)
    space.seat = seat
    space.dwarf = dwarf
    state.players[seat].dwarfs[dwarf].at = space_id


def next_turn(state: CavernaState, after: int) -> int | None:
    """The next seat, clockwise after ``after``, with a dwarf at home."""
    for i in range(1, state.n + 1):
        seat = (after + i) % state.n
        if state.players[seat].home():
            return seat
    return None
