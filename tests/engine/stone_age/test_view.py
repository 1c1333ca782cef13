"""What a player, or an onlooker, may see.

Hidden: the deck's order, the buildings under each face-up tile, the buildings left in
the box, the random source, and a civilization card another player drew blind from the
deck with the "extra card" card (only how many shows). A card bought from the face-up
row was seen by the whole table, so it shows in every view with its scoring bottom;
so do the face-up row, the top building of each pile and every player's buildings.
Once the game is over every player's cards are shown.

The checks read the view as JSON (``seen``): what a page or a log receives is what
must hide the secrets, and its shape is what the typed view must keep.
"""

from __future__ import annotations

import json
import random
import re
from typing import Any

from pydantic import TypeAdapter

from engine.stone_age.components import components
from engine.stone_age.game import GAME
from engine.stone_age.state import StoneAgeState
from engine.stone_age.view import building_info, card_info
from engine.stone_age.view_model import BuildingView, CardView, StoneAgeView
from tests.engine.stone_age.helpers import play, scripted, start_actions

SEED = 914263
# Seat 1's places: two rolls, whose order seat 1 chooses, so the game waits there and the
# action phase is still on when seat 0 is done.
WAITING = {"forest": 1, "clay": 1}
ID = re.compile(r"^[cb]\d\d$")
SECRET_KEYS = {"rng", "seed", "pos", "deck", "box", "stacks", "values"}


def seen(state: StoneAgeState, seat: int | None) -> dict[str, Any]:
    """The view of ``seat`` as the JSON that leaves the engine."""
    view = GAME.view(state, seat)
    assert isinstance(view, StoneAgeView)
    data: dict[str, Any] = view.model_dump(mode="json")
    return data


def text_of(state: StoneAgeState, seat: int | None) -> str:
    return json.dumps(seen(state, seat), sort_keys=True)


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


def visible_cards(state: StoneAgeState, seat: int | None) -> dict[int, list[str]]:
    """Each player's cards that ``seat`` may see, in the order they were got."""
    over = state.phase == "over"
    return {
        s: [c for c in p.cards if over or s == seat or c not in p.blind]
        for s, p in enumerate(state.players)
    }


def strings_in(data: Any) -> set[str]:
    if isinstance(data, dict):
        return set().union(*(strings_in(v) for v in data.values()))
    if isinstance(data, list):
        return set().union(*(strings_in(v) for v in data))
    return {data} if isinstance(data, str) else set()


def contains_value(data: Any, wanted: Any) -> bool:
    """Is ``wanted`` equal to ``data`` or to any value nested in it?"""
    if data == wanted:
        return True
    if isinstance(data, dict):
        return any(contains_value(v, wanted) for v in data.values())
    if isinstance(data, list):
        return any(contains_value(v, wanted) for v in data)
    return False


def check_secrets(state: StoneAgeState, seat: int | None, view: dict[str, Any]) -> None:
    """No value ``secrets`` names appears in the view, whole or as a card/building id."""
    text = json.dumps(view, sort_keys=True)
    for secret in GAME.secrets(state, seat):
        assert not contains_value(view, secret), f"{secret!r} is in the view of {seat}"
        for item in strings_in(secret if not isinstance(secret, str) else [secret]):
            if ID.match(item):
                assert f'"{item}"' not in text, f"{item} leaks into the view of {seat}"


def check_view(state: StoneAgeState, seat: int | None) -> dict[str, Any]:
    """The view of ``seat`` shows exactly what it may and nothing hidden."""
    view = seen(state, seat)
    text = json.dumps(view, sort_keys=True)
    visible = visible_cards(state, seat)
    expected = public_ids(state).union(*visible.values())
    assert ids_in(view) == expected
    hidden = set(state.deck) | {b for pile in state.piles for b in pile[:-1]} | set(state.box)
    for player in state.players:
        hidden |= set(player.cards)
    hidden -= expected
    for secret in hidden:
        assert secret not in text, f"{secret} leaks into the view of {seat}"
    assert not keys_in(view) & SECRET_KEYS
    assert view["deck_size"] == len(state.deck)
    assert view["you"] == seat
    for s, (player, shown) in enumerate(zip(state.players, view["players"], strict=True)):
        assert shown["seat"] == s
        assert shown["card_count"] == len(player.cards)
        assert [c["id"] for c in shown["cards"]] == visible[s]
        assert shown["hidden_cards"] == len(player.cards) - len(visible[s])
    check_secrets(state, seat, view)
    return view


def dealt_game() -> StoneAgeState:
    """A two-player game (14 buildings in the box) where both players hold cards: seat 0
    bought two cards in the open and drew a third blind; seat 1 bought one."""
    state = GAME.new(2, seed=SEED)
    p0, p1 = state.players
    p0.cards = [state.deck.pop(), state.deck.pop(), state.deck.pop()]
    p0.blind = [p0.cards[2]]
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


