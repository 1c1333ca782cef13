"""Forging weapons: 1 to 8 ore, unarmed dwarfs only, the Blacksmith's discount, rubies
for missing ore, the cap of 14."""

from __future__ import annotations

from engine.caverna.state import Dwarf
from engine.caverna.weapons import forge_cost, forge_strengths, strengthen
from tests.engine.caverna.scenario import first, give, keys, play, scripted


def _blacksmithing(ore: int = 0, ruby: int = 0):  # type: ignore[no-untyped-def]
    state = scripted(3, cards={1: "blacksmithing"})
    give(state, 0, ore=ore, ruby=ruby)
    return state


def test_forge_strength_equals_the_ore_paid_at_most_eight() -> None:
    state = _blacksmithing(ore=10)
    play(state, 0, "go:blacksmithing")
    assert keys(state, 0) == [f"forge:{s}" for s in range(1, 9)]
    play(state, 0, "forge:5")
    assert state.players[0].goods["ore"] == 5
    assert state.players[0].dwarfs[0].weapon == 5


def test_one_ore_is_enough_to_forge() -> None:
    """One ore forges a weapon of 1: the only strength there is, forged without asking;
    the expedition may follow."""
    state = _blacksmithing(ore=1)
    events = play(state, 0, "go:blacksmithing")
    assert first(events, "forged").seat == 0
    assert (state.players[0].goods["ore"], state.players[0].dwarfs[0].weapon) == (0, 1)
    assert keys(state, 0) == ["part:1", "stop"]


def test_without_ore_an_unarmed_dwarf_cannot_use_blacksmithing() -> None:
    state = _blacksmithing()
    assert "go:blacksmithing" not in keys(state, 0)


def test_rubies_make_up_missing_ore() -> None:
    state = _blacksmithing(ore=2, ruby=1)
    play(state, 0, "go:blacksmithing")
    assert keys(state, 0) == ["forge:1", "forge:2", "forge:3"]
    play(state, 0, "forge:3")
    player = state.players[0]
    assert (player.goods["ore"], player.goods["ruby"], player.dwarfs[0].weapon) == (0, 0, 3)


def test_the_blacksmith_saves_two_ore_but_eight_stays_the_most() -> None:
    state = _blacksmithing(ore=3)
    player = state.players[0]
    player.board.edit((3, 2)).furnishing = "blacksmith"
    assert forge_cost(player, 1) == {"ore": 0}
    assert forge_cost(player, 2) == {"ore": 0}
    assert forge_cost(player, 8) == {"ore": 6}
    assert forge_strengths(player, 0) == [1, 2, 3, 4, 5]
    give(state, 0, ore=10)
    assert max(forge_strengths(player, 0)) == 8


def test_an_armed_dwarf_does_not_forge_but_may_go_on_the_expedition() -> None:
    state = _blacksmithing(ore=8)
    state.players[0].dwarfs = [Dwarf(weapon=2), Dwarf(weapon=2)]
    assert forge_strengths(state.players[0], 0) == []
    play(state, 0, "go:blacksmithing")
    assert state.top(0) is not None and state.top(0).kind == "loot"  # type: ignore[union-attr]
    assert state.players[0].goods["ore"] == 8


def test_weapons_never_pass_fourteen() -> None:
    dwarf = Dwarf(weapon=13)
    strengthen(dwarf, 3)
    assert dwarf.weapon == 14
    unarmed = Dwarf()
    strengthen(unarmed)
    assert unarmed.weapon == 0
