"""Copying a state (``CAVERNA.copy``, :mod:`engine.caverna.copying`): the copy equals
the JSON round trip, shares nothing that can change with the original but the home
boards' spaces (copy-on-write: the first board edited takes its own), and playing on
either leaves the other as it was."""

from __future__ import annotations

import random
import types
import typing
from collections.abc import Iterator
from typing import Any

import pytest
from pydantic import BaseModel

from engine.caverna import copying
from engine.caverna.board import HomeBoard, Space
from engine.caverna.caverna_game import CAVERNA
from engine.caverna.copying import copy_for_seat, copy_value
from engine.caverna.decisions.exchanges import _trade, _trades
from engine.caverna.state import ActionSpace, CavernaState, Dwarf, ExchangeStep, Player
from engine.core.playout import random_moves
from tests.engine.caverna.scenario import give, play, scripted

# (players, seed): every player count, and more four-player games.
GAMES: tuple[tuple[int, int], ...] = (
    (1, 31), (2, 32), (3, 33), (4, 34), (5, 35), (6, 36), (7, 37), (4, 38), (4, 39),
)
EVERY = 9  # a state is copied every this many moves
AHEAD = 25  # moves played on each copy


def _states(players: int, seed: int) -> Iterator[tuple[CavernaState, random.Random]]:
    """Every ``EVERY``-th state of a seeded random game, with the game's random player."""
    agent = random.Random(seed)
    state = CAVERNA.new(players, seed)
    moves = 0
    while prompts := CAVERNA.pending(state):
        if moves % EVERY == 0:
            yield state, agent
        prompt = agent.choice(prompts)
        CAVERNA.apply(state, prompt.seat, agent.choice(prompt.options).key)
        moves += 1
    yield state, agent


def _mutable_parts(value: Any) -> Iterator[Any]:
    """Every model, dict and list inside ``value`` (``value`` too), but a home board's
    spaces: shared by a copy until either board is edited (the tests below)."""
    if isinstance(value, HomeBoard):
        yield value
    elif isinstance(value, BaseModel):
        yield value
        for part in value.__dict__.values():
            yield from _mutable_parts(part)
    elif isinstance(value, dict):
        yield value
        for part in value.values():
            yield from _mutable_parts(part)
    elif isinstance(value, list):
        yield value
        for part in value:
            yield from _mutable_parts(part)


def _shared(a: Any, b: Any) -> list[Any]:
    """The models, dicts and lists ``a`` and ``b`` both hold (the very same objects)."""
    ids = {id(part) for part in _mutable_parts(a)}
    return [part for part in _mutable_parts(b) if id(part) in ids]


@pytest.mark.parametrize(("players", "seed"), GAMES)
def test_a_copy_is_the_json_round_trip_and_shares_nothing(players: int, seed: int) -> None:
    for state, _ in _states(players, seed):
        copied = CAVERNA.copy(state)
        assert copied == CAVERNA.load(CAVERNA.dump(state))
        assert CAVERNA.dump(copied) == CAVERNA.dump(state)
        assert copied.model_fields_set == state.model_fields_set
        assert _shared(state, copied) == []


@pytest.mark.parametrize(("players", "seed"), GAMES)
def test_playing_on_a_copy_leaves_the_original_alone(players: int, seed: int) -> None:
    for state, agent in _states(players, seed):
        before = CAVERNA.dump(state)
        random_moves(CAVERNA, CAVERNA.copy(state), agent, AHEAD)
        assert CAVERNA.dump(state) == before


@pytest.mark.parametrize(("players", "seed"), GAMES[:4])
def test_playing_on_the_original_leaves_a_copy_alone(players: int, seed: int) -> None:
    """The other way round: a copy's boards share the original's spaces until either is
    edited, and the original is played on while the copies are kept."""
    kept = []
    for state, _ in _states(players, seed):
        copied = CAVERNA.copy(state)
        kept.append((copied, CAVERNA.dump(copied)))
    for copied, then in kept:
        assert CAVERNA.dump(copied) == then


