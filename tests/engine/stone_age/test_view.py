"""What a player, or an onlooker, may see.

Hidden: the deck's order, the buildings under each face-up tile, the buildings left in
the box, the random source, and other players' civilization cards (only their number
shows). Face-up cards in the row, the top building of each pile and every player's
buildings are public. Once the game is over every player's cards are shown.
"""

from __future__ import annotations

import json
import random
import re
from typing import Any

from engine.stone_age.game import GAME
from engine.stone_age.state import StoneAgeState
from tests.engine.stone_age.helpers import play, scripted, start_actions

SEED = 914263
ID = re.compile(r"^[cb]\d\d$")
SECRET_KEYS = {"rng", "seed", "pos", "deck", "box", "stacks", "values"}


def text_of(state: StoneAgeState, seat: int | None) -> str:
    return json.dumps(GAME.view(state, seat), sort_keys=True)


def ids_in(data: Any) -> set[str]:
    """Every card or building id appearing as a string anywhere in ``data``."""
    if isinstance(data, dict):
        return set().union(*(ids_in(k) | ids_in(v) for k, v in data.items()))
    if isinstance(data, list):
        return set().union(*(ids_in(v) for v in data))
    if isinstance(data, str) and ID.match(data):
        return {data}
    return set()


def keys_in(data: Any) -> set[str]:
    if isinstance(data, dict):
        return set(data).union(*(keys_in(v) for v in data.values()))
    if isinstance(data, list):
        return set().union(*(keys_in(v) for v in data))
    return set()


def public_ids(state: StoneAgeState) -> set[str]:
    """What anybody may see: the row, each pile's top, every player's buildings."""
    out = {c for c in state.row if c is not None}
    out |= {pile[-1] for pile in state.piles if pile}
    for player in state.players:
        out |= set(player.buildings)
    return out


def check_view(state: StoneAgeState, seat: int | None) -> dict[str, Any]:
    """The view of ``seat`` shows exactly what it may and nothing hidden."""
    view = GAME.view(state, seat)
    text = json.dumps(view, sort_keys=True)
    over = state.phase == "over"
    shown_cards = {
        s: p.cards for s, p in enumerate(state.players) if over or s == seat
    }
    expected = public_ids(state).union(*shown_cards.values())
    assert ids_in(view) == expected
    hidden = set(state.deck) | {b for pile in state.piles for b in pile[:-1]} | set(state.box)
    for s, player in enumerate(state.players):
        if s not in shown_cards:
            hidden |= set(player.cards)
    hidden -= expected  # an id visible elsewhere (e.g. a row card) may show
    for secret in hidden:
        assert secret not in text, f"{secret} leaks into the view of {seat}"
    assert not keys_in(view) & SECRET_KEYS
    assert view["deck_size"] == len(state.deck)
    assert view["you"] == seat
    for s, (player, shown) in enumerate(zip(state.players, view["players"], strict=True)):
        assert shown["seat"] == s
        assert shown["card_count"] == len(player.cards)
        if s in shown_cards:
            assert [c["id"] for c in shown["cards"]] == player.cards
        else:
            assert "cards" not in shown
    return view


def dealt_game() -> StoneAgeState:
    """A two-player game (14 buildings in the box) where both players hold cards."""
    state = GAME.new(2, seed=SEED)
    p0, p1 = state.players
    p0.cards = [state.deck.pop(), state.deck.pop()]
    p1.cards = [state.deck.pop()]
    p1.buildings = [state.piles[0].pop()]
    return state


def test_a_fresh_game_shows_only_the_row_and_the_pile_tops() -> None:
    state = GAME.new(4, seed=SEED)
    assert len(state.deck) == 32 and all(len(p) == 7 for p in state.piles)
    for seat in (0, 1, 2, 3, None):
        view = check_view(state, seat)
        assert [r["card"]["id"] for r in view["row"]] == state.row
        assert [p["top"]["id"] for p in view["piles"]] == [p[-1] for p in state.piles]
        assert [p["size"] for p in view["piles"]] == [7, 7, 7, 7]
        assert view["deck_size"] == 32
    text = text_of(state, 0)
    for card in state.deck:
        assert card not in text
    for pile in state.piles:
        for building in pile[:-1]:
            assert building not in text


def test_the_box_and_the_random_source_are_hidden() -> None:
    state = GAME.new(2, seed=SEED)
    assert len(state.box) == 14
    for seat in (0, 1, None):
        text = text_of(state, seat)
        check_view(state, seat)
        for building in state.box:
            assert building not in text
        assert str(SEED) not in text
        assert "seed" not in text and "rng" not in text


