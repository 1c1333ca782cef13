"""Family growth: room in dwellings, at most 5 dwarfs (6 with the Additional dwelling),
one growth per action, the newborn works from the next round."""

from __future__ import annotations

from engine.caverna.family import can_grow, max_dwarfs, room
from engine.caverna.state import Dwarf, Player
from tests.engine.caverna.scenario import give, keys, play, scripted


def _with(*tiles: str) -> Player:
    player = Player()
    for i, tile in enumerate(tiles):
        space = player.board.edit((4 + i % 2, i // 2))
        space.tile = "cavern"
        space.furnishing = tile
    return player


def test_the_entry_dwelling_houses_two() -> None:
    player = Player()
    assert room(player) == 2
    assert not can_grow(player)


def test_each_dwelling_adds_its_room() -> None:
    player = _with("dwelling", "couple_dwelling", "simple_dwelling_3w3s")
    assert room(player) == 6
    assert can_grow(player)


def test_never_more_than_five_without_the_additional_dwelling() -> None:
    player = _with("dwelling", "couple_dwelling", "mixed_dwelling", "simple_dwelling_4w2s")
    player.dwarfs = [Dwarf() for _ in range(5)]
    assert room(player) == 7 and max_dwarfs(player) == 5
    assert not can_grow(player)


def test_the_additional_dwelling_only_serves_a_sixth_dwarf() -> None:
    player = _with("additional_dwelling")
    assert room(player) == 2 and not can_grow(player)
    player = _with("additional_dwelling", "dwelling", "dwelling", "dwelling")
    player.dwarfs = [Dwarf() for _ in range(5)]
    assert max_dwarfs(player) == 6 and can_grow(player)
    player.dwarfs.append(Dwarf())
    assert not can_grow(player)


def test_family_life_brings_a_newborn_that_works_next_round() -> None:
    state = scripted(3, cards={1: "family_life"})
    player = state.players[0]
    player.board.edit((3, 1)).tile = "cavern"
    player.board.edit((3, 1)).furnishing = "dwelling"
    play(state, 0, "go:family_life")
    assert [d.born for d in player.dwarfs] == [False, False, True]
    assert player.home() == [1]
    assert state.turn == 1


def test_without_room_family_life_is_closed() -> None:
    state = scripted(3, cards={1: "family_life"})
    assert "go:family_life" not in keys(state, 0)


def test_urgent_wish_furnishes_a_dwelling_then_may_grow() -> None:
    state = scripted(3, cards={1: "urgent_wish_for_children"})
    give(state, 0, wood=4, stone=3)
    play(state, 0, "go:urgent_wish_for_children")
    assert keys(state, 0) == ["part:0", "part:1"]
    play(state, 0, "part:0")
    assert "tile:dwelling" in keys(state, 0)
    play(state, 0, "tile:dwelling")
    assert keys(state, 0) == ["part:1", "stop"]
    play(state, 0, "part:1")
    assert len(state.players[0].dwarfs) == 3
    assert state.players[0].goods["wood"] == 0


def test_wish_for_children_is_growth_or_a_dwelling() -> None:
    state = scripted(3, cards={1: "wish_for_children"})
    give(state, 0, wood=4, stone=3)
    play(state, 0, "go:wish_for_children")
    # no room: only the dwelling, taken at once as the one possible part
    assert keys(state, 0)[0].startswith("tile:")
    play(state, 0, "tile:dwelling")
    assert len(state.players[0].dwarfs) == 2
    assert state.turn == 1