def test_open_cards_show_to_all_and_a_blind_card_only_to_its_taker() -> None:
    state = dealt_game()
    p0, p1 = state.players
    open0, blind0 = p0.cards[:2], p0.cards[2]
    view0 = check_view(state, 0)
    assert [c["id"] for c in view0["players"][0]["cards"]] == p0.cards
    assert view0["players"][0]["hidden_cards"] == 0
    assert [c["id"] for c in view0["players"][1]["cards"]] == p1.cards
    view1 = check_view(state, 1)
    assert [c["id"] for c in view1["players"][0]["cards"]] == open0
    assert view1["players"][0]["card_count"] == 3
    assert view1["players"][0]["hidden_cards"] == 1
    assert blind0 not in text_of(state, 1)
    # Buildings are public: seat 1's building shows in everyone's view.
    assert view0["players"][1]["buildings"][0]["id"] == p1.buildings[0]


def test_an_onlooker_sees_open_cards_only() -> None:
    state = dealt_game()
    view = check_view(state, None)
    assert [p["card_count"] for p in view["players"]] == [3, 1]
    assert [p["hidden_cards"] for p in view["players"]] == [1, 0]
    assert state.players[0].cards[2] not in text_of(state, None)


def test_a_bought_card_shows_its_scoring_bottom_to_the_other_players() -> None:
    # Seat 0 buys card 1 (c20: stone, 1 farmer) and card 2 (c15: 3 points, music), in
    # that order by themselves (the stone of card 1 could help pay for card 2).
    state = scripted(2, row=["c20", "c15", "c16", "c01"], deck=["c21", "c09", "c06"])
    state.players[0].goods["wood"] = 3
    start_actions(state, {0: {"card1": 1, "card2": 1, "field": 1}, 1: WAITING})
    assert state.phase == "actions"
    play(state, 0, "pay:1.0.0.0", "pay:2.0.0.0")
    assert state.players[0].cards == ["c20", "c15"]
    assert state.players[0].blind == []
    for seat in (1, None):
        shown = check_view(state, seat)["players"][0]
        assert shown["cards"] == [
            {"id": "c20", "top": "resource", "amount": 1, "resource": "stone",
             "multiplier": "farmer", "figures": 1},
            {"id": "c15", "top": "points", "amount": 3, "culture": "music"},
        ]
        assert shown["hidden_cards"] == 0
    check_view(state, 0)


def test_a_card_drawn_blind_stays_hidden_from_the_others() -> None:
    # c09 "extra card": the drawn card (the deck's next, c21) joins the buyer's hand.
    state = scripted(2, row=["c09", "c15", "c16", "c01"], deck=["c20", "c21"])
    state.players[0].goods["wood"] = 1
    start_actions(state, {0: {"card1": 1, "field": 1}, 1: WAITING})
    events = play(state, 0, "pay:1.0.0.0")
    assert "c21" not in json.dumps([e.args for e in events])  # the log does not name it
    assert state.phase == "actions"
    assert state.players[0].cards == ["c09", "c21"]
    assert state.players[0].blind == ["c21"]
    assert "c21" in text_of(state, 0)
    assert "c21" not in text_of(state, 1)
    assert "c21" not in text_of(state, None)
    assert "c20" not in text_of(state, 0)  # still in the deck
    shown = seen(state, 1)["players"][0]
    assert [c["id"] for c in shown["cards"]] == ["c09"]  # bought in the open
    assert (shown["card_count"], shown["hidden_cards"]) == (2, 1)
    check_view(state, 0)
    check_view(state, 1)
    check_view(state, None)


def test_an_extra_card_with_an_empty_deck_draws_nothing_blind() -> None:
    state = scripted(2, row=["c09", "c15", "c16", "c01"], deck=[])
    state.players[0].goods["wood"] = 1
    start_actions(state, {0: {"card1": 1, "field": 1}, 1: WAITING})
    events = play(state, 0, "pay:1.0.0.0")
    assert "extra_card_none" in [e.code for e in events]
    assert state.players[0].blind == []
    assert seen(state, 1)["players"][0]["hidden_cards"] == 0


def test_secrets_name_what_each_seat_must_not_see() -> None:
    state = dealt_game()
    blind = state.players[0].cards[2]
    for seat in (1, None):
        secrets = GAME.secrets(state, seat)
        assert blind in secrets
        assert state.deck in secrets and state.box in secrets
        assert state.rng.model_dump() in secrets
        assert [pile[:-1] for pile in state.piles] == [
            s for s in secrets if isinstance(s, list) and s and s[0].startswith("b")
            and s != state.box
        ]
    own = GAME.secrets(state, 0)
    assert blind not in own
    assert not set(state.players[1].cards) & set(strings_in(own))  # open cards are public
    for seat in (0, 1, None):
        check_view(state, seat)


def test_secrets_leave_out_empty_piles_and_revealed_hands() -> None:
    state = dealt_game()
    state.deck = []
    state.phase = "over"
    secrets = GAME.secrets(state, None)
    assert [] not in secrets
    assert state.players[0].cards[2] not in secrets  # the hands are shown at the end
    check_view(state, None)


