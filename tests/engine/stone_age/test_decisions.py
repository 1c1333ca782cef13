"""Decisions: whose turn it is, refused keys, and prompts that list exactly what applies.

Every refusal must raise ``IllegalMove`` with its reason code and leave ``GAME.dump``
unchanged. Every listed option must apply without error (tried on a copy made through
``GAME.load(GAME.dump(state))``).
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from engine.core.errors import IllegalMove
from engine.core.prompts import Prompt
from engine.stone_age.game import GAME
from engine.stone_age.state import BoonStep, CountStep, PayStep, PickStep, RollStep, StoneAgeState
from tests.engine.stone_age.helpers import codes, first, play, refused, scripted, start_actions

ROW = ["c06", "c15", "c16", "c01"]  # food 1, points 3, points 3, food 7
PILES = [["b02", "b01"], ["b04", "b03"], ["b06", "b05"], ["b08", "b07"]]


def copy(state: StoneAgeState) -> StoneAgeState:
    return GAME.load(GAME.dump(state))


def prompt_of(state: StoneAgeState, seat: int) -> Prompt:
    (prompt,) = [p for p in GAME.pending(state) if p.seat == seat]
    return prompt


def assert_every_listed_key_applies(state: StoneAgeState) -> int:
    """Every option of every open prompt applies on a fresh copy; the number tried."""
    tried = 0
    prompts = GAME.pending(state)
    assert prompts, "no open decision"
    for prompt in prompts:
        assert len(set(prompt.keys())) == len(prompt.keys()), "duplicate keys"
        for option in prompt.options:
            key = option.key
            trial = copy(state)
            try:
                GAME.apply(trial, prompt.seat, key)
            except IllegalMove as exc:  # pragma: no cover - reported by the assert
                raise AssertionError(f"listed {key!r} refused: {exc.code}") from exc
            tried += 1
    return tried


def game(players: int = 2, dice: list[int] | None = None) -> StoneAgeState:
    return scripted(players, dice=dice, row=list(ROW), piles=[list(p) for p in PILES[:players]])


def action_position() -> StoneAgeState:
    """Seat 0 acts with workers on the hunt (2), the forest (1) and card 2 (cost 2).

    Seat 0 has tool tiles 2 (already used), 1 and none, and one one-use tool of 3;
    the hunt will roll 3 and 4, the forest 1. The card waits for the end (its payment
    can only gain from the wood), so seat 0 chooses between the hunt and the forest.
    """
    state = game(2, dice=[3, 4, 1, 1])
    p0 = state.players[0]
    p0.tools, p0.tools_used = [2, 1, 0], [True, False, False]
    p0.one_use_tools = [3]
    p0.goods.update(wood=1, clay=1)
    start_actions(state, {0: {"hunt": 2, "forest": 1, "card2": 1}, 1: {"hunt": 1, "field": 1}})
    assert state.phase == "actions" and state.turn == 0
    return state


def roll_position() -> StoneAgeState:
    state = action_position()
    events = play(state, 0, "do:hunt")
    assert first(events, "rolled").args["dice"] == [3, 4]
    assert isinstance(state.stacks[0][-1], RollStep)
    return state


def card_pay_position() -> StoneAgeState:
    state = action_position()
    # The hunt, taken without tools; the forest then comes by itself (1 wood needs 3),
    # taken without tools too; then the card.
    play(state, 0, "do:hunt", "take", "take")
    assert isinstance(state.stacks[0][-1], PayStep)
    return state


def pick_position() -> StoneAgeState:
    """Seat 0 bought "dice for everyone" (c02): dice 2 and 5, seat 0 picks first."""
    state = scripted(2, dice=[5, 2], row=["c02", "c15", "c16", "c01"],
                     piles=[list(p) for p in PILES[:2]])
    state.players[0].goods["wood"] = 1
    # The tool maker goes first by itself (no roll follows), then the card.
    start_actions(state, {0: {"card1": 1, "toolmaker": 1}, 1: {"field": 1}})
    play(state, 0, "pay:1.0.0.0")
    assert isinstance(state.stacks[0][-1], PickStep)
    return state


def boon_position() -> StoneAgeState:
    state = action_position()
    state.players[0].boons = 1
    return state


def feeding_position() -> StoneAgeState:
    """Both seats are short of food and may pay resources, at the same time."""
    state = game(2)
    p0, p1 = state.players
    p0.goods.update(food=2, wood=2, clay=2)  # short by 3
    p1.goods.update(food=0, stone=1, gold=4)  # field gives 1 food: short by 4
    start_actions(state, {0: {"toolmaker": 1}, 1: {"field": 1}})
    assert state.phase == "feeding"
    assert sorted(state.stacks) == [0, 1]
    return state


def finished_game() -> StoneAgeState:
    """Round 1 ends with an empty deck and a bought card: the game is over."""
    state = scripted(2, row=list(ROW), deck=[], piles=[list(p) for p in PILES[:2]])
    state.players[0].goods["wood"] = 1
    start_actions(state, {0: {"card1": 1}, 1: {"field": 1}})
    events = play(state, 0, "pay:1.0.0.0")
    assert first(events, "game_over").args == {"reason": "cards_exhausted"}
    assert state.phase == "over"
    return state


# --- whose turn ----------------------------------------------------------------


@pytest.mark.parametrize("seat", [1, 2, 3, 4, 5, -1, 99])
def test_only_the_seat_to_place_may_move(seat: int) -> None:
    state = game(4)
    assert refused(state, seat, "at:hunt") == "not_your_turn"
    assert refused(state, seat, "place:hunt:1") == "not_your_turn"
    assert refused(state, seat, "") == "not_your_turn"


@pytest.mark.parametrize("seat", [1, 2, -1])
def test_only_the_acting_seat_may_act(seat: int) -> None:
    state = action_position()
    assert refused(state, seat, "do:hunt") == "not_your_turn"
    roll = roll_position()
    assert refused(roll, seat, "take") == "not_your_turn"
    pay = card_pay_position()
    assert refused(pay, seat, "decline") == "not_your_turn"


def test_only_the_picking_seat_may_take_a_die() -> None:
    state = pick_position()
    assert [p.seat for p in GAME.pending(state)] == [0]
    assert refused(state, 1, "die:2") == "not_your_turn"
    assert refused(state, 1, "die:5") == "not_your_turn"
    events = play(state, 0, "die:5")
    # The last die goes to seat 1 by itself (only one face is left).
    taken = [(e.seat, e.args["face"]) for e in events if e.code == "die_taken"]
    assert taken == [(0, 5), (1, 2)]
    assert state.players[1].goods["clay"] == 1


def test_feeding_decisions_are_open_at_once_but_only_for_the_short() -> None:
    state = game(2)
    state.players[1].goods.update(food=0, wood=5)
    start_actions(state, {0: {"toolmaker": 1}, 1: {"field": 1}})
    assert state.phase == "feeding"
    assert [p.seat for p in GAME.pending(state)] == [1]
    assert refused(state, 0, "starve") == "not_your_turn"
    assert refused(state, 0, "pay:1.0.0.0") == "not_your_turn"
    both = feeding_position()
    assert [p.seat for p in GAME.pending(both)] == [0, 1]
    assert refused(both, 2, "starve") == "not_your_turn"


def test_nothing_is_accepted_once_the_game_is_over() -> None:
    state = finished_game()
    assert GAME.pending(state) == []
    assert GAME.result(state) is not None
    for seat in (0, 1, 2, -1):
        for key in ("at:hunt", "place:hunt:1", "do:hunt", "pay:1.0.0.0", "", "starve"):
            assert refused(state, seat, key) == "game_over"


# --- unknown and garbled keys --------------------------------------------------


@pytest.mark.parametrize(("key", "code"), [
    ("", "unknown_option"),
    ("at", "unknown_location"),
    ("at:", "unknown_location"),
    ("at:hunt ", "unknown_location"),
    (" at:hunt", "unknown_option"),
    ("AT:hunt", "unknown_option"),
    ("place:forest:x", "bad_count"),
    ("place:forest", "bad_count"),
    ("pay:1.2", "unknown_option"),
    ("pay:1.0.0.0", "unknown_option"),
    ("die:9", "unknown_option"),
    ("do:hunt", "unknown_option"),
    ("n:2", "unknown_option"),
    ("back", "unknown_option"),
    ("take", "unknown_option"),
    ("boon", "unknown_option"),
    ("pass", "unknown_option"),
])
def test_garbled_keys_when_placing(key: str, code: str) -> None:
    assert refused(game(4), 0, key) == code


@pytest.mark.parametrize(("key", "code"), [
    ("", "unknown_option"),
    ("at:", "unknown_option"),
    ("at:hunt", "unknown_option"),
    ("place:forest:x", "unknown_option"),
    ("pay:1.2", "unknown_option"),
    ("die:9", "unknown_option"),
    ("take", "unknown_option"),
    ("decline", "unknown_option"),
    ("do", "nothing_there"),
    ("DO:hunt", "unknown_option"),
    ("do:", "nothing_there"),
    ("do:river", "nothing_there"),
    ("do:field", "nothing_there"),  # seat 1's worker, not seat 0's
    ("do:volcano", "nothing_there"),
    ("do:hunt:2", "nothing_there"),
])
def test_garbled_keys_when_acting(key: str, code: str) -> None:
    assert refused(action_position(), 0, key) == code


@pytest.mark.parametrize(("key", "code"), [
    ("", "unknown_option"),
    ("at:", "unknown_option"),
    ("place:forest:x", "unknown_option"),
    ("pay:1.2", "unknown_option"),
    ("die:9", "unknown_option"),
    ("do:hunt", "unknown_option"),
    ("tool:", "unknown_option"),
    ("tool:x", "unknown_option"),
    ("tool:-1", "unknown_option"),
    ("once:", "unknown_option"),
    ("take:1", "unknown_option"),
    ("tool:0", "tool_not_ready"),  # already used this round
    ("tool:2", "tool_not_ready"),  # no tile in that slot
    ("tool:3", "tool_not_ready"),  # no such slot
    ("once:1", "tool_not_ready"),  # only one one-use tool
    ("once:7", "tool_not_ready"),
])
def test_garbled_keys_when_rolling(key: str, code: str) -> None:
    assert refused(roll_position(), 0, key) == code


@pytest.mark.parametrize(("key", "code"), [
    ("", "unknown_option"),
    ("at:", "unknown_option"),
    ("place:forest:x", "unknown_option"),
    ("pay:1.2", "unknown_option"),
    ("pay:", "unknown_option"),
    ("pay:1.1.0.0.0", "unknown_option"),
    ("pay:a.b.0.0", "unknown_option"),
    ("pay:-1.3.0.0", "unknown_option"),
    ("pay:1..0.0", "unknown_option"),
    ("die:9", "unknown_option"),
    ("add:", "unknown_option"),
    ("add:Wood", "unknown_option"),
    ("add:people", "unknown_option"),
    ("add:food", "food_is_not_a_resource"),
    ("starve", "unknown_option"),  # only when feeding
    ("take", "unknown_option"),
    ("pay:1.0.0.0", "wrong_payment"),  # card 2 costs 2
    ("pay:1.1.1.0", "wrong_payment"),
    ("pay:0.0.0.0", "wrong_payment"),
    ("pay:2.0.0.0", "cannot_afford"),  # only one wood
    ("pay:0.0.1.1", "cannot_afford"),
    ("confirm", "payment_incomplete"),
    ("undo", "nothing_to_undo"),
    ("boon", "no_boon"),
])
def test_garbled_keys_when_paying(key: str, code: str) -> None:
    assert refused(card_pay_position(), 0, key) == code


@pytest.mark.parametrize(("key", "code"), [
    ("", "unknown_option"),
    ("at:", "unknown_option"),
    ("pay:1.2", "unknown_option"),
    ("die:", "unknown_option"),
    ("die:x", "unknown_option"),
    ("die:-5", "unknown_option"),
    ("die:9", "no_such_die"),
    ("die:0", "no_such_die"),
    ("die:3", "no_such_die"),
    ("die:6", "no_such_die"),
    ("take", "unknown_option"),
])
def test_garbled_keys_when_picking_a_die(key: str, code: str) -> None:
    state = pick_position()
    assert prompt_of(state, 0).keys() == ["die:2", "die:5"]
    assert refused(state, 0, key) == code


@pytest.mark.parametrize(("key", "code"), [
    ("", "unknown_option"),
    ("gain:1.0.0.0", "unknown_option"),
    ("gain:3.0.0.0", "unknown_option"),
    ("gain:2.0.0", "unknown_option"),
    ("gain:", "unknown_option"),
    ("pay:2.0.0.0", "unknown_option"),
    ("boon", "unknown_option"),
    ("die:9", "unknown_option"),
])
def test_garbled_keys_when_taking_two_resources(key: str, code: str) -> None:
    state = boon_position()
    play(state, 0, "boon")
    assert isinstance(state.stacks[0][-1], BoonStep)
    assert refused(state, 0, key) == code


@pytest.mark.parametrize(("key", "code"), [
    ("", "unknown_option"),
    ("n:", "unknown_option"),
    ("n:x", "unknown_option"),
    ("n:-1", "unknown_option"),
    ("back:1", "unknown_option"),
    ("die:9", "unknown_option"),
    ("pay:1.2", "unknown_option"),
    ("n:0", "bad_count"),
    ("n:6", "not_enough_people"),
])
def test_garbled_keys_when_counting(key: str, code: str) -> None:
    state = game(4)
    play(state, 0, "at:forest")
    assert isinstance(state.stacks[0][-1], CountStep)
    assert refused(state, 0, key) == code


@pytest.mark.parametrize(("key", "code"), [
    ("decline", "unknown_option"),  # missing food is not declined: one starves instead
    ("pay:1.2", "unknown_option"),
    ("pay:1.1.0.0", "wrong_payment"),
    ("pay:2.2.0.0", "wrong_payment"),
    ("pay:3.0.0.0", "cannot_afford"),
    ("pay:1.1.1.0", "cannot_afford"),
    ("confirm", "payment_incomplete"),
    ("add:food", "food_is_not_a_resource"),
    ("add:stone", "cannot_afford"),
    ("undo", "nothing_to_undo"),
    ("boon", "no_boon"),
])
def test_garbled_keys_when_feeding(key: str, code: str) -> None:
    assert refused(feeding_position(), 0, key) == code


# --- the action phase ----------------------------------------------------------


def test_the_action_prompt_lists_the_places_whose_order_matters() -> None:
    state = action_position()
    prompt = prompt_of(state, 0)
    assert prompt.keys() == ["do:hunt", "do:forest"]
    assert prompt.label.args == {"later": ["card2"]}
    assert refused(state, 0, "do:card2") == "resolves_later"
    assert refused(state, 0, "boon") == "no_boon"


def test_a_used_tool_is_not_offered_and_a_ready_one_is() -> None:
    state = roll_position()
    prompt = prompt_of(state, 0)
    # Tile 1 (slot 1) and the one-use 3: every way to add them, fewest points first.
    assert prompt.keys() == ["take", "take:t1", "take:o0", "take:t1.o0"]
    assert [(o.label.args["amount"], o.label.args["tiles"], o.label.args["once"])
            for o in prompt.options] == [(3, [], []), (4, [1], []), (5, [], [3]), (5, [1], [3])]
    assert prompt.options[0].label.args == {"resource": "food", "total": 7, "amount": 3,
                                            "tiles": [], "once": []}
    events = play(state, 0, "take:t1")
    assert first(events, "gathered").args["amount"] == 4
    assert state.players[0].tools_used == [True, True, False]
    assert state.players[0].one_use_tools == [3]
    assert state.players[0].goods["food"] == 12 + 4


def test_tools_added_one_at_a_time_as_logs_of_old_games_do_still_work() -> None:
    """Before tools were chosen in one press, a roll took ``tool:<slot>`` and
    ``once:<index>`` toggles and then ``take``: those keys are still accepted, and a
    roll begun that way goes on offering the toggles."""
    state = roll_position()
    play(state, 0, "tool:1")
    prompt = prompt_of(state, 0)
    assert prompt.keys() == ["tool:1", "once:0", "take"]
    assert prompt.options[-1].label.args["amount"] == 4
    play(state, 0, "once:0", "once:0")
    events = play(state, 0, "take")
    assert first(events, "gathered").args == {
        "source": "hunt", "resource": "food", "amount": 4, "total": 8, "tools": [1]}
    assert state.players[0].tools_used == [True, True, False]


def test_the_two_resource_card_can_be_used_and_stepped_out_of() -> None:
    state = boon_position()
    assert prompt_of(state, 0).keys()[-1] == "boon"
    play(state, 0, "boon")
    prompt = prompt_of(state, 0)
    assert prompt.step == 2
    assert len(prompt.keys()) == 11 and prompt.keys()[-1] == "back"
    assert sorted(prompt.keys()[:-1]) == sorted(
        f"gain:{w}.{c}.{s}.{g}"
        for w in range(3) for c in range(3) for s in range(3) for g in range(3)
        if w + c + s + g == 2
    )
    play(state, 0, "back")
    assert state.players[0].boons == 1 and 0 not in state.stacks
    assert prompt_of(state, 0).keys() == ["do:hunt", "do:forest", "boon"]
    goods = dict(state.players[0].goods)
    events = play(state, 0, "boon", "gain:1.0.0.1")
    assert codes(events) == ["boon_used"]
    assert state.players[0].boons == 0
    assert state.players[0].goods["wood"] == goods["wood"] + 1
    assert state.players[0].goods["gold"] == goods["gold"] + 1
    assert refused(state, 0, "boon") == "no_boon"


def test_declining_a_card_keeps_the_resources_and_the_card() -> None:
    state = card_pay_position()
    events = play(state, 0, "decline")
    assert codes(events)[0] == "card_declined"
    assert state.row[1] == "c15"
    assert state.players[0].goods["wood"] == 1 and state.players[0].cards == []


# --- listed options apply ------------------------------------------------------


@pytest.mark.parametrize("build", [
    lambda: game(4),
    lambda: game(2),
    action_position,
    roll_position,
    card_pay_position,
    pick_position,
    boon_position,
    feeding_position,
])
def test_every_listed_option_applies(build: Callable[[], StoneAgeState]) -> None:
    state = build()
    assert assert_every_listed_key_applies(state) >= 2


def test_every_listed_option_applies_in_nested_steps() -> None:
    count = game(4)
    play(count, 0, "at:forest")  # a log's key from before: the number in a step of its own
    assert assert_every_listed_key_applies(count) == 6
    boon = boon_position()
    play(boon, 0, "boon")
    assert assert_every_listed_key_applies(boon) == 11
    pay = card_pay_position()
    pay.players[0].boons = 1
    assert prompt_of(pay, 0).keys() == ["pay:1.1.0.0", "boon", "decline"]
    assert assert_every_listed_key_applies(pay) == 3


def test_building_payments_list_what_applies() -> None:
    state = scripted(2, row=list(ROW), piles=[["b01", "b19"], ["b04", "b03"]])
    state.players[0].goods.update(wood=4, clay=2, stone=1)
    start_actions(state, {0: {"bld1": 1}, 1: {"field": 1}})
    prompt = prompt_of(state, 0)
    # 4 resources of exactly 2 kinds out of 4 wood, 2 clay, 1 stone; cheapest first.
    assert prompt.keys() == ["pay:3.1.0.0", "pay:2.2.0.0", "pay:3.0.1.0", "decline"]
    assert [o.label.args["points"] for o in prompt.options[:3]] == [13, 14, 14]
    assert assert_every_listed_key_applies(state) == 4


# --- one spelling per number ----------------------------------------------------

SUPERSCRIPT_TWO = "\u00b2"  # str.isdigit() is True, int() refuses it


@pytest.mark.parametrize(("build", "key", "code"), [
    (roll_position, f"tool:{SUPERSCRIPT_TWO}", "unknown_option"),
    (roll_position, "tool:01", "unknown_option"),
    (roll_position, "once:00", "unknown_option"),
    (card_pay_position, f"pay:{SUPERSCRIPT_TWO}.0.0.0", "unknown_option"),
    (card_pay_position, "pay:01.1.0.0", "unknown_option"),
    (card_pay_position, "pay:1.1.0.00", "unknown_option"),
    (card_pay_position, "pay:1.1.0.+0", "unknown_option"),
    (pick_position, f"die:{SUPERSCRIPT_TWO}", "unknown_option"),
    (pick_position, "die:02", "unknown_option"),
    (pick_position, "die:\u0665", "unknown_option"),  # Arabic-Indic five
])
def test_odd_spellings_of_numbers_are_refused_not_crashing(
    build: Callable[[], StoneAgeState], key: str, code: str
) -> None:
    """Regression: '²' passed str.isdigit() and then crashed int() with ValueError."""
    assert refused(build(), 0, key) == code


def test_odd_spellings_when_taking_two_resources() -> None:
    state = boon_position()
    play(state, 0, "boon")
    assert refused(state, 0, "gain:01.1.0.0") == "unknown_option"
    assert refused(state, 0, f"gain:{SUPERSCRIPT_TWO}.0.0.0") == "unknown_option"
