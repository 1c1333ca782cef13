"""Hunters and Gatherers' face-down piles drawn again (engine/hunters_gatherers/redraw.py),
on twins made by hand: states that differ only in what no seat can see."""

from __future__ import annotations

from engine.core.rng import ScriptedRandom, SeededRandom
from engine.hunters_gatherers.game import GAME
from engine.hunters_gatherers.state import HuntersGatherersState


def _midgame() -> HuntersGatherersState:
    """A three-player game a few turns in (the first option taken each time)."""
    state = GAME.new(3, 21)
    for _ in range(12):
        prompt = GAME.pending(state)[0]
        GAME.apply(state, prompt.seat, prompt.options[0].key)
    assert state.current is not None and len(state.bonus) > 2
    return state


def test_a_twin_made_by_hand_redraws_alike() -> None:
    state = _midgame()
    twin = GAME.copy(state)
    twin.draw[0], twin.draw[-1] = twin.draw[-1], twin.draw[0]
    twin.bonus[0], twin.bonus[1] = twin.bonus[1], twin.bonus[0]
    twin.rng = ScriptedRandom(values=[1, 2, 3])
    assert GAME.view(twin, 1) == GAME.view(state, 1)
    assert GAME.dump(twin) != GAME.dump(state)
    for seat in range(3):
        for seed in (0, 7, 2**61):
            assert GAME.dump(GAME.redraw(twin, seat, seed)) == GAME.dump(
                GAME.redraw(state, seat, seed))


def test_each_pile_is_shuffled_within_itself_and_the_rest_kept() -> None:
    state = _midgame()
    before = GAME.dump(state)
    redrawn = GAME.redraw(state, 0, 7)
    assert GAME.dump(state) == before  # the input is left alone
    assert sorted(redrawn.draw) == sorted(state.draw) and redrawn.draw != state.draw
    assert sorted(redrawn.bonus) == sorted(state.bonus) and redrawn.bonus != state.bonus
    assert isinstance(redrawn.rng, SeededRandom) and redrawn.rng != state.rng
    assert redrawn.current == state.current
    assert (redrawn.tiles, redrawn.discards, redrawn.figures) == (
        state.tiles, state.discards, state.figures)
    assert not GAME.invariants(redrawn)
