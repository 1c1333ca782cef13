"""Imitation: its food cost by space, an opponent's occupied space only, never the
first-player space nor one's own, and the imitated space's goods are not taken."""

from __future__ import annotations

import pytest

from engine.caverna.imitation import imitation_cost
from engine.caverna.spaces import imitation_targets
from tests.engine.caverna.scenario import first, give, keys, play, scripted


@pytest.mark.parametrize(("space_id", "cost"), [
    ("imitation_3", 4), ("imitation_4_7", 2), ("imitation_5", 4), ("imitation_6_7", 1),
    ("imitation_7", 0),
])
def test_printed_costs(space_id: str, cost: int) -> None:
    assert imitation_cost(space_id) == cost
    assert imitation_cost("supplies") is None


def test_imitating_supplies_costs_four_food_with_three_players() -> None:
    state = scripted(3)
    play(state, 0, "go:supplies")
    give(state, 1, food=4)
    # Supplies is the one space to imitate: copied without asking.
    events = play(state, 1, "go:imitation_3")
    player = state.players[1]
    assert player.goods["food"] == 1 + 4 - 4 + 1
    assert (player.goods["wood"], player.goods["stone"], player.goods["ore"],
            player.goods["gold"]) == (1, 1, 1, 2)
    assert first(events, "imitated").args == {"space": "supplies", "cost": 4}
    assert player.dwarfs[0].at == "imitation_3"


def test_the_goods_lying_on_the_imitated_space_are_not_taken() -> None:
    """Strip mining: the opponent took the ore; the imitator gets the 2 wood only."""
    state = scripted(3)
    play(state, 0, "go:strip_mining")
    assert state.players[0].goods["ore"] == 1
    give(state, 1, food=3)
    events = play(state, 1, "go:imitation_3")  # the one space there is to imitate
    assert first(events, "imitated").args["space"] == "strip_mining"
    player = state.players[1]
    assert (player.goods["wood"], player.goods["ore"]) == (2, 0)


def test_a_space_that_gives_only_its_goods_cannot_be_imitated() -> None:
    state = scripted(3)
    play(state, 0, "go:wood_gathering")
    give(state, 1, food=3)
    assert "go:imitation_3" not in keys(state, 1)


def test_the_first_player_space_cannot_be_imitated() -> None:
    state = scripted(4)
    play(state, 0, "go:starting_player_4_7")
    give(state, 1, food=1)
    assert "go:imitation_4_7" not in keys(state, 1)
    play(state, 1, "go:supplies") if "go:supplies" in keys(state, 1) else play(
        state, 1, "go:growth")
    events = play(state, 2, "go:imitation_4_7")
    # Growth is all there is to imitate (the first-player space is not), so it is taken.
    assert first(events, "imitated").args["space"] == "growth"


def test_ones_own_dwarfs_space_cannot_be_imitated() -> None:
    state = scripted(4)
    play(state, 0, "go:growth")
    play(state, 1, "go:drift_mining_4_7", "part:0", "stop")
    play(state, 2, "go:clearing_4_7", "part:0", "stop")
    play(state, 3, "go:sustenance_4_7", "part:0", "stop")
    give(state, 0, food=2)
    play(state, 0, "go:imitation_4_7")
    # the stone is gone from the others, but their twin tiles can still be laid
    assert keys(state, 0) == ["copy:drift_mining_4_7", "copy:clearing_4_7",
                              "copy:sustenance_4_7"]


def test_imitation_spaces_cannot_be_imitated() -> None:
    state = scripted(7)
    give(state, 0, food=2)
    play(state, 0, "go:supplies" if "go:supplies" in keys(state, 0) else "go:growth")
    play(state, 1, "go:imitation_7")  # Growth, the one space there is to imitate
    give(state, 2, food=2)
    targets = imitation_targets(state, 2, dwarf=0, cost=2)
    assert targets and "imitation_7" not in targets


def test_not_enough_food_keeps_the_imitation_space_closed() -> None:
    state = scripted(3)
    play(state, 0, "go:supplies")
    assert state.players[1].goods["food"] == 1
    assert "go:imitation_3" not in keys(state, 1)
    give(state, 1, grain=3)  # 1 food + 3 grain converted = 4
    assert "go:imitation_3" in keys(state, 1)
    events = play(state, 1, "go:imitation_3")  # Supplies, the one space to imitate
    assert first(events, "imitated").args["space"] == "supplies"
    assert state.players[1].goods["grain"] == 0
