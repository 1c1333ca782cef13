"""Action spaces: our table of what each does agrees with the component data, goods pile
up as "X(Y)", and the connectives decide which parts may be chosen."""

from __future__ import annotations

from typing import Any

import pytest

from engine.caverna.components import components
from engine.caverna.spaces import (
    AND_OR,
    EFFECTS,
    EITHER,
    THEN,
    THEN_OR,
    Group,
    connective,
    effect,
    replenish,
)
from engine.caverna.state import GroupStep
from tests.engine.caverna.scenario import give, keys, play, scripted

CONNECTIVES = {"all": "all", "and_or": AND_OR, "and_then_or": THEN_OR, "either_or": EITHER,
               "then": THEN}
# Where our reading differed from the data's connective: none any more (Adventure's
# data now says "and then / or" as the flow does; see RULE_CHOICES.md).
READING: dict[str, str] = {}


def _flat(group: Group) -> list[tuple[str, Any]]:
    out: list[tuple[str, Any]] = []
    for part in group.parts:
        if part.group is not None:
            out += _flat(part.group)
        else:
            out.append((part.do, dict(part.goods)))
    return out


def _data_flat(space_id: str) -> list[tuple[str, Any]]:
    names = {"twin_one_of": "twin"}
    out = []
    for part in components().space(space_id).parts():
        goods = part.arg if part.do == "gain" else {}
        if part.do == "gain_if_mines" or part.do == "gain_per_mine":
            goods = part.arg["goods"]
        out.append((names.get(part.do, part.do), goods))
    return out


ALL_IDS = sorted({*components().spaces, *components().round_cards})


def test_every_space_and_card_has_an_action() -> None:
    assert set(EFFECTS) == set(ALL_IDS)


@pytest.mark.parametrize("space_id", ALL_IDS)
def test_our_table_agrees_with_the_component_data(space_id: str) -> None:
    """The same parts in the same order, the same goods, the same connective."""
    printed = components().space(space_id)
    assert _flat(effect(space_id)) == _data_flat(space_id)
    expected = READING.get(space_id, CONNECTIVES[printed.connective])
    assert effect(space_id).connective == expected
    for part in effect(space_id).parts:
        if part.do == "imitate":
            assert part.level == printed.imitation


def _space(state, space_id):  # type: ignore[no-untyped-def]
    return state.space(space_id)


def test_accumulation_x_when_empty_y_otherwise() -> None:
    """Logging 3(1) on the 1–3 side: 3 wood onto an empty space, then 1 a round."""
    state = scripted(3)
    logging = state.space("logging_1_3")
    assert logging.goods == {"wood": 3}
    replenish(state)
    assert logging.goods == {"wood": 4}
    logging.goods = {}
    replenish(state)
    assert logging.goods == {"wood": 3}


def test_sustenance_gives_grain_when_empty_and_vegetable_otherwise() -> None:
    state = scripted(4)
    space = state.space("sustenance_4_7")
    assert space.goods == {"grain": 1}
    replenish(state)
    assert space.goods == {"grain": 1, "vegetable": 1}


def test_goods_pile_up_without_limit() -> None:
    state = scripted(4)
    for _ in range(20):
        replenish(state)
    assert state.space("drift_mining_4_7").goods == {"stone": 42}


def test_two_players_get_no_ruby_on_ruby_mining_in_rounds_one_and_two() -> None:
    state = scripted(2)
    assert state.space("ruby_mining").goods == {}
    state.round = 3
    replenish(state)
    assert state.space("ruby_mining").goods == {"ruby": 1}


def test_ruby_mining_fills_from_round_one_in_solo_and_with_three() -> None:
    assert scripted(1).space("ruby_mining").goods == {"ruby": 1}
    assert scripted(3).space("ruby_mining").goods == {"ruby": 1}


@pytest.mark.parametrize(("players", "space_id", "extra"), [
    (2, "starting_player_1_3", {"ore": 2}),
    (3, "starting_player_1_3", {"ore": 2}),
    (4, "starting_player_4_7", {"ruby": 1}),
    (7, "starting_player_4_7", {"ruby": 1}),
])
def test_first_player_space_gives_its_food_and_extra_goods(
    players: int, space_id: str, extra: dict[str, int]
) -> None:
    state = scripted(players)
    before = dict(state.players[0].goods)
    events = play(state, 0, f"go:{space_id}")
    got = {g: n - before[g] for g, n in state.players[0].goods.items() if n != before[g]}
    assert got == {"food": 1, **extra}
    assert state.next_first == 0
    assert "first_player_taken" in [e.code for e in events]


