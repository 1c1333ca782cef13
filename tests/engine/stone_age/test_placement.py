"""Phase 1, placing people: every placement rule, its refusals and the turn order.

Rulebook sections "placing people" and "changes with two or three players". A refused
placement must raise ``IllegalMove`` with the rule's reason code and leave the state
exactly as it was (compared through ``GAME.dump``).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import pytest

from engine.core.errors import IllegalMove
from engine.core.prompts import Prompt
from engine.stone_age.flow import advance
from engine.stone_age.game import GAME
from engine.stone_age.listing import forget
from engine.stone_age.placement import (
    all_locations,
    first_places,
    legal_counts,
    lone_placement,
    open_places,
    placements,
)
from engine.stone_age.state import CountStep, StoneAgeState
from tests.engine.events import assert_turns
from tests.engine.patching import patch_source
from tests.engine.stone_age.helpers import codes, play, refused, scripted
from tests.engine.stone_age.reach import offered, outcomes

ROW = ["c06", "c15", "c16", "c01"]
PILES = [["b02", "b01"], ["b04", "b03"], ["b06", "b05"], ["b08", "b07"]]


def keys(state: StoneAgeState) -> list[str]:
    """The option keys of the single open prompt."""
    (prompt,) = GAME.pending(state)
    return prompt.keys()


def counts_at(state: StoneAgeState, loc: str) -> list[int] | None:
    """The numbers of people the placement prompt offers for ``loc`` (None if none): a
    place that takes a set number is one option, a gathering site one per number."""
    (prompt,) = GAME.pending(state)
    numbers = []
    for option in prompt.options:
        if option.key == f"at:{loc}":
            return list(option.label.args["counts"])
        if option.key.startswith(f"place:{loc}:"):
            assert option.key == f"place:{loc}:{option.label.args['count']}"
            numbers.append(option.label.args["count"])
    return numbers or None


def game(players: int = 4, dice: list[int] | None = None) -> StoneAgeState:
    return scripted(
        players, dice=dice, row=list(ROW), piles=[list(p) for p in PILES[:players]]
    )


# --- refusals ----------------------------------------------------------------------


@pytest.mark.parametrize("key", ["at:forest", "place:forest:1", "place:forest:2"])
def test_placing_where_you_already_are_is_refused(key: str) -> None:
    state = game()
    play(state, 0, "place:forest:2")
    play(state, 1, "place:hunt:1")
    play(state, 2, "place:hunt:1")
    play(state, 3, "place:hunt:1")
    assert state.turn == 0
    assert refused(state, 0, key) == "already_there"
    assert counts_at(state, "forest") is None


@pytest.mark.parametrize("key", ["at:hunt", "place:hunt:1", "place:hunt:3"])
def test_hunting_twice_in_a_round_is_refused(key: str) -> None:
    state = game()
    play(state, 0, "place:hunt:1")
    for seat in (1, 2, 3):
        play(state, seat, "place:forest:1")
    assert state.turn == 0
    assert state.players[0].unplaced == 4
    assert refused(state, 0, key) == "already_there"
    assert counts_at(state, "hunt") is None


@pytest.mark.parametrize(
    ("loc", "first_key"),
    [
        ("toolmaker", "place:toolmaker:1"),
        ("field", "place:field:1"),
        ("hut", "place:hut:2"),
        ("card1", "place:card1:1"),
        ("card4", "place:card4:1"),
        ("bld1", "place:bld1:1"),
        ("bld3", "place:bld3:1"),
    ],
)
def test_an_occupied_single_location_is_full(loc: str, first_key: str) -> None:
    state = game()
    play(state, 0, first_key)
    assert state.turn == 1
    assert counts_at(state, loc) is None
    assert refused(state, 1, f"at:{loc}") == "location_full"
    count = 2 if loc == "hut" else 1
    assert refused(state, 1, f"place:{loc}:{count}") == "location_full"


def test_a_site_with_seven_workers_is_full() -> None:
    state = game()
    play(state, 0, "place:forest:5")
    play(state, 1, "place:forest:2")
    assert state.players[0].placed["forest"] + state.players[1].placed["forest"] == 7
    assert counts_at(state, "forest") is None
    assert refused(state, 2, "at:forest") == "location_full"
    assert refused(state, 2, "place:forest:1") == "location_full"
    # The other sites are untouched by the forest filling up.
    assert counts_at(state, "clay") == [1, 2, 3, 4, 5]


# More workers than you have are refused (keys refused at the start of a game).
TOO_MANY = [
    ("place:forest:6", "not_enough_people"),
    ("place:hunt:6", "not_enough_people"),
    ("place:river:9", "not_enough_people"),
]


def test_more_workers_than_free_spaces_are_refused() -> None:
    state = game()
    play(state, 0, "place:clay:5")
    assert counts_at(state, "clay") == [1, 2]
    assert refused(state, 1, "place:clay:3") == "not_enough_room"
    assert refused(state, 1, "place:clay:5") == "not_enough_room"
    # The same through the two-step choice.
    play(state, 1, "at:clay")
    assert keys(state) == ["n:1", "n:2", "back"]
    assert refused(state, 1, "n:3") == "not_enough_room"
    assert refused(state, 1, "n:6") == "not_enough_people"
    assert refused(state, 1, "n:0") == "bad_count"
    play(state, 1, "n:2")
    assert state.players[1].placed == {"clay": 2}


def test_the_hut_needs_two_workers_left() -> None:
    state = game()
    play(state, 0, "place:hunt:4")
    for seat in (1, 2, 3):
        play(state, seat, "place:hunt:5")
    assert state.turn == 0 and state.players[0].unplaced == 1
    assert counts_at(state, "hut") is None
    assert counts_at(state, "toolmaker") == [1]
    assert refused(state, 0, "at:hut") == "hut_needs_two"
    assert refused(state, 0, "place:hut:2") == "hut_needs_two"


@pytest.mark.parametrize("players", [2, 3])
@pytest.mark.parametrize("third", ["toolmaker", "hut", "field"])
def test_only_two_village_places_with_two_or_three_players(players: int, third: str) -> None:
    state = game(players)
    first, second = (v for v in ("toolmaker", "hut", "field") if v != third)
    play(state, 0, f"at:{first}")
    play(state, 1, f"at:{second}")
    seat = state.turn
    assert counts_at(state, third) is None
    assert refused(state, seat, f"at:{third}") == "village_limit"
    count = 2 if third == "hut" else 1
    assert refused(state, seat, f"place:{third}:{count}") == "village_limit"


def test_four_players_may_take_all_three_village_places() -> None:
    state = game(4)
    play(state, 0, "at:toolmaker")
    play(state, 1, "at:hut")
    assert counts_at(state, "field") == [1]
    play(state, 2, "at:field")
    assert state.players[0].placed == {"toolmaker": 1}
    assert state.players[1].placed == {"hut": 2}
    assert state.players[2].placed == {"field": 1}


@pytest.mark.parametrize("site", ["forest", "clay", "quarry", "river"])
@pytest.mark.parametrize("players", [2, 3])
def test_with_two_or_three_players_a_site_takes_one_player_fewer(players: int,
                                                                 site: str) -> None:
    """Three players: at most two per site; two players: one per site."""
    state = game(players)
    last = players - 1
    for seat in range(last):
        play(state, seat, f"place:{site}:1")
    assert counts_at(state, site) is None
    assert refused(state, last, f"at:{site}") == "site_players_limit"
    assert refused(state, last, f"place:{site}:1") == "site_players_limit"
    # Hunting is not a limited site.
    for seat in (last, *range(last)):
        play(state, seat, "place:hunt:1")


def test_four_players_may_all_share_a_site() -> None:
    state = game(4)
    play(state, 0, "place:forest:1")
    play(state, 1, "place:forest:1")
    play(state, 2, "place:forest:1")
    assert counts_at(state, "forest") == [1, 2, 3, 4]
    play(state, 3, "place:forest:4")
    assert sum(p.placed.get("forest", 0) for p in state.players) == 7


BAD_COUNTS = [  # bad counts are refused
    "place:hut:1",
    "place:hut:3",
    "place:toolmaker:2",
    "place:field:2",
    "place:card1:2",
    "place:bld2:3",
    "place:forest:0",
    "place:hunt:0",
    "place:field:0",
    "place:forest:x",
    "place:forest:",
    "place:forest:-1",
    "place:forest:1.5",
]



UNKNOWN_LOCATIONS = [  # unknown locations are refused
    "at:volcano",
    "at:card0",
    "at:card5",
    "at:bld0",
    "at:bld5",
    "at:card",
    "at:bld",
    "at:Forest",
    "at:",
    "place:volcano:1",
    "place::1",
    "place:card5:1",
]



def test_building_piles_follow_the_player_count() -> None:
    state = game(2)
    assert [loc for loc in all_locations(state) if loc.startswith("bld")] == ["bld1", "bld2"]
    assert refused(state, 0, "at:bld3") == "unknown_location"


def test_an_empty_building_pile_takes_nobody() -> None:
    state = scripted(4, row=list(ROW), piles=[["b01"], [], ["b03"], ["b04"]])
    assert counts_at(state, "bld2") is None
    assert counts_at(state, "bld1") == [1]
    assert refused(state, 0, "at:bld2") == "no_building"
    assert refused(state, 0, "place:bld2:1") == "no_building"


def test_an_empty_card_slot_takes_nobody() -> None:
    state = scripted(4, row=["c06", None, "c16", "c01"], piles=[list(p) for p in PILES])
    assert counts_at(state, "card2") is None
    assert refused(state, 0, "at:card2") == "no_card"
    assert refused(state, 0, "place:card2:1") == "no_card"


# --- the rules that allow --------------------------------------------------------


def test_the_first_prompt_offers_every_location() -> None:
    state = game()
    (prompt,) = GAME.pending(state)
    assert prompt.seat == 0 and prompt.step == 1
    assert prompt.label.code == "sa.prompt.place"
    assert prompt.label.args == {"unplaced": 5}
    # A gathering site offers each number of people it may take, in the same step; the
    # other places take a set number and are one option each.
    sites = [f"place:{loc}:{n}" for loc in ("hunt", "forest", "clay", "quarry", "river")
             for n in range(1, 6)]
    assert prompt.keys() == [*sites, *(f"at:{loc}" for loc in all_locations(state)[5:])]
    assert {o.label.args.get("group") for o in prompt.options} == {
        "hunt", "forest", "clay", "quarry", "river", None}
    assert counts_at(state, "hunt") == [1, 2, 3, 4, 5]
    assert counts_at(state, "forest") == [1, 2, 3, 4, 5]
    assert counts_at(state, "toolmaker") == [1]
    assert counts_at(state, "hut") == [2]
    assert counts_at(state, "field") == [1]
    assert all(counts_at(state, f"card{i}") == [1] for i in range(1, 5))
    assert all(counts_at(state, f"bld{i}") == [1] for i in range(1, 5))


def test_hunting_grounds_are_unlimited() -> None:
    state = game(dice=[1] * 40)
    for p in state.players:
        p.people = 10
    forget(state)  # changed by hand
    for seat in range(3):
        assert counts_at(state, "hunt") == list(range(1, 11))
        play(state, seat, "place:hunt:10")
    assert sum(p.placed.get("hunt", 0) for p in state.players) == 30
    assert counts_at(state, "hunt") == list(range(1, 11))
    events = play(state, 3, "place:hunt:10")
    assert events[0].args == {"loc": "hunt", "count": 10}
    rolls = [e for e in events if e.code == "rolled"]
    assert [(e.seat, len(e.args["dice"])) for e in rolls] == [(s, 10) for s in range(4)]


def test_forest_holds_seven_in_all() -> None:
    state = game()
    play(state, 0, "place:forest:4")
    assert counts_at(state, "forest") == [1, 2, 3]
    play(state, 1, "place:forest:2")
    assert counts_at(state, "forest") == [1]
    # A single possible count places at once.
    play(state, 2, "at:forest")
    assert state.players[2].placed == {"forest": 1}
    assert state.turn == 3
    assert counts_at(state, "forest") is None


def test_village_places_take_their_fixed_number_at_once() -> None:
    state = game()
    events = play(state, 0, "at:hut")
    assert codes(events) == ["placed"]
    assert events[0].args == {"loc": "hut", "count": 2}
    assert state.players[0].placed == {"hut": 2}
    play(state, 1, "at:toolmaker")
    assert state.players[1].placed == {"toolmaker": 1}
    play(state, 2, "at:field")
    assert state.players[2].placed == {"field": 1}
    assert state.turn == 3


def test_one_player_may_use_several_locations_but_each_once() -> None:
    state = game(2)
    plan = [(0, "place:hunt:1"), (1, "place:forest:1"), (0, "place:card1:1"),
            (1, "place:card2:1"), (0, "place:bld1:1"), (1, "place:bld2:1"),
            (0, "place:toolmaker:1"), (1, "place:hunt:2"), (0, "place:clay:1")]
    for seat, key in plan:
        play(state, seat, key)
    assert state.players[0].placed == {
        "hunt": 1, "card1": 1, "bld1": 1, "toolmaker": 1, "clay": 1,
    }
    assert state.players[1].placed == {"forest": 1, "card2": 1, "bld2": 1, "hunt": 2}


def test_each_card_and_each_pile_takes_one_worker_of_anyone() -> None:
    state = game()
    play(state, 0, "at:card2")
    assert counts_at(state, "card2") is None
    play(state, 1, "at:card3")
    play(state, 2, "at:bld4")
    assert counts_at(state, "bld4") is None
    assert counts_at(state, "card1") == [1]
    play(state, 3, "at:bld1")
    assert [p.placed for p in state.players] == [
        {"card2": 1}, {"card3": 1}, {"bld4": 1}, {"bld1": 1},
    ]


def test_a_site_may_be_used_again_next_round() -> None:
    state = scripted(2, dice=[1] * 10, row=list(ROW), piles=[list(p) for p in PILES[:2]])
    play(state, 0, "place:forest:5")
    events = play(state, 1, "place:hunt:5")
    assert "round_started" in codes(events)
    assert state.round == 2 and state.phase == "placement"
    assert state.turn == 1  # the first-player marker passed left
    assert all(p.placed == {} for p in state.players)
    play(state, 1, "place:forest:2")
    assert state.players[1].placed == {"forest": 2}
    assert counts_at(state, "hunt") == [1, 2, 3, 4, 5]
    play(state, 0, "place:hunt:3")
    assert state.players[0].placed == {"hunt": 3}


# --- two-step placement ----------------------------------------------------------


def test_choosing_a_site_asks_how_many() -> None:
    state = game()
    before = GAME.pending(state)
    events = play(state, 0, "at:forest")
    assert events == []
    assert state.players[0].placed == {}
    (prompt,) = GAME.pending(state)
    assert prompt.seat == 0 and prompt.step == 2
    assert prompt.label.code == "sa.prompt.count"
    assert prompt.keys() == ["n:1", "n:2", "n:3", "n:4", "n:5", "back"]
    assert [o.back for o in prompt.options] == [False] * 5 + [True]
    # Nobody else may move meanwhile.
    assert refused(state, 1, "at:hunt") == "not_your_turn"
    # Mid-choice, placement keys are not options.
    assert refused(state, 0, "at:hunt") == "unknown_option"
    assert refused(state, 0, "place:hunt:1") == "unknown_option"
    assert refused(state, 0, "n:x") == "unknown_option"
    # back returns to the same placement prompt, nothing placed, still seat 0's turn.
    play(state, 0, "back")
    assert state.players[0].placed == {}
    assert state.stacks == {}
    assert state.turn == 0
    assert GAME.pending(state) == before
    play(state, 0, "at:forest")
    events = play(state, 0, "n:3")
    assert codes(events) == ["placed"]
    assert state.players[0].placed == {"forest": 3}
    assert state.turn == 1


def test_one_worker_left_places_at_once_on_a_site() -> None:
    state = game(2)
    play(state, 0, "place:hunt:4")
    play(state, 1, "place:hunt:5")
    assert state.turn == 0 and state.players[0].unplaced == 1
    assert counts_at(state, "forest") == [1]
    play(state, 0, "at:forest")
    assert state.players[0].placed == {"hunt": 4, "forest": 1}
    assert state.phase == "actions"


# --- turn order --------------------------------------------------------------------


def test_turn_passes_left_and_skips_players_without_workers() -> None:
    state = game(dice=[1] * 5)
    assert_turns(GAME, state, [
        (0, "place:hunt:5", 1), (1, "place:forest:3", 2), (2, "place:clay:4", 3),
        (3, "place:quarry:1", 1),  # seat 0 has nobody left
    ])
    (prompt,) = GAME.pending(state)
    assert prompt.seat == 1
    assert refused(state, 0, "at:river") == "not_your_turn"
    assert_turns(GAME, state, [
        (1, "place:river:2", 2), (2, "place:river:1", 3),  # seats 0 and 1 are done
    ])
    play(state, 3, "place:hunt:4")
    assert state.phase == "actions"


def test_the_action_phase_starts_when_nobody_can_place() -> None:
    state = game(2)
    state.players[0].goods["wood"] = 1  # enough to be asked to pay for card 1
    play(state, 0, "place:card1:1")
    play(state, 1, "place:card2:1")
    play(state, 0, "place:hunt:4")
    assert state.phase == "placement"
    events = play(state, 1, "place:forest:4")
    assert codes(events)[:2] == ["placed", "actions_started"]
    assert state.phase == "actions"
    assert state.turn == state.first == 0
    # Card 1 (food) and the hunt cannot change each other: the card comes first by
    # itself and asks its payment.
    (prompt,) = GAME.pending(state)
    assert prompt.seat == 0
    assert prompt.label.code == "sa.prompt.pay_card"
    assert prompt.label.args["target"] == "card1"


def _blocked_position() -> StoneAgeState:
    """Seat 1 has one worker left but only the hut is free; seat 0 has three left."""
    state = game(dice=[1] * 60)
    p0, p1, p2, p3 = state.players
    p0.people, p0.placed = 3, {}
    p1.people, p1.placed = 5, {"hunt": 4}
    p2.people, p2.placed = 18, {"forest": 7, "clay": 7, "toolmaker": 1,
                                "bld1": 1, "bld2": 1, "bld3": 1, "bld4": 1}
    p3.people, p3.placed = 19, {"quarry": 7, "river": 7, "field": 1,
                                "card1": 1, "card2": 1, "card3": 1, "card4": 1}
    state.turn = 0
    advance(state, [])
    return state


def test_a_player_who_cannot_place_anywhere_is_skipped() -> None:
    state = _blocked_position()
    assert state.turn == 0
    assert keys(state) == ["place:hunt:1", "place:hunt:2", "place:hunt:3", "at:hut"]
    events = play(state, 0, "place:hut:2")
    # Seat 1 still has a worker but the hut is gone: the turn comes back to seat 0,
    # whose last worker can only go hunting, so it goes without asking.
    assert [(e.code, e.seat, e.args) for e in events][:3] == [
        ("placed", 0, {"loc": "hut", "count": 2}),
        ("placed", 0, {"loc": "hunt", "count": 1}),
        ("actions_started", 0, {}),
    ]
    # A worker nobody could place stays home: seat 1 placed nothing more.
    assert all(e.seat != 1 for e in events if e.code == "placed")


def test_seat_one_is_skipped_even_with_the_hut_free() -> None:
    state = _blocked_position()
    events = play(state, 0, "place:hunt:1")
    # Only the hut is free: seat 1 has one worker, so it is seat 0's turn again, and
    # the hut is the one placement left for its two: they go without asking.
    assert [(e.code, e.seat, e.args) for e in events][:3] == [
        ("placed", 0, {"loc": "hunt", "count": 1}),
        ("placed", 0, {"loc": "hut", "count": 2}),
        ("actions_started", 0, {}),
    ]
    assert all(e.seat != 1 for e in events if e.code == "placed")


# --- no passing, and options that match what apply accepts ------------------------


def _accepts(state: StoneAgeState, seat: int, key: str) -> bool:
    copy = GAME.load(GAME.dump(state))
    try:
        GAME.apply(copy, seat, key)
    except IllegalMove:
        return False
    return True


def _check_placement_prompt(state: StoneAgeState) -> None:
    (prompt,) = GAME.pending(state)
    seat = prompt.seat
    assert state.players[seat].unplaced > 0
    assert len(prompt.options) > 1, "one placement left goes without asking"
    offered: dict[str, list[int]] = {}
    for option in prompt.options:
        assert not option.back
        if option.key.startswith("at:"):  # a place that takes a set number
            offered[option.key[3:]] = list(option.label.args["counts"])
        else:  # a gathering site, one option per number of people
            loc, n = option.label.args["loc"], option.label.args["count"]
            assert option.key == f"place:{loc}:{n}", f"unexpected option {option.key}"
            offered.setdefault(loc, []).append(n)
    for loc in [*all_locations(state), "volcano"]:
        # ``at:<site>`` (then the number in a step of its own) is how games logged
        # before chose: still accepted wherever the site may take people.
        assert _accepts(state, seat, f"at:{loc}") == (loc in offered), loc
        for n in range(0, 7):
            expect = loc in offered and n in offered[loc]
            assert _accepts(state, seat, f"place:{loc}:{n}") == expect, (loc, n)
    for word in ("pass", "skip", "done", "end"):
        assert _accepts(state, seat, word) is False


@pytest.mark.parametrize(
    ("players", "seed"), [(2, 1), (2, 11), (3, 2), (3, 12), (4, 3), (4, 13), (4, 23)]
)
def test_no_passing_and_offers_match_what_is_accepted(players: int, seed: int) -> None:
    state = game(players, dice=[1] * 60)
    choose = random.Random(seed)
    steps = 0
    while state.phase == "placement":
        _check_placement_prompt(state)
        (prompt,) = GAME.pending(state)
        option = choose.choice(prompt.options)
        play(state, prompt.seat, option.key)
        assert not state.stacks  # one step: the number comes with the site
        steps += 1
        assert steps < 50
    assert state.phase != "placement"
    assert steps >= players


# --- one spelling per location and per number ------------------------------------


@pytest.mark.parametrize(("taken", "alias"), [
    ("card1", "card01"), ("bld1", "bld01"), ("card1", "card\u0661"), ("bld2", "bld\u00b2"),
])
def test_an_occupied_slot_cannot_be_reached_under_another_spelling(
    taken: str, alias: str
) -> None:
    """Regression: ``card01`` once named card 1 under another key, so two players could
    stand on one card and the second purchase crashed in take_card."""
    state = game()
    play(state, 0, f"place:{taken}:1")
    assert refused(state, 1, f"place:{alias}:1") == "unknown_location"
    assert refused(state, 1, f"at:{alias}") == "unknown_location"


NOT_CANONICAL = [  # numbers have one canonical spelling
    ("at:card01", "unknown_location"),
    ("at:bld01", "unknown_location"),
    ("at:card+1", "unknown_location"),
    ("at:card 1", "unknown_location"),
    ("at:card\u00b2", "unknown_location"),  # '²'.isdigit() is True, int() refuses it
    ("place:card01:1", "unknown_location"),
    ("place:forest:03", "bad_count"),
    ("place:forest:\u00b2", "bad_count"),
    ("place:forest:\u0663", "bad_count"),  # Arabic-Indic three
    ("place:card1:01", "bad_count"),
]


@pytest.mark.parametrize(("key", "code"), [
    *[(key, "bad_count") for key in BAD_COUNTS],
    *[(key, "unknown_location") for key in UNKNOWN_LOCATIONS],
    *TOO_MANY,
    *NOT_CANONICAL,
])
def test_keys_refused_at_the_start(key: str, code: str) -> None:
    state = game()
    assert refused(state, 0, key) == code


def test_a_count_has_one_canonical_spelling() -> None:
    state = game()
    play(state, 0, "at:forest")
    for key in ("n:02", "n:\u00b2", "n:\u0662", "n: 2"):
        assert refused(state, 0, key) == "unknown_option"
    play(state, 0, "n:2")
    assert state.players[0].placed == {"forest": 2}


# --- the number with the site reaches what two steps reached ---------------------------


def _placing(seed: int) -> StoneAgeState:
    """A random moment of placement with at least two placements to choose from."""
    rnd = random.Random(seed)
    state = GAME.new(rnd.choice([2, 3, 4]), seed)
    for _ in range(rnd.randint(0, 12)):
        if state.phase != "placement":
            break
        (prompt,) = GAME.pending(state)
        GAME.apply(state, prompt.seat, rnd.choice(prompt.options).key)
    if state.phase != "placement":
        return _placing(seed + 1000)
    return state


def _in_two_steps(state: StoneAgeState, prompt: Prompt) -> list[str]:
    """Placement as it was asked at this issue's base: a place, then for a gathering
    site how many people (in a step of its own); read off the rules, not the prompt."""
    if prompt.label.code == "sa.prompt.place":
        return [f"at:{loc}" for loc in all_locations(state)
                if legal_counts(state, prompt.seat, loc)]
    if prompt.label.code == "sa.prompt.count":
        step = state.stacks[prompt.seat][-1]
        assert isinstance(step, CountStep)
        return [f"n:{n}" for n in legal_counts(state, prompt.seat, step.loc)]
    return offered(state, prompt)


def _placed_and_asked(seat: int, before: int) -> Callable[[StoneAgeState], bool]:
    """Done once ``seat`` has placed and somebody has a real choice (or placing is over):
    a placement with no other left is not a choice."""
    def done(state: StoneAgeState) -> bool:
        if state.phase != "placement":
            return True
        if sum(state.players[seat].placed.values()) == before or state.stacks:
            return False  # not placed yet, or choosing how many
        return len(placements(state, state.turn)) > 1
    return done


@contextmanager
def _asking_every_placement() -> Iterator[None]:
    """Within the block a seat with one placement left is asked it, as at the base."""
    with patch_source("engine.stone_age.flow.lone_placement", lambda places: None):
        yield


@pytest.mark.interpreted
@pytest.mark.parametrize("seed", range(40))
def test_the_number_with_the_site_reaches_what_two_steps_reached(seed: int) -> None:
    state = _placing(seed)
    (prompt,) = GAME.pending(state)
    done = _placed_and_asked(prompt.seat, sum(state.players[prompt.seat].placed.values()))
    now = outcomes(state, done)
    assert len(now) == len(prompt.options)  # every option a placement of its own
    with _asking_every_placement():
        assert outcomes(state, done, _in_two_steps) == now


@pytest.mark.interpreted
def test_the_placement_comparison_finds_a_number_left_out() -> None:
    state = game(2)
    done = _placed_and_asked(0, 0)
    with _asking_every_placement():
        before = outcomes(state, done, _in_two_steps)
    with patch_source("engine.stone_age.decisions.open_places",
                    lambda state, seat: [(loc, counts[:-1] or counts)
                                         for loc, counts in open_places(state, seat)]):
        assert outcomes(state, done) < before


# --- how far the engine looks for the next placer's places -----------------------------


@pytest.mark.parametrize("seed", range(30))
def test_first_places_are_the_open_places_up_to_a_choice(seed: int) -> None:
    state = _placing(seed)
    for seat in range(state.n):
        every = open_places(state, seat)
        first = first_places(state, seat)
        if state.players[seat].unplaced <= 0:
            assert first == []
            continue
        assert first == every[:len(first)]
        offered = [sum(len(counts) for _, counts in first[:i]) for i in range(len(first) + 1)]
        # Stops at the place that brings the second placement, or runs out.
        assert first == every or (offered[-1] >= 2 and offered[-2] < 2)


def test_a_seat_with_every_person_out_has_no_first_places() -> None:
    state = game(2)
    state.players[0].placed = {"hunt": state.players[0].people}
    assert first_places(state, 0) == []


@pytest.mark.parametrize(("places", "lone"), [
    ([("hunt", [1])], ("hunt", 1)),
    ([("card2", [1])], ("card2", 1)),
    ([("hunt", [1, 2])], None),
    ([("hunt", [1]), ("card1", [1])], None),
    ([], None),
])
def test_lone_placement(places: list[tuple[str, list[int]]], lone: tuple[str, int] | None) -> None:
    assert lone_placement(places) == lone
