"""Expeditions: loot by level and strength (checked before the weapon grows), different
items, +1 after each expedition, "+1 to all weapons", loot actions; the rulebook's worked
example of forging and an expedition."""

from __future__ import annotations

from engine.caverna.state import Dwarf, LootStep
from tests.engine.caverna.scenario import codes, give, keys, play, prompt, scripted


def test_rulebook_example_forge_seven_then_a_level_three_expedition() -> None:
    """10 ore, an unarmed dwarf on Blacksmithing: forge 7 (3 ore left), then a level-3
    expedition taking a dog, 2 gold and a furnishing (strengths 1, 6, 7); the weapon is
    8 afterwards."""
    state = scripted(3, cards={1: "blacksmithing"})
    give(state, 0, ore=10)
    player = state.players[0]
    play(state, 0, "go:blacksmithing", "forge:7")
    assert player.goods["ore"] == 3 and player.dwarfs[0].weapon == 7
    assert keys(state, 0) == ["part:1", "stop"]
    play(state, 0, "part:1")
    loot = keys(state, 0)
    assert {"loot:dog", "loot:gold", "loot:furnish"} <= set(loot)
    assert "loot:stable" not in loot  # needs strength 8
    play(state, 0, "loot:dog", "loot:gold")
    assert player.dwarfs[0].weapon == 7  # the +1 comes when the expedition is over
    # The third item fills the level: nothing is left to take, so the loot stands
    # without a confirmation.
    events = play(state, 0, "loot:furnish", "tile:dog_school")
    assert player.animals["dog"] == 1 and player.goods["gold"] == 2
    assert player.board.has_furnishing("dog_school")
    assert player.dwarfs[0].weapon == 8
    assert "expedition_back" in codes(events)
    assert state.turn == 1


def test_rulebook_example_strength_one_takes_plus_one_for_all_and_ends_at_three() -> None:
    """A strength-1 dwarf on a level-3 expedition takes +1 to all weapons, a dog and a
    wood: its weapon goes from 1 to 3."""
    state = scripted(3, cards={1: "blacksmithing"})
    state.players[0].dwarfs = [Dwarf(weapon=1), Dwarf(weapon=4)]
    play(state, 0, "go:blacksmithing")
    assert keys(state, 0) == ["loot:all_weapons", "loot:wood", "loot:dog", "done"]
    play(state, 0, "loot:all_weapons", "loot:dog", "loot:wood")  # the level is full
    assert [d.weapon for d in state.players[0].dwarfs] == [3, 5]
    assert state.players[0].goods["wood"] == 1


def test_each_item_once_and_at_most_the_level() -> None:
    state = scripted(3)
    state.players[0].dwarfs[0].weapon = 14
    step = LootStep(seat=0, dwarf=0, level=2, strength=14)
    state.push(step)
    from engine.caverna.loot import loot_choices

    assert "loot:wood" in keys(state, 0)
    play(state, 0, "loot:wood")
    assert "wood" not in loot_choices(state, step)
    events = play(state, 0, "loot:ore")
    # The level is full: the expedition is over, with nothing to confirm.
    assert "expedition_back" in codes(events)
    assert state.top(0) is None
    assert state.players[0].dwarfs[0].weapon == 14  # capped


def test_an_expedition_ended_early_still_strengthens_the_weapon() -> None:
    state = scripted(3, cards={1: "blacksmithing"})
    state.players[0].dwarfs = [Dwarf(weapon=2), Dwarf(weapon=2)]
    play(state, 0, "go:blacksmithing", "done")
    assert state.players[0].dwarfs[0].weapon == 3


def test_an_unarmed_dwarf_goes_on_no_expedition() -> None:
    state = scripted(3, cards={1: "exploration"})
    assert "go:exploration" not in keys(state, 0)
    state.players[0].dwarfs[1].weapon = 1
    give(state, 0, ruby=1)
    assert "dwarf:1" in keys(state, 0)