def test_first_player_token_moves_at_the_end_of_the_round() -> None:
    state = scripted(3)
    play(state, 0, "go:wood_gathering")
    play(state, 1, "go:starting_player_1_3")
    assert state.first == 0
    # play the round out: everyone takes a plain goods space
    for seat, space in ((2, "ruby_mining"), (0, "supplies"), (1, "strip_mining"),
                        (2, "forest_exploration_3")):
        play(state, seat, f"go:{space}")
    assert state.round == 2
    assert state.first == 1 and state.turn == 1


def test_and_or_parts_in_any_order_and_stop_after_one() -> None:
    """Drift mining: the stone and/or a cavern/tunnel twin, in either order."""
    state = scripted(3)
    play(state, 0, "go:drift_mining_1_3")
    assert keys(state, 0) == ["part:0", "part:1"]
    play(state, 0, "part:1")
    assert keys(state, 0)[0].startswith("lay:cavern_tunnel:")
    play(state, 0, keys(state, 0)[0])
    assert keys(state, 0) == ["part:0", "stop"]
    play(state, 0, "part:0")
    assert state.players[0].goods["stone"] == 1
    assert state.turn == 1


def test_then_or_keeps_the_printed_order() -> None:
    """Logging with an armed dwarf: after the expedition the wood can no longer be taken."""
    state = scripted(3)
    for dwarf in state.players[0].dwarfs:
        dwarf.weapon = 2
    play(state, 0, "go:logging_1_3")
    assert keys(state, 0) == ["part:0", "part:1"]
    play(state, 0, "part:1")
    play(state, 0, "done")
    assert state.players[0].goods["wood"] == 0
    assert state.space("logging_1_3").goods == {"wood": 3}


def test_a_forced_single_part_needs_no_choice() -> None:
    """An unarmed dwarf on Logging can only take the wood: it is taken at once."""
    state = scripted(3)
    play(state, 0, "go:logging_1_3")
    assert state.players[0].goods["wood"] == 3
    assert state.turn == 1


def test_either_or_offers_one_part_and_the_guest_room_makes_it_and_or() -> None:
    state = scripted(4)
    group = effect("growth")
    assert connective(state, 0, group) == EITHER
    state.players[0].board.edit((3, 1)).tile = "cavern"
    state.players[0].board.edit((3, 1)).furnishing = "guest_room"
    assert connective(state, 0, group) == AND_OR


def test_growth_either_goods_or_a_family_growth() -> None:
    state = scripted(4)
    play(state, 0, "go:growth")
    # no room for a third dwarf: only the goods are possible, taken at once
    assert state.players[0].goods["gold"] == 2
    assert len(state.players[0].dwarfs) == 2


def test_a_space_whose_action_cannot_be_done_is_not_offered() -> None:
    """Ore trading without ore; Exploration with an unarmed dwarf."""
    state = scripted(3, cards={1: "ore_trading", 2: "exploration"})
    assert "go:ore_trading" not in keys(state, 0)
    give(state, 0, ore=2)
    assert "go:ore_trading" in keys(state, 0)


def test_imitated_group_step_does_not_take_goods() -> None:
    step = GroupStep(seat=0, dwarf=0, space="wood_gathering", imitated=True)
    state = scripted(3)
    from engine.caverna.spaces import eligible

    assert eligible(state, step) == []


def test_adventure_an_unarmed_dwarf_forges_first_an_armed_one_goes_straight_out() -> None:
    """Adventure is "and then / or" (RULE_CHOICES.md): the expeditions need a weapon, so
    an unarmed dwarf must forge first; an armed dwarf, who cannot forge, may still go on
    the two level-1 expeditions."""
    from engine.caverna.spaces import eligible

    state = scripted(1)
    give(state, 0, ore=5)
    step = GroupStep(seat=0, dwarf=0, space="adventure")
    assert eligible(state, step) == [0]
    state.players[0].dwarfs[0].weapon = 3
    assert eligible(state, step) == [1, 2]
