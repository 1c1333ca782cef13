"""The options listed for a state, kept on it until a key is applied
(engine.caverna.listing): a state that keeps them plays exactly like a reloaded one
that lists everything afresh, a copy takes them over, and nothing else carries them."""

from __future__ import annotations

import copy
import pickle
import random

import pytest

from engine.caverna.caverna_game import CAVERNA
from engine.caverna.copying import copy_for_seat
from engine.caverna.listing import Listing, forget, was_listed
from engine.caverna.state import CavernaState
from engine.core.errors import IllegalMove
from engine.core.prompts import Label, Option


def _kept(state: CavernaState) -> dict[int, object]:
    listing: Listing = state.__pydantic_private__["_listing"]  # type: ignore[index]
    return dict(listing.by_seat)


def test_a_kept_listing_plays_like_a_fresh_one() -> None:
    """Along random games, the prompts and every move's outcome on the state that keeps
    its listings equal those on a reloaded state that lists afresh (a listed key skips
    only checks the listing made), and on a copy that takes the listing over."""
    for seed in range(3):
        agent = random.Random(seed)
        state = CAVERNA.new(4, seed)
        for _ in range(400):
            fresh = CAVERNA.load(CAVERNA.dump(state))
            assert not _kept(fresh)
            copied = CAVERNA.copy(state)
            assert _kept(copied) == _kept(state)
            prompts = CAVERNA.pending(state)
            assert prompts == CAVERNA.pending(fresh)
            if not prompts:
                break
            prompt = agent.choice(prompts)
            key = agent.choice(prompt.options).key
            assert was_listed(state, CAVERNA.machine.current(state, prompt.seat), key)
            assert CAVERNA.pending(copied) == prompts
            events = CAVERNA.apply(state, prompt.seat, key)
            assert events == CAVERNA.apply(fresh, prompt.seat, key)
            assert events == CAVERNA.apply(copied, prompt.seat, key)
            assert state == fresh == copied
            assert CAVERNA.dump(state) == CAVERNA.dump(fresh) == CAVERNA.dump(copied)


def test_pending_reads_what_the_move_listed() -> None:
    """After a move, the engine has listed the open steps (looking for one with a single
    real option); ``pending`` reads them instead of listing again."""
    state = CAVERNA.new(3, 7)
    prompt = CAVERNA.pending(state)[0]
    CAVERNA.apply(state, prompt.seat, prompt.options[0].key)
    listing: Listing = state.__pydantic_private__["_listing"]  # type: ignore[index]
    assert listing.by_seat
    marker = Option("marker", Label("marker"))
    for seat, (step, _) in list(listing.by_seat.items()):
        listing.by_seat[seat] = (step, [marker])
    assert all(p.options == (marker,) for p in CAVERNA.pending(state))


def test_a_copy_takes_the_listing_over_dumps_and_loads_carry_none() -> None:
    state = CAVERNA.new(4, 3)
    CAVERNA.pending(state)
    assert _kept(state)
    copied = CAVERNA.copy(state)
    assert _kept(copied) == _kept(state)
    copied.__pydantic_private__["_listing"].by_seat.clear()  # type: ignore[index]
    assert _kept(state)  # each state has a listing of its own
    assert not _kept(copy_for_seat(state, 0))
    assert not _kept(CAVERNA.redraw(state, 0, 5))  # changed by hand: forgotten
    assert not _kept(CAVERNA.load(CAVERNA.dump(state)))
    assert not _kept(copy.deepcopy(state))
    assert not _kept(pickle.loads(pickle.dumps(state)))
    assert "_listing" not in CAVERNA.dump(state)
    # A listing is no part of the state's value.
    assert state == CAVERNA.copy(state) == CAVERNA.load(CAVERNA.dump(state))


def test_every_key_applied_forgets_the_listing_even_a_refused_one() -> None:
    state = CAVERNA.new(4, 5)
    prompt = CAVERNA.pending(state)[0]
    assert _kept(state)
    with pytest.raises(IllegalMove):
        CAVERNA.apply(state, prompt.seat, "no:such_key")
    assert not _kept(state)
    CAVERNA.pending(state)
    CAVERNA.apply(state, prompt.seat, prompt.options[0].key)
    # Only what was listed after the move (its forced steps and the next decision).
    assert all(step[0] is CAVERNA.machine.current(state, seat) or step[0] == (
        CAVERNA.machine.current(state, seat)) for seat, step in _kept(state).items())


def test_a_state_changed_by_hand_lists_afresh_once_it_forgets() -> None:
    state = CAVERNA.new(3, 11)
    seat = CAVERNA.pending(state)[0].seat
    state.players[seat].goods["food"] += 5
    state.players[seat].goods["ore"] += 5
    forget(state)
    assert CAVERNA.pending(state) == CAVERNA.pending(CAVERNA.load(CAVERNA.dump(state)))