def test_own_cards_show_and_others_only_count() -> None:
    state = dealt_game()
    p0, p1 = state.players
    view0 = check_view(state, 0)
    assert [c["id"] for c in view0["players"][0]["cards"]] == p0.cards
    assert view0["players"][1]["card_count"] == 1
    assert "cards" not in view0["players"][1]
    text0 = text_of(state, 0)
    assert p1.cards[0] not in text0
    assert all(c in text0 for c in p0.cards)
    view1 = check_view(state, 1)
    assert view1["players"][0]["card_count"] == 2
    text1 = text_of(state, 1)
    assert not any(c in text1 for c in p0.cards)
    assert p1.cards[0] in text1
    # Buildings are public: seat 1's building shows in everyone's view.
    assert view0["players"][1]["buildings"][0]["id"] == p1.buildings[0]


def test_an_onlooker_sees_no_ones_cards() -> None:
    state = dealt_game()
    view = check_view(state, None)
    assert [p["card_count"] for p in view["players"]] == [2, 1]
    text = text_of(state, None)
    for player in state.players:
        for card in player.cards:
            assert card not in text


def test_a_card_in_the_row_and_in_a_hand_is_not_confused() -> None:
    # Ids are unique, so a held card is never in the row; the check is that a hand
    # shows for its owner even when the row changes.
    state = scripted(2, row=["c06", "c15", "c16", "c01"], deck=["c20", "c21", "c09"])
    state.players[0].goods["wood"] = 2
    start_actions(state, {0: {"card2": 1, "field": 1}, 1: {"toolmaker": 1, "hut": 2}})
    assert state.phase == "actions"
    play(state, 0, "do:card2", "pay:2.0.0.0")
    assert state.players[0].cards == ["c15"]
    assert ids_in(GAME.view(state, 0)) >= {"c15"}
    assert "c15" not in text_of(state, 1)
    check_view(state, 0)
    check_view(state, 1)


def test_a_card_drawn_face_down_stays_hidden() -> None:
    # c09 "extra card": the drawn card (the deck's next, c21) joins the buyer's hand.
    state = scripted(2, row=["c09", "c15", "c16", "c01"], deck=["c20", "c21"])
    state.players[0].goods["wood"] = 1
    start_actions(state, {0: {"card1": 1, "field": 1}, 1: {"toolmaker": 1, "hut": 2}})
    play(state, 0, "do:card1", "pay:1.0.0.0")
    assert state.phase == "actions"
    assert state.players[0].cards == ["c09", "c21"]
    assert "c21" in text_of(state, 0)
    assert "c21" not in text_of(state, 1)
    assert "c21" not in text_of(state, None)
    assert "c20" not in text_of(state, 0)  # still in the deck
    assert GAME.view(state, 1)["players"][0]["card_count"] == 2
    check_view(state, 0)
    check_view(state, 1)


def test_every_card_shows_once_the_game_is_over() -> None:
    state = scripted(2, row=["c06", "c15", "c16", "c01"], deck=[])
    state.players[0].goods["wood"] = 1
    state.players[1].cards = ["c30"]
    start_actions(state, {0: {"card1": 1}, 1: {"field": 1}})
    assert "c30" not in text_of(state, 0)
    play(state, 0, "pay:1.0.0.0")
    assert state.phase == "over"
    for seat in (0, 1, None):
        view = check_view(state, seat)
        assert [c["id"] for c in view["players"][0]["cards"]] == ["c06"]
        assert [c["id"] for c in view["players"][1]["cards"]] == ["c30"]
        assert view["phase"] == "over"
        assert view["end_reason"] == "cards_exhausted"


def test_views_stay_honest_through_a_whole_seeded_game() -> None:
    """Random legal play from a seed: every view at every step hides what it must."""
    for players, seed in ((2, SEED), (4, SEED + 1)):
        state = GAME.new(players, seed=seed)
        choose = random.Random(seed)
        held = 0
        for step in range(3000):
            if state.phase == "over":
                break
            now = sum(len(p.cards) for p in state.players)
            # Every few steps, and whenever a card changed hands.
            if step % 6 == 0 or now != held:
                for seat in [*range(players), None]:
                    check_view(state, seat)
            held = now
            prompts = GAME.pending(state)
            prompt = choose.choice(prompts)
            real = [o for o in prompt.options if not o.back] or list(prompt.options)
            GAME.apply(state, prompt.seat, choose.choice(real).key)
        assert state.phase == "over", "the random game did not finish"
        assert held > 0
        for seat in [*range(players), None]:
            view = check_view(state, seat)
            for s, player in enumerate(state.players):
                assert [c["id"] for c in view["players"][s]["cards"]] == player.cards
