"""Stone Age's hidden part drawn again for one seat (engine/stone_age/redraw.py), on
twins made by hand: states that differ only in what the seat cannot see."""

from __future__ import annotations

from engine.core.rng import ScriptedRandom, SeededRandom
from engine.stone_age.game import GAME
from engine.stone_age.state import StoneAgeState


def _with_blind_cards() -> StoneAgeState:
    """A two-player game at its first decision; each seat has drawn one card blind."""
    state = GAME.new(2, 11)
    for player in state.players:
        card = state.deck.pop()
        player.cards.append(card)
        player.blind.append(card)
    assert not GAME.invariants(state)
    return state


def _twin(state: StoneAgeState) -> StoneAgeState:
    """``state`` with everything seat 0 cannot see changed by hand: two deck cards
    swapped, seat 1's blind card swapped with a deck card, a building under a face-up
    one swapped with one in the box, and other dice to come."""
    twin = GAME.copy(state)
    twin.deck[0], twin.deck[-1] = twin.deck[-1], twin.deck[0]
    theirs = twin.players[1]
    (blind,) = theirs.blind
    theirs.cards[theirs.cards.index(blind)] = twin.deck[3]
    theirs.blind = [twin.deck[3]]
    twin.deck[3] = blind
    twin.piles[0][0], twin.box[0] = twin.box[0], twin.piles[0][0]
    twin.rng = SeededRandom(seed=12345)
    assert GAME.view(twin, 0) == GAME.view(state, 0)
    assert GAME.dump(twin) != GAME.dump(state)
    assert not GAME.invariants(twin)
    return twin


def test_a_twin_made_by_hand_redraws_alike() -> None:
    state = _with_blind_cards()
    twin = _twin(state)
    for seed in (0, 7, 2**61):
        assert GAME.dump(GAME.redraw(state, 0, seed)) == GAME.dump(GAME.redraw(twin, 0, seed))


def test_a_scripted_random_source_is_replaced_by_a_seeded_one() -> None:
    state = _with_blind_cards()
    scripted = GAME.copy(state)
    scripted.rng = ScriptedRandom(values=[6, 6, 6])
    redrawn = GAME.redraw(scripted, 0, 7)
    assert isinstance(redrawn.rng, SeededRandom)
    assert GAME.dump(redrawn) == GAME.dump(GAME.redraw(state, 0, 7))


def test_the_seats_own_blind_card_is_kept_and_the_others_are_redealt() -> None:
    state = _with_blind_cards()
    mine = list(state.players[0].blind)
    theirs = list(state.players[1].blind)
    moved = 0
    for seed in range(20):
        redrawn = GAME.redraw(state, 0, seed)
        assert redrawn.players[0].blind == mine
        assert redrawn.players[0].cards == state.players[0].cards
        moved += redrawn.players[1].blind != theirs
        assert not GAME.invariants(redrawn)
    assert moved > 0  # the other seat's blind card is one of the unseen ones


def test_a_change_to_the_seats_own_blind_card_is_not_smoothed_over() -> None:
    state = _with_blind_cards()
    changed = GAME.copy(state)
    (blind,) = changed.players[0].blind
    changed.players[0].cards[-1] = changed.deck[0]
    changed.players[0].blind = [changed.deck[0]]
    changed.deck[0] = blind
    # The seat sees its own card: it can tell these apart, and so can its redraws.
    assert GAME.view(changed, 0) != GAME.view(state, 0)
    assert GAME.dump(GAME.redraw(changed, 0, 7)) != GAME.dump(GAME.redraw(state, 0, 7))


def _unseen_buildings(state: StoneAgeState) -> list[str]:
    return [b for pile in state.piles for b in pile[:-1]] + state.box


def test_the_deck_and_the_buildings_are_shuffled_into_the_same_shapes() -> None:
    state = _with_blind_cards()
    before = GAME.dump(state)
    redrawn = GAME.redraw(state, 0, 7)
    assert GAME.dump(state) == before  # the input is left alone
    assert sorted(redrawn.deck + redrawn.players[1].blind) == sorted(
        state.deck + state.players[1].blind)
    assert len(redrawn.deck) == len(state.deck) and redrawn.deck != state.deck
    assert [p[-1] for p in redrawn.piles] == [p[-1] for p in state.piles]
    assert [len(p) for p in redrawn.piles] == [len(p) for p in state.piles]
    assert len(redrawn.box) == len(state.box)
    assert sorted(_unseen_buildings(redrawn)) == sorted(_unseen_buildings(state))
    assert _unseen_buildings(redrawn) != _unseen_buildings(state)


def test_once_the_game_is_over_every_hand_is_known() -> None:
    state = _with_blind_cards()
    state.phase = "over"
    theirs = list(state.players[1].blind)
    for seed in range(10):
        assert GAME.redraw(state, 0, seed).players[1].blind == theirs
