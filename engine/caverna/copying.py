"""Copying a Caverna state: a structural copy, independent of the original.

Search copies a state for every trial and playout, and a payment tries each trade on a
copy: the JSON round trip (or pydantic's ``model_copy(deep=True)``, which goes through
``copy.deepcopy``) costs several times more than rebuilding the tree directly. A state
holds only pydantic models, dicts, lists and immutable leaves (str, int, bool, None),
so a copy rebuilds every model, dict and list and shares only the leaves, with one
exception: the spaces of a home board, which change only through ``HomeBoard.edit``,
are shared copy-on-write (:func:`_board`), with what was derived from them. The models
have no extra fields, and no private attributes but the state's listing
(:mod:`engine.caverna.listing`) and the housing last told (:mod:`engine.caverna.told`),
which a whole copy takes over (a seat's trial copy starts without), and a board's facts
(:mod:`engine.caverna.board_facts`); each copy keeps its own set of the fields that were
set, as pydantic's own copies do.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from pydantic import BaseModel

from engine.caverna import listing, told
from engine.caverna.board import HomeBoard, Space
from engine.caverna.board_facts import BoardFacts
from engine.caverna.state import ActionSpace, CavernaState, Dwarf, Player, fresh_asides

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
    fast = _FAST.get(kind)
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
    fast = _FAST.get(type(model))
    if fast is not None:
        out: M = fast(model)
        return out
    return _model(model, _copy_items(model.__dict__))


def copy_state(state: CavernaState) -> CavernaState:
    """An independent copy of ``state``, equal to it and to its JSON round trip."""
    out = _by_field(state, _STATE_FIELDS)
    # What was listed and told for the state holds for its copy: search asks a copy
    # for its prompt, or tries a key on it, at once.
    private: dict[str, Any] = state.__pydantic_private__  # type: ignore[assignment]
    _set(out, "__pydantic_private__", {"_listing": listing.carried(state),
                                       "_told": told.carried(private["_told"])})
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
    _set(out, "__pydantic_private__", fresh_asides())
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


def _by_field(model: M, copiers: dict[str, Callable[[Any], Any]]) -> M:
    """A copy of ``model`` whose fields named in ``copiers`` are copied by theirs (no
    look at what they hold), any other field as :func:`copy_value` copies it."""
    fields = dict(model.__dict__)
    for name, value in model.__dict__.items():
        copier = copiers.get(name)
        if copier is not None:
            fields[name] = copier(value)
        elif type(value) not in _LEAVES:
            fields[name] = copy_value(value)
    return _model(model, fields)


def _dicts(mapping: dict[Any, dict[Any, Any]]) -> dict[Any, dict[Any, Any]]:
    """A copy of a dict of dicts of leaves."""
    return {k: dict(v) for k, v in mapping.items()}


# How the fields of the models a state holds most of are copied: a dict or a list of
# leaves by ``dict`` or ``list``, a dict of such dicts by ``_dicts``
# (``tests/engine/caverna/test_copying.py`` checks the fields still hold what their
# copier takes). A field left out is copied by ``copy_value``.
_SPACE_FIELDS: dict[str, Callable[[Any], Any]] = {"goods": dict}
_PLAYER_FIELDS: dict[str, Callable[[Any], Any]] = {
    "goods": dict, "animals": dict, "dwarfs": lambda dwarfs: [_flat(d) for d in dwarfs],
    "board": _board, "income": _dicts, "covered": list, "spent": list, "housed": _dicts,
}
_STATE_FIELDS: dict[str, Callable[[Any], Any]] = {
    "players": lambda players: [_by_field(p, _PLAYER_FIELDS) for p in players],
    "spaces": lambda spaces: [_by_field(s, _SPACE_FIELDS) for s in spaces],
    "rounds": list, "passed": list, "cards": dict, "markers": dict, "revealed": dict,
    "options": dict,
}

# The models copied by a copier of their own: a space of a home board and a dwarf hold
# only leaves (checked by the tests too), a board shares its spaces.
_FAST: dict[type[BaseModel], Callable[[Any], Any]] = {
    Space: _flat, Dwarf: _flat, HomeBoard: _board,
    ActionSpace: lambda s: _by_field(s, _SPACE_FIELDS),
    Player: lambda p: _by_field(p, _PLAYER_FIELDS),
}
