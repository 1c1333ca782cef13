"""The order of a player's actions: asked only where it can matter, and nothing lost.

The rulebook lets a player resolve their places in any order. The engine asks only
among the places whose order can change something and resolves the others by itself
(``engine.stone_age.order``). Over random positions, every outcome a player could
reach by choosing every order (as at this issue's base, ``reach.base_order``) is still
reachable, and nothing else is; the comparison itself fails when a rule lets the engine
take a choice away.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import replace

import pytest

from engine.stone_age.components import GATHERING, VILLAGE, components
from engine.stone_age.flow import advance
from engine.stone_age.game import GAME, setup
from engine.stone_age.order import (
    Touches,
    _decided,
    may_precede,
    next_action,
    touches,
    will_choose,
)
from engine.stone_age.state import StoneAgeState
from tests.engine.patching import patch_source
from tests.engine.stone_age.helpers import codes, play, refused, scripted, start_actions
from tests.engine.stone_age.reach import base_order, outcomes

CARDS = sorted(components().cards)
SEEDS = range(60)
# One card of each kind of top (see components.yaml).
FOOD, POINTS, RESOURCE, DICE_FOR_ALL, RESOURCE_DICE, TOOL, TWO_RESOURCES = (
    "c01", "c15", "c20", "c02", "c35", "c13", "c04")


def random_turn(seed: int) -> StoneAgeState:
    """Seat 0 about to act on two to four places (nobody else stands anywhere), with a
    random row of cards, goods, tool tiles (some used), one-use tools and now and then a
    "two resources" card. The state is not advanced yet."""
    rnd = random.Random(seed)
    players = rnd.choice([2, 3, 4])
    state = setup(players, seed)
    state.row = rnd.sample(CARDS, 4)
    state.deck = [c for c in CARDS if c not in state.row][:6]
    player = state.players[0]
    player.goods = {"food": rnd.randint(0, 12), **{r: rnd.choice([0, 0, 1, 2])
                                                    for r in ("wood", "clay", "stone", "gold")}}
    tiles = sorted((rnd.choice([1, 1, 2, 3, 4]) for _ in range(rnd.randint(0, 2))),
                   reverse=True)
    player.tools = [*tiles, *[0] * (3 - len(tiles))]
    player.tools_used = [v > 0 and rnd.random() < 0.3 for v in player.tools]
    player.one_use_tools = rnd.sample([2, 3, 4], rnd.choice([0, 0, 1]))
    player.boons = 1 if rnd.random() < 0.1 else 0
    # At most two payments, so that every path can be walked in a moment.
    places = rnd.sample([*GATHERING, *VILLAGE], rnd.choice([0, 1, 2, 2, 3]))
    payments = rnd.choice([0, 1, 1, 2]) if len(places) > 1 else rnd.choice([1, 2])
    places += rnd.sample(["card1", "card2", "card3", "card4", "bld1"], min(payments,
                                                                            4 - len(places)))
    player.placed = {loc: (2 if loc == "hut" else rnd.randint(1, 2) if loc in GATHERING else 1)
                     for loc in places}
    player.people = max(player.people, sum(player.placed.values()))
    state.phase = "actions"
    state.turn = state.first = 0
    return state


def _turn_over(state: StoneAgeState) -> bool:
    return state.phase != "actions"


def _reachable(state: StoneAgeState) -> set[str]:
    start = state.model_copy(deep=True)
    advance(start, [])
    return outcomes(start, _turn_over)


@pytest.mark.interpreted
@pytest.mark.parametrize("seed", SEEDS)
def test_every_outcome_of_every_order_is_still_reachable(seed: int) -> None:
    state = random_turn(seed)
    now = _reachable(state)
    with base_order():
        before = _reachable(state)
    assert now == before


def _ignoring_dice(a: Touches, b: Touches) -> bool:
    return may_precede(replace(a, dice=False), b)


def _ignoring_tools(a: Touches, b: Touches) -> bool:
    return may_precede(replace(a, tools_gain=False, tools_roll=False), b)


def _ignoring_payments(a: Touches, b: Touches) -> bool:
    return may_precede(replace(a, pays=False), b)


def _two_rolls() -> StoneAgeState:
    """Forest then clay: 6 is 2 wood and 1 no clay; clay then forest: 1 clay, no wood."""
    return _turn({"forest": 1, "clay": 1}, dice=[6, 1])


def _tool_and_roll() -> StoneAgeState:
    """A 2 with the tile of 3 is one wood, and the tile is then raised to 4 (turned);
    with the tile raised first, any tile makes it two wood."""
    state = _turn({"toolmaker": 1, "forest": 1}, dice=[2])
    state.players[0].tools = [4, 4, 3]
    return state


def _card_and_roll() -> StoneAgeState:
    """Card 1 before the forest cannot be paid; after it, with the wood, it can."""
    return _turn({"card1": 1, "forest": 1}, dice=[6])


def _turn(placed: dict[str, int], dice: list[int]) -> StoneAgeState:
    state = scripted(2, dice=dice, row=[POINTS, FOOD, FOOD, FOOD])
    state.players[0].placed = dict(placed)
    state.phase = "actions"
    state.turn = state.first = 0
    return state


@pytest.mark.interpreted
@pytest.mark.parametrize(("position", "wrong"), [
    (_two_rolls, _ignoring_dice),
    (_tool_and_roll, _ignoring_tools),
    (_card_and_roll, _ignoring_payments),
])
def test_the_comparison_finds_a_choice_taken_away(
    position: Callable[[], StoneAgeState], wrong: Callable[[Touches, Touches], bool]
) -> None:
    """Each rule of ``may_precede`` matters: in a position where it does, the engine
    keeps every outcome, and without the rule the comparison above sees one lost."""
    with base_order():
        before = _reachable(position())
    assert _reachable(position()) == before
    _decided.cache_clear()  # the memo of what comes next was filled with the real rule
    try:
        with patch_source("engine.stone_age.order.may_precede", wrong):
            assert _reachable(position()) < before
    finally:
        _decided.cache_clear()


def test_positions_where_the_engine_goes_on_alone_are_common() -> None:
    """The random positions are not all ones where the player is asked anyway."""
    alone = 0
    for seed in SEEDS:
        state = random_turn(seed)
        advance(state, [])
        alone += len(state.players[0].placed) < 2 or not next_action(state, 0)[1]
    assert alone >= len(SEEDS) // 3


# --- what may precede what -----------------------------------------------------------


def _touches(loc: str, card: str | None = None) -> Touches:
    state = scripted(2, row=[card or FOOD, FOOD, FOOD, FOOD])
    return touches(state, "card1" if card else loc)


def test_hut_and_field_go_anywhere() -> None:
    for loc in ("hut", "field"):
        free = _touches(loc)
        assert free == Touches()
        for other in [*GATHERING, *VILLAGE, "bld1"]:
            assert may_precede(free, _touches(other)) and may_precede(_touches(other), free)


def test_two_rolls_are_the_players_to_order() -> None:
    forest, clay, hunt = _touches("forest"), _touches("clay"), _touches("hunt")
    assert not may_precede(forest, clay) and not may_precede(clay, forest)
    assert not may_precede(hunt, forest)
    assert not may_precede(_touches("card", RESOURCE_DICE), hunt)
    assert not may_precede(_touches("card", DICE_FOR_ALL), forest)


def test_a_tool_before_or_after_a_roll_is_the_players_to_order() -> None:
    tool, forest = _touches("toolmaker"), _touches("forest")
    assert not may_precede(tool, forest) and not may_precede(forest, tool)
    assert not may_precede(_touches("card", TOOL), forest)
    # With no roll about, a tool goes anywhere.
    assert may_precede(tool, _touches("bld1")) and may_precede(_touches("bld1"), tool)


def test_payments_wait_for_what_brings_resources() -> None:
    wood, hunt, building = _touches("forest"), _touches("hunt"), _touches("bld1")
    points, resource = _touches("card", POINTS), _touches("card", RESOURCE)
    assert may_precede(wood, building) and not may_precede(building, wood)
    assert may_precede(resource, points) and not may_precede(points, resource)
    # Food pays for nothing before feeding: the hunt and a payment go either way.
    assert may_precede(hunt, building) and may_precede(building, hunt)
    # Two payments draw on one stock: either order pays the same pairs of bills.
    assert may_precede(points, building) and may_precede(building, points)
    # Two cards that each pay and bring resources: the player orders them.
    assert not may_precede(resource, _touches("card", TWO_RESOURCES))


# --- the engine going on alone -------------------------------------------------------


def test_the_hut_and_the_field_go_by_themselves_and_the_rolls_are_asked() -> None:
    state = scripted(2, dice=[1, 1, 1, 1])
    events = start_actions(state, {0: {"hut": 2, "forest": 1, "field": 1, "clay": 1},
                                   1: {"hunt": 1, "river": 1}})
    assert codes(events) == ["person_gained", "agriculture_up"]
    (prompt,) = GAME.pending(state)
    assert prompt.keys() == ["do:forest", "do:clay"]
    assert prompt.label.args == {"later": []}
    assert will_choose(state, 1)


def test_a_payment_waits_for_the_roll_that_may_pay_for_it() -> None:
    state = scripted(2, dice=[6, 6], row=[POINTS, FOOD, FOOD, FOOD])
    state.players[0].goods["wood"] = 0
    events = start_actions(state, {0: {"card1": 1, "forest": 2}, 1: {"hunt": 1, "river": 1}})
    # The forest goes first by itself (12 on the dice: 4 wood), then the card asks.
    assert codes(events) == ["rolled", "gathered"]
    (prompt,) = GAME.pending(state)
    assert prompt.label.code == "sa.prompt.pay_card"
    play(state, 0, "pay:1.0.0.0")
    assert state.players[0].cards == [POINTS]


def test_a_place_that_comes_later_is_said_and_cannot_be_chosen_now() -> None:
    state = scripted(2, dice=[1, 1, 1, 1], row=[POINTS, FOOD, FOOD, FOOD])
    state.players[0].goods["wood"] = 1
    start_actions(state, {0: {"card1": 1, "forest": 1, "clay": 1}, 1: {"hunt": 1, "river": 1}})
    (prompt,) = GAME.pending(state)
    assert prompt.keys() == ["do:forest", "do:clay"]
    assert prompt.label.args == {"later": ["card1"]}
    assert refused(state, 0, "do:card1") == "resolves_later"
    assert refused(state, 0, "do:hut") == "nothing_there"


def test_the_tool_maker_and_a_payment_go_without_a_question_when_no_roll_follows() -> None:
    state = scripted(2, row=[FOOD, POINTS, FOOD, FOOD])
    state.players[0].goods["wood"] = 2
    start_actions(state, {0: {"card2": 1, "toolmaker": 1}, 1: {"hunt": 1, "river": 1}})
    (prompt,) = GAME.pending(state)
    assert prompt.label.code == "sa.prompt.pay_card"
    events = play(state, 0, "pay:2.0.0.0")
    assert codes(events)[:3] == ["card_bought", "points_gained", "tool_gained"]


def test_the_next_player_is_told_only_when_they_will_choose() -> None:
    state = scripted(3, dice=[1] * 8)
    start_actions(state, {0: {"forest": 1, "clay": 1}, 1: {"hut": 2, "field": 1},
                          2: {"hunt": 1, "river": 1}})
    # Seat 1 has nothing to choose (its places go by themselves): nobody is promised.
    assert GAME.next_turn(state, 0) is None
    state.players[1].placed = {"hunt": 1, "quarry": 1}
    assert GAME.next_turn(state, 0) == 1


def test_a_game_saved_waiting_where_nothing_is_left_to_choose_goes_on() -> None:
    """A state saved at this issue's base may wait at "which place next?" among places
    that now go by themselves: the place the engine would take is its one option."""
    state = scripted(2, dice=[1, 1])
    state.players[0].placed = {"hut": 2, "field": 1}
    state.players[1].placed = {"hunt": 1, "river": 1}
    state.phase = "actions"
    state.turn = state.first = 0  # stored as it was, not advanced
    (prompt,) = GAME.pending(state)
    assert prompt.keys() == ["do:hut"]
    events = play(state, 0, "do:hut")
    assert codes(events) == ["person_gained", "agriculture_up"]
    assert [p.seat for p in GAME.pending(state)] == [1]