def test_a_card_in_the_row_and_in_a_hand_is_not_confused() -> None:
    # Ids are unique, so a held card is never in the row; the check is that a hand
    # shows for everyone even when the row changes.
    state = scripted(2, row=["c06", "c15", "c16", "c01"], deck=["c20", "c21", "c09"])
    state.players[0].goods["wood"] = 2
    start_actions(state, {0: {"card2": 1, "field": 1}, 1: WAITING})
    assert state.phase == "actions"
    play(state, 0, "pay:2.0.0.0")
    assert state.players[0].cards == ["c15"]
    assert ids_in(seen(state, 1)) >= {"c15"}
    check_view(state, 0)
    check_view(state, 1)


def test_every_card_shows_once_the_game_is_over() -> None:
    state = scripted(2, row=["c06", "c15", "c16", "c01"], deck=[])
    state.players[0].goods["wood"] = 1
    state.players[1].cards = ["c09", "c30"]
    state.players[1].blind = ["c30"]
    start_actions(state, {0: {"card1": 1}, 1: {"field": 1}})
    assert "c30" not in text_of(state, 0)
    play(state, 0, "pay:1.0.0.0")
    assert state.phase == "over"
    for seat in (0, 1, None):
        view = check_view(state, seat)
        assert [c["id"] for c in view["players"][0]["cards"]] == ["c06"]
        assert [c["id"] for c in view["players"][1]["cards"]] == ["c09", "c30"]
        assert view["players"][1]["hidden_cards"] == 0
        assert view["phase"] == "over"
        assert view["end_reason"] == "cards_exhausted"


def test_old_states_without_blind_cards_still_load() -> None:
    """A state stored before blind draws were recorded: the card right after an "extra
    card" card is the one it drew, so it is kept hidden; other hands are open."""
    state = dealt_game()
    state.players[0].cards = ["c15", "c09", "c21", "c01"]
    state.players[1].cards = ["c30"]
    data = json.loads(GAME.dump(state))
    for player in data["players"]:
        del player["blind"]
    old = GAME.load(json.dumps(data))
    assert old.players[0].blind == ["c21"]
    assert old.players[1].blind == []
    assert seen(old, 1)["players"][0]["hidden_cards"] == 1
    # A state stored now keeps its own record, even an empty one.
    state.players[0].blind = []
    assert GAME.load(GAME.dump(state)).players[0].blind == []


def test_a_blind_card_not_held_breaks_an_invariant() -> None:
    state = dealt_game()
    state.players[1].blind = ["c33"]
    assert any("blind" in p for p in GAME.invariants(state))


def test_views_stay_honest_through_a_whole_seeded_game() -> None:
    """Random legal play from a seed: every view at every step hides what it must."""
    blind_seen = False
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
                blind_seen |= any(p.blind for p in state.players)
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
    assert blind_seen, "no card was drawn blind: the games test too little"


def test_a_view_reads_back_from_its_json_as_an_equal_model() -> None:
    """Every seat's view, and an onlooker's, at the start, mid-game with a card drawn
    blind and at the end: its JSON text reads back to an equal ``StoneAgeView`` whose
    JSON is the same again (by_seat's seat numbers come back as numbers)."""
    states = [GAME.new(4, seed=SEED), dealt_game()]
    state = GAME.new(3, seed=SEED + 2)
    choose = random.Random(SEED)
    while (prompts := GAME.pending(state)) and state.phase != "over":
        prompt = choose.choice(prompts)
        real = [o for o in prompt.options if not o.back] or list(prompt.options)
        GAME.apply(state, prompt.seat, choose.choice(real).key)
        if state.actions in (10, 40):
            states.append(state.model_copy(deep=True))
    states.append(state)
    assert states[-1].phase == "over"
    assert any(any(p.placed for p in s.players) for s in states)
    for state in states:
        for seat in [*range(state.n), None]:
            view = GAME.view(state, seat)
            text = view.model_dump_json()
            again = StoneAgeView.model_validate_json(text)
            assert again == view
            assert again.model_dump(mode="json") == json.loads(text) == seen(state, seat)
            for site in again.sites.values():
                assert all(isinstance(s, int) for s in site.by_seat)


def test_every_card_and_building_description_reads_back_from_json() -> None:
    """Each card shows only what it has and each building only its form's keys, and
    both read back from JSON unchanged."""
    for card_id in components().cards:
        card = card_info(card_id)
        data = card.model_dump(mode="json")
        assert None not in data.values()
        assert ("culture" in data) != ("multiplier" in data and "figures" in data)
        assert CardView.model_validate_json(card.model_dump_json()) == card
    form_keys = {"fixed": {"cost", "points"}, "kinds": {"count", "kinds"},
                 "any": {"count_min", "count_max"}}
    buildings: TypeAdapter[BuildingView] = TypeAdapter(BuildingView)
    for building_id in components().buildings:
        building = building_info(building_id)
        data = building.model_dump(mode="json")
        assert set(data) == {"id", "form"} | form_keys[data["form"]]
        assert buildings.validate_json(buildings.dump_json(building)) == building