def test_loot_goods_animals_go_to_the_board() -> None:
    state = scripted(3)
    state.players[0].dwarfs[0].weapon = 10
    state.push(LootStep(seat=0, dwarf=0, level=4, strength=10))
    play(state, 0, "loot:sheep", "loot:cattle")
    # the entry dwelling holds a pair of one kind: keep the sheep or the cattle
    assert sorted(keys(state, 0)) == ["keep:cattle*1", "keep:sheep*1"]
    play(state, 0, "keep:cattle*1", "loot:ore", "loot:gold")
    player = state.players[0]
    assert (player.animals["cattle"], player.animals["sheep"]) == (1, 0)
    assert player.goods["food"] == 1 + 1  # start food, and the sheep
    assert player.goods["ore"] == 2 and player.goods["gold"] == 2


def test_loot_is_toggled_and_confirmed() -> None:
    """Taking an item hands its goods over at once; a goods item can be put back (a
    "back" option) while more may be taken, and the confirmation counts what was
    taken."""
    state = scripted(3)
    state.players[0].dwarfs[0].weapon = 6
    state.push(LootStep(seat=0, dwarf=0, level=3, strength=6))
    player = state.players[0]
    play(state, 0, "loot:gold", "loot:all_weapons")
    assert player.goods["gold"] == 2
    opts = prompt(state, 0).options
    assert [o.key for o in opts if o.back] == ["loot:gold", "loot:all_weapons"]
    assert opts[-1].label.args == {"taken": 2, "level": 3}
    events = play(state, 0, "loot:gold")
    assert "loot_returned" in codes(events) and player.goods["gold"] == 0
    assert "loot:gold" in keys(state, 0) and state.top(0).taken == ["all_weapons"]
    play(state, 0, "loot:wood", "done")
    assert player.goods["wood"] == 1 and [d.weapon for d in player.dwarfs] == [8, 0]


def test_the_loot_stands_once_nothing_is_left_to_take() -> None:
    """With the level full, putting back is all that would be left: the engine ends the
    expedition (the weapons grow) and asks for no confirmation."""
    state = scripted(3)
    state.players[0].dwarfs[0].weapon = 6
    state.push(LootStep(seat=0, dwarf=0, level=2, strength=6))
    player = state.players[0]
    events = play(state, 0, "loot:gold", "loot:all_weapons")
    assert codes(events)[-1] == "expedition_back" and state.top(0) is None
    assert player.goods["gold"] == 2 and [d.weapon for d in player.dwarfs] == [8, 0]


def test_loot_that_opened_a_decision_stays_taken() -> None:
    state = scripted(3)
    state.players[0].dwarfs[0].weapon = 12
    state.push(LootStep(seat=0, dwarf=0, level=3, strength=12))
    play(state, 0, "loot:wood", "loot:stable")
    assert state.top(0).kind == "board"  # where the stable goes
    play(state, 0, next(k for k in keys(state, 0) if k.startswith("stable:")))
    back = [o.key for o in prompt(state, 0).options if o.back]
    assert back == ["loot:wood"]


def test_a_dog_guarding_a_sheep_cannot_be_put_back() -> None:
    """Dogs on a bare meadow make room for sheep: with the sheep taken after the dog,
    returning the dog would leave the sheep homeless, so it stays taken."""
    state = scripted(3)
    player = state.players[0]
    player.board.edit((1, 1)).tile = "meadow"
    player.animals["wild_boar"] = 2  # the dwelling is full
    player.dwarfs[0].weapon = 3
    state.push(LootStep(seat=0, dwarf=0, level=3, strength=3))
    play(state, 0, "loot:dog", "loot:sheep")
    back = [o.key for o in prompt(state, 0).options if o.back]
    assert back == ["loot:sheep"]
    play(state, 0, "loot:sheep")
    assert [o.key for o in prompt(state, 0).options if o.back] == ["loot:dog"]