def test_a_board_edited_after_a_copy_takes_its_own_spaces() -> None:
    """Editing either board of a state and its copy changes that board alone, and
    each answers about its own spaces (what was derived is forgotten by the edited one,
    kept by the other)."""
    for edit_copy in (True, False):
        state = CAVERNA.new(2, 5)
        board = state.players[0].board
        signature, furnished = board.signature(), board.furnished()
        copied = CAVERNA.copy(state)
        twin = copied.players[0].board
        assert twin.spaces is board.spaces and twin.signature() is signature
        edited, other = (twin, board) if edit_copy else (board, twin)
        edited.edit((3, 2)).furnishing = "dwelling"
        assert edited.spaces is not other.spaces
        assert edited.furnished() != furnished and edited.signature() != signature
        assert other.furnished() == furnished and other.signature() is signature
        assert other.at((3, 2)).furnishing is None
        other.edit((3, 1)).tile = "tunnel"  # the other board takes its own too
        assert edited.at((3, 1)).tile is None
        assert edited.has_furnishing("dwelling") and not other.has_furnishing("dwelling")


def test_a_scripted_random_source_is_copied_too() -> None:
    """Scenario states draw from a list of prepared values: the copy has its own."""
    state = scripted(3)
    give(state, 0, ruby=2)
    play(state, 0, "exchange")  # a step open on the stack
    copied = CAVERNA.copy(state)
    assert copied == state and _shared(state, copied) == []
    copied.rng.values.append(6)  # type: ignore[union-attr]
    copied.stacks[0].pop()
    assert CAVERNA.dump(state) != CAVERNA.dump(copied)
    assert state.top(0) is not None


def test_the_copier_refuses_what_a_state_never_holds() -> None:
    with pytest.raises(TypeError):
        copy_value({"goods": {1, 2}})


def _leaf_type(annotation: Any) -> bool:
    """Is every value ``annotation`` allows immutable (str, int, bool, None, a literal)?"""
    origin = typing.get_origin(annotation)
    if origin is typing.Literal:
        return True
    if origin in (typing.Union, types.UnionType):
        return all(_leaf_type(arg) for arg in typing.get_args(annotation))
    return annotation in (str, int, bool, type(None))


@pytest.mark.parametrize("model", [Space, Dwarf])
def test_models_copied_whole_hold_only_leaves(model: type[BaseModel]) -> None:
    """``copying`` copies a board space and a dwarf without looking into their fields:
    safe only while every field holds an immutable value."""
    assert all(_leaf_type(f.annotation) for f in model.model_fields.values())


def _holds(annotation: Any, copier: Any) -> bool:
    """Does a field of type ``annotation`` hold what ``copier`` copies whole: a dict or a
    list of leaves (``dict``, ``list``), a dict of dicts of leaves (``_dicts``)?"""
    origin, args = typing.get_origin(annotation), typing.get_args(annotation)
    if copier is dict:
        return origin is dict and all(_leaf_type(a) for a in args)
    if copier is list:
        return origin is list and _leaf_type(args[0])
    if copier is copying._dicts:
        return origin is dict and _leaf_type(args[0]) and _holds(args[1], dict)
    return True  # a copier of its own: the round-trip tests above check it


@pytest.mark.parametrize(("model", "copiers"), [
    (ActionSpace, copying._SPACE_FIELDS), (Player, copying._PLAYER_FIELDS),
    (CavernaState, copying._STATE_FIELDS)])
def test_fields_copied_whole_hold_what_their_copier_takes(
        model: type[BaseModel], copiers: dict[str, Any]) -> None:
    """``copying`` copies some fields of the models a state holds most of by a plain
    ``dict`` or ``list``, without looking into them: safe only while they hold leaves."""
    fields = model.model_fields
    for name, copier in copiers.items():
        assert name in fields, name
        assert _holds(fields[name].annotation, copier), name


def test_a_seat_copy_takes_any_trade_of_the_seat_as_a_whole_copy_does() -> None:
    """A payment tries each any-time trade on ``copy_for_seat``: the trade leaves the
    original alone and ends as on a whole copy (the seat's player and the steps), so
    what it shares with the original is never changed by it."""
    tried = 0
    for players, seed in GAMES[:6]:
        for state, _ in _states(players, seed):
            before = CAVERNA.dump(state)
            for seat in range(state.n):
                assert _shared(state.players[seat], copy_for_seat(state, seat).players[seat]) == []
                for option in _trades(state, seat):
                    if option.key.startswith("tile:"):
                        continue  # not tried during a payment
                    trial, whole = copy_for_seat(state, seat), CAVERNA.copy(state)
                    _trade(trial, ExchangeStep(seat=seat), option.key, [])
                    _trade(whole, ExchangeStep(seat=seat), option.key, [])
                    assert CAVERNA.dump(trial) == CAVERNA.dump(whole)
                    assert CAVERNA.dump(state) == before
                    tried += 1
    assert tried >= 100, tried
