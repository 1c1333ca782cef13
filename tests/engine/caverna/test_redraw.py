"""Caverna's face-down round cards and harvest markers drawn again
(engine/caverna/redraw.py), on twins made by hand."""

from __future__ import annotations

from engine.caverna.caverna_game import CAVERNA, new_game
from engine.caverna.components import components
from engine.caverna.state import CavernaState
from engine.core.rng import ScriptedRandom, SeededRandom

STAGES = components().tables.rounds.stages


def _stage_cards(state: CavernaState) -> dict[int, list[str]]:
    """The face-down cards of each stage, in round order."""
    return {stage: [state.cards[r] for r in rounds if r in state.cards]
            for stage, rounds in STAGES.items()}


def test_a_twin_made_by_hand_redraws_alike() -> None:
    state = new_game(4, 8)
    twin = CAVERNA.copy(state)
    # Two face-down cards of stage 3 trade rounds, as do a green and a red marker.
    twin.cards[7], twin.cards[8] = twin.cards[8], twin.cards[7]
    green = next(r for r, m in twin.markers.items() if m == "green")
    red = next(r for r, m in twin.markers.items() if m == "red")
    twin.markers[green], twin.markers[red] = "red", "green"
    twin.rng = SeededRandom(seed=4242)
    assert CAVERNA.view(twin, 0) == CAVERNA.view(state, 0)
    assert CAVERNA.dump(twin) != CAVERNA.dump(state)
    for seat in range(4):
        for seed in (0, 7, 2**61):
            assert CAVERNA.dump(CAVERNA.redraw(twin, seat, seed)) == CAVERNA.dump(
                CAVERNA.redraw(state, seat, seed))
    # A card of stage 3 and one of stage 4 swapped is no twin: the backs tell the stages.
    crossed = CAVERNA.copy(state)
    crossed.cards[7], crossed.cards[10] = crossed.cards[10], crossed.cards[7]
    assert CAVERNA.dump(CAVERNA.redraw(crossed, 0, 7)) != CAVERNA.dump(
        CAVERNA.redraw(state, 0, 7))


def test_cards_stay_in_their_stage_and_the_round_4_card_in_round_4() -> None:
    state = new_game(3, 8)
    before = CAVERNA.dump(state)
    fixed = components().fixed_round_cards()
    seen: set[tuple[str, ...]] = set()
    for seed in range(12):
        redrawn = CAVERNA.redraw(state, 0, seed)
        for stage, cards in _stage_cards(redrawn).items():
            assert sorted(cards) == sorted(_stage_cards(state)[stage])
        for r, card in fixed.items():
            assert redrawn.cards[r] == card
        assert sorted(redrawn.markers) == sorted(state.markers)
        assert sorted(redrawn.markers.values()) == sorted(state.markers.values())
        assert not CAVERNA.invariants(redrawn)
        seen.add(tuple(redrawn.cards.values()) + tuple(redrawn.markers.values()))
    assert len(seen) > 6  # the seeds do deal differently
    assert CAVERNA.dump(state) == before  # the input is left alone


def test_only_what_is_still_face_down_is_redealt() -> None:
    state = new_game(2, 8)
    # Rounds 1 to 7 played: their cards and markers are turned and known. Round 8 holds
    # the last card of stage 3 (round 9 is not played by two): it can be no other.
    for r in range(1, 8):
        state.cards.pop(r, None)
        if r in state.markers:
            state.revealed[r] = state.markers.pop(r)
    orders = set()
    for seed in range(12):
        redrawn = CAVERNA.redraw(state, 1, seed)
        assert redrawn.cards[8] == state.cards[8]
        assert sorted(redrawn.cards) == [8, 10, 11, 12]
        assert sorted(_stage_cards(redrawn)[4]) == sorted(_stage_cards(state)[4])
        assert sorted(redrawn.markers) == sorted(state.markers)
        assert redrawn.revealed == state.revealed
        orders.add(tuple(_stage_cards(redrawn)[4]))
    assert len(orders) > 1


def test_solo_cards_keep_their_printed_order() -> None:
    state = new_game(1, 8)
    state.rng = ScriptedRandom()
    redrawn = CAVERNA.redraw(state, 0, 5)
    assert redrawn.cards == state.cards and not redrawn.markers
    assert isinstance(redrawn.rng, SeededRandom)
