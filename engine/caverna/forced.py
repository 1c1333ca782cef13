"""Decisions with nothing to choose are not asked: the engine takes the one real option
itself, and moves on.

One rule for every kind of step: a step is asked only while it offers at least two real
options. An option marked ``back`` is not a real one: it steps out of a choice begun
earlier (a square, a tile, a dwarf out of order) or puts back a loot item taken earlier,
and whatever it would lead to could be reached already at that earlier choice. So the
engine applies a step's only legal option (the one spot for a tile, the one weapon
strength, the one sowing, the one space to imitate, the payment once the food is there,
begging when nothing could bring food) and a confirmation with nothing left to do
besides (loot when no item is left to take: the items taken stand).

The option is applied through its step's own rules, so it produces the same events as a
press, and players read in the log what was done. A step back is offered only where it
leads to a real choice (``decisions.options.back_to``), so no back button undoes nothing.

A game is stored as its seed and the keys pressed, and the engine takes only keys it
offers: a log written while these steps were still asked names keys that are no longer
pressed, and does not replay (the replay digest test was renewed for this change).
"""

from __future__ import annotations

from engine.caverna.decisions import MACHINE, RULES
from engine.caverna.flow import advance
from engine.caverna.state import CavernaState
from engine.core.prompts import Event, only_choice


def forced_move(state: CavernaState) -> tuple[int, str] | None:
    """A seat with nothing to choose, and the key it can only press, if any."""
    for seat in MACHINE.deciding(state):
        key = _only_key(state, seat)
        if key is not None:
            return seat, key
    return None


def _only_key(state: CavernaState, seat: int) -> str | None:
    """The one real option of ``seat``'s step, if it has only one. The options are
    listed whole, and kept on the state (``engine.caverna.listing``): a step with a real
    choice is asked next, and its prompt reads them."""
    step = MACHINE.current(state, seat)
    return only_choice(RULES[step.kind].options(state, step))


def carry_on(state: CavernaState, events: list[Event]) -> None:
    """Everything automatic, and every decision with one real option, until a seat has
    a real choice or the game is over."""
    advance(state, events)
    while (forced := forced_move(state)) is not None:
        seat, key = forced
        MACHINE.apply_key(state, seat, key, events)
        advance(state, events)

