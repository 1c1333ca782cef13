"""The work phase: placing the next dwarf (``go:<space>``), or another dwarf for 1 ruby
(``dwarf:<i>``, then ``go:<space>``), or opening the any-time trades (``exchange``)."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from engine.caverna.anytime_trades import can_exchange
from engine.caverna.decisions.exchanges import open_exchange
from engine.caverna.decisions.options import back_to, kind_label, opt
from engine.caverna.flow import open_action
from engine.caverna.listing import was_listed
from engine.caverna.placement import (
    RUBY_OUT_OF_ORDER,
    each_open_space,
    next_in_order,
    open_spaces_of,
    out_of_order,
    space_open,
    stand,
)
from engine.caverna.spaces import board_questions
from engine.caverna.state import ActionSpace, CavernaState, PlaceStep
from engine.core.errors import IllegalMove
from engine.core.keys import parse_number
from engine.core.prompts import BACK, Event, Label, Option
from engine.core.steps import StepRules, Turn


def _space_option(space: ActionSpace) -> Option:
    return _go_option(space.id, tuple(space.goods.items()))


@lru_cache(maxsize=4096)
def _go_option(space_id: str, goods: tuple[tuple[str, int], ...]) -> Option:
    """Going to ``space_id`` with ``goods`` lying there: made once for each, and shared
    (options and labels are frozen, and nothing changes a label's arguments)."""
    return opt(f"go:{space_id}", "go", space=space_id, goods=dict(goods))


def _work_options(state: CavernaState, turn: Turn) -> list[Option]:
    """The options of a work turn, in display order: the open spaces (read in one pass:
    the listing every work turn makes), other dwarfs for a ruby, the trades."""
    seat = turn.seat
    player = state.players[seat]
    nxt = next_in_order(player)
    assert nxt is not None
    with board_questions():
        opts = [_space_option(space) for space in open_spaces_of(state, seat, nxt)]
        for dwarf in out_of_order(player):
            if any(each_open_space(state, seat, dwarf)):
                opts.append(opt(f"dwarf:{dwarf}", "dwarf", dwarf=dwarf,
                                weapon=player.dwarfs[dwarf].weapon,
                                rubies=RUBY_OUT_OF_ORDER))
    if can_exchange(state, seat):
        opts.append(opt("exchange", "exchange"))
    return opts


def _go(state: CavernaState, seat: int, dwarf: int, space_id: str, ruby: bool,
        events: list[Event], listed: bool) -> None:
    """Send ``dwarf`` to ``space_id`` (``listed``: the key was listed for this very
    state, so the space is known to be open)."""
    if not listed and not space_open(state, seat, dwarf, space_id):
        raise IllegalMove("space_not_open", space=space_id)
    if ruby:
        state.players[seat].goods["ruby"] -= RUBY_OUT_OF_ORDER
    stand(state, seat, dwarf, space_id)
    state.acting = seat
    events.append(Event("placed", seat, {"space": space_id, "dwarf": dwarf,
                                         "weapon": state.players[seat].dwarfs[dwarf].weapon,
                                         "out_of_order": ruby}))
    open_action(state, seat, dwarf, space_id)


def _apply_work(state: CavernaState, turn: Turn, key: str, events: list[Event]) -> None:
    seat = turn.seat
    player = state.players[seat]
    head, _, arg = key.partition(":")
    if head == "go":
        nxt = next_in_order(player)
        assert nxt is not None
        _go(state, seat, nxt, arg, False, events, was_listed(state, turn, key))
    elif head == "dwarf":
        dwarf = parse_number(arg)
        if dwarf is None or dwarf not in out_of_order(player):
            raise IllegalMove("dwarf_not_free", dwarf=arg)
        state.push(PlaceStep(seat=seat, dwarf=dwarf))
    elif key == "exchange":
        open_exchange(state, seat)
    else:
        raise IllegalMove("unknown_option", key=key)


def _place_options(state: CavernaState, step: PlaceStep) -> list[Option]:
    with board_questions():
        spaces = [_space_option(s) for s in each_open_space(state, step.seat, step.dwarf)]
    return [*spaces, *back_to(_work_options(state, Turn("work", step.seat)))]


def _apply_place(state: CavernaState, step: PlaceStep, key: str, events: list[Event]) -> None:
    listed = was_listed(state, step, key)
    if key == BACK.key and (listed or BACK in _place_options(state, step)):
        state.pop(step.seat)
        return
    head, _, arg = key.partition(":")
    if head != "go":
        raise IllegalMove("unknown_option", key=key)
    if not listed and not space_open(state, step.seat, step.dwarf, arg):
        raise IllegalMove("space_not_open", space=arg)
    state.pop(step.seat)
    _go(state, step.seat, step.dwarf, arg, True, events, listed=True)


def _work_label(state: CavernaState, turn: Turn) -> Label:
    player = state.players[turn.seat]
    nxt = next_in_order(player)
    weapon = player.dwarfs[nxt].weapon if nxt is not None else 0
    return Label("cav.prompt.place", {"round": state.round, "dwarf": nxt, "weapon": weapon})


STEPS: dict[str, StepRules[CavernaState, Any]] = {
    "work": StepRules(_work_options, _apply_work, _work_label),
    "place": StepRules(_place_options, _apply_place, kind_label),
}
