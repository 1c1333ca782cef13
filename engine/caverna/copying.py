"""Copying a Caverna state: a structural copy, independent of the original.

Search copies a state for every trial and playout, and a payment tries each trade on a
copy: the JSON round trip (or pydantic's ``model_copy(deep=True)``, which goes through
``copy.deepcopy``) costs several times more than rebuilding the tree directly. A state
holds only pydantic models, dicts, lists and immutable leaves (str, int, bool, None),
so a copy rebuilds every model, dict and list and shares only the leaves, with one
exception: the spaces of a home board, which change only through ``HomeBoard.edit``,
are shared copy-on-write (:func:`_board`), with what was derived from them. The models
have no extra fields, and no private attributes but the state's listing
(:mod:`engine.caverna.listing`), which a copy starts without, and a board's facts
(:mod:`engine.caverna.board_facts`); each copy keeps its own set of the fields that were
set, as pydantic's own copies do.
"""

from __future__ import annotations

from typing import Any, TypeVar

from pydantic import BaseModel

from engine.caverna.board import HomeBoard, Space
from engine.caverna.board_facts import BoardFacts
from engine.caverna.listing import fresh
from engine.caverna.state import CavernaState, Dwarf

M = TypeVar("M", bound=BaseModel)

_new = object.__new__
_set = object.__setattr__


def _model(model: M, fields: dict[str, Any]) -> M:
    """A model of ``model``'s class holding ``fields`` (already copied), unvalidated."""
    out = _new(type(model))
    _set(out, "__dict__", fields)
    _set(out, "__pydantic_fields_set__", set(model.__pydantic_fields_set__))
    _set(out, "__pydantic_extra__", None)
    _set(out, "__pydantic_private__", None)
    return out


# The immutable leaves of a state, shared by a copy (checked by exact type: asking
# ``isinstance(value, BaseModel)`` goes through the model metaclass and is slow).
_LEAVES = frozenset({str, int, bool, float, type(None)})


def copy_value(value: Any) -> Any:
    """A copy of any part of a state: models, dicts and lists rebuilt, leaves shared."""
    kind = type(value)
    if kind in _LEAVES:
        return value
    if kind is dict:
        return _copy_items(value)
    if kind is list:
        out = list(value)
        for i, item in enumerate(out):
            if type(item) not in _LEAVES:
                out[i] = copy_value(item)
        return out
    fast = _FLAT.get(kind)
    if fast is not None:
        return fast(value)
    if issubclass(kind, BaseModel):
        return copy_model(value)
    raise TypeError(f"not a part of a state: {kind.__name__}")


def _copy_items(mapping: dict[Any, Any]) -> dict[Any, Any]:
    """A copy of a dict of a state (or of a model's fields): the leaves taken over as they
    are, without a call for each (most values are leaves), every other value copied."""
    out = dict(mapping)
    for key, item in mapping.items():
        if type(item) not in _LEAVES:
            out[key] = copy_value(item)
    return out


def copy_model(model: M) -> M:
    """An independent copy of a model of the state (a step, an action space …)."""
    return _model(model, _copy_items(model.__dict__))


def copy_state(state: CavernaState) -> CavernaState:
    """An independent copy of ``state``, equal to it and to its JSON round trip."""
    out = copy_model(state)
    _set(out, "__pydantic_private__", fresh())
    return out


def copy_for_seat(state: CavernaState, seat: int) -> CavernaState:
    """A state to try one of ``seat``'s own trades on: ``seat``'s player and the stacks
    of steps copied, everything else shared with ``state``. Such a trade changes only
    its player and may open a step; the copy costs a fraction of a whole one (a payment
    tries every trade open to the payer)."""
    players = list(state.players)
    players[seat] = copy_model(players[seat])
    fields = dict(state.__dict__)
    fields["players"] = players
    fields["stacks"] = copy_value(state.stacks)
    out = _model(state, fields)
    _set(out, "__pydantic_private__", fresh())
    return out


def _flat(model: M) -> M:
    """A copy of a model whose fields all hold immutable leaves."""
    return _model(model, dict(model.__dict__))


def _board(board: HomeBoard) -> HomeBoard:
    """A board sharing ``board``'s spaces and what was derived from them, both marked
    shared: the first of the two boards to be edited takes spaces of its own
    (``HomeBoard.edit``). Most boards are not edited again before a copy is dropped."""
    known: BoardFacts = board.__pydantic_private__["_known"]  # type: ignore[index]
    known.shared = True
    out = _model(board, {"spaces": board.spaces})
    _set(out, "__pydantic_private__", {"_known": known})
    return out


# The models a state holds most of, copied without looking at each field: a space of a
# home board and a dwarf hold only leaves (``tests/engine/caverna/test_copying.py``
# checks that they still do).
_FLAT: dict[type[BaseModel], Any] = {Space: _flat, Dwarf: _flat, HomeBoard: _board}
