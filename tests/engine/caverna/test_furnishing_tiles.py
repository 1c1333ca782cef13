"""One small scenario per furnishing tile: furnish it through the flow (a furnishing step
opened for a solo player with goods to spare), then check what the reference says it
does — goods at once, room, animals kept, discounts, income, conversions, end points."""

from __future__ import annotations

from engine.caverna.animals import fits
from engine.caverna.bonus_tiles import bonus_points
from engine.caverna.components import components
from engine.caverna.draft_game import tally
from engine.caverna.family import max_dwarfs, room
from engine.caverna.feeding import discount, slaughter_bonus
from engine.caverna.flow import receive
from engine.caverna.spaces import furnish_cost, furnish_spots
from engine.caverna.state import BoardStep, CavernaState
from tests.engine.caverna.scenario import give, keys, play, scripted

PLENTY = {"wood": 20, "stone": 20, "ore": 10, "gold": 10, "grain": 5, "vegetable": 5,
          "food": 10}


def table(caverns: int = 0, **extra: int) -> CavernaState:
    """A solo game at its first decision with goods to spare (and ``extra``); with
    ``caverns`` more free caverns dug next to the starting cavern."""
    state = scripted(1)
    give(state, 0, **{**PLENTY, **extra})
    for pos in ((4, 2), (4, 3), (5, 2))[:caverns]:
        state.players[0].board.edit(pos).tile = "cavern"
    return state


def build(state: CavernaState, tile: str) -> dict[str, int]:
    """Furnish ``tile`` through a furnishing step; returns the goods' change."""
    before = dict(state.players[0].goods)
    state.push(BoardStep(seat=0, what="furnish", args={"scope": "any"}))
    for _ in range(6):
        if not isinstance(state.top(0), BoardStep):
            break
        options = keys(state, 0)
        block = f"block:{components().furnishings[tile].block}"
        if f"tile:{tile}" in options:
            play(state, 0, f"tile:{tile}")
        elif block in options:
            play(state, 0, block)
        else:
            play(state, 0, next(k for k in options if k.startswith("at:")))
    assert tile in state.players[0].board.furnishings
    after = state.players[0].goods
    return {g: after[g] - before[g] for g in after if after[g] != before[g]}


# ----- dwellings: room for dwarfs


def test_dwelling_costs_4_wood_3_stone_and_houses_one_more_dwarf() -> None:
    state = table()
    before = room(state.players[0])
    assert build(state, "dwelling") == {"wood": -4, "stone": -3}
    assert room(state.players[0]) == before + 1


def test_mixed_dwelling_houses_one_more_dwarf() -> None:
    state = table()
    before = room(state.players[0])
    assert build(state, "mixed_dwelling") == {"wood": -5, "stone": -4}
    assert room(state.players[0]) == before + 1


def test_couple_dwelling_houses_two_more_dwarfs() -> None:
    state = table()
    before = room(state.players[0])
    assert build(state, "couple_dwelling") == {"wood": -8, "stone": -6}
    assert room(state.players[0]) == before + 2


def test_additional_dwelling_raises_the_limit_to_six() -> None:
    state = table()
    assert max_dwarfs(state.players[0]) == 5
    build(state, "additional_dwelling")
    assert max_dwarfs(state.players[0]) == 6


# ----- rooms


def most(state: CavernaState, kind: str, dwarfs: int) -> int:
    """How many animals of ``kind`` the seat's board keeps."""
    n = 0
    while fits(state.players[0].board, {kind: n + 1}, dwarfs):
        n += 1
    return n


def test_cuddle_room_keeps_as_many_sheep_as_dwarfs() -> None:
    state = table()
    before = {d: most(state, "sheep", d) for d in (2, 3, 5)}
    build(state, "cuddle_room")
    assert {d: most(state, "sheep", d) for d in (2, 3, 5)} == {
        d: n + d for d, n in before.items()
    }
    assert most(state, "cattle", 2) == 2  # sheep only: the entry dwelling's pair


def test_breakfast_room_keeps_three_cattle() -> None:
    state = table()
    before = most(state, "cattle", 2)
    build(state, "breakfast_room")
    assert most(state, "cattle", 2) == before + 3
    assert most(state, "sheep", 2) == before


def test_work_room_lets_tunnels_be_furnished() -> None:
    state = table()
    state.players[0].board.edit((4, 3)).tile = "tunnel"
    assert (4, 3) not in furnish_spots(state, 0)
    build(state, "work_room")
    state.players[0].board.edit((4, 2)).tile = "tunnel"
    assert (4, 2) in furnish_spots(state, 0)


# ----- building-material tiles


def test_carpenter_saves_one_wood_on_furnishing_and_fences() -> None:
    state = table()
    build(state, "carpenter")
    player = state.players[0]
    assert discount(player, "furnish") == {"wood": 1}
    assert discount(player, "fences") == {"wood": 1}
    assert furnish_cost(player, "dwelling") == {"wood": 3, "stone": 3}


def test_stone_carver_gives_two_stone_and_saves_one_on_furnishing_and_stables() -> None:
    state = table()
    assert build(state, "stone_carver") == {"wood": -1, "stone": 2}
    player = state.players[0]
    assert discount(player, "stable") == {"stone": 1}
    assert furnish_cost(player, "dwelling") == {"wood": 4, "stone": 2}


def test_blacksmith_gives_two_ore_and_saves_two_on_forging() -> None:
    state = table()
    assert build(state, "blacksmith") == {"wood": -1, "stone": -2, "ore": 2}
    assert discount(state.players[0], "forge") == {"ore": 2}


def test_suppliers_put_goods_on_the_next_rounds() -> None:
    for tile, good, rounds in (("wood_supplier", "wood", 7), ("stone_supplier", "stone", 5),
                               ("ruby_supplier", "ruby", 4)):
        state = table()
        build(state, tile)
        income = state.players[0].income
        later = sorted(r for r in income if income[r].get(good))
        assert len(later) == rounds, tile
        assert all(r > state.round for r in later)
        assert later == sorted(r for r in state.rounds if r > state.round)[:rounds]


def test_dog_school_gives_a_wood_for_each_new_dog() -> None:
    state = table()
    build(state, "dog_school")
    wood = state.players[0].goods["wood"]
    receive(state, 0, {"dog": 2}, [])
    assert state.players[0].goods["wood"] == wood + 2


def test_seam_gives_an_ore_for_each_new_stone() -> None:
    state = table()
    build(state, "seam")
    ore = state.players[0].goods["ore"]
    receive(state, 0, {"stone": 3}, [])
    assert state.players[0].goods["ore"] == ore + 3


# ----- food tiles


def test_slaughtering_cave_gives_one_more_food_per_animal() -> None:
    state = table()
    assert slaughter_bonus(state.players[0]) == 0
    build(state, "slaughtering_cave")
    assert slaughter_bonus(state.players[0]) == 1


# ----- parlors: goods when furnished


def test_weaving_parlor_gives_a_food_per_sheep_when_furnished() -> None:
    state = table(caverns=1)
    build(state, "cuddle_room")
    give(state, 0, sheep=2)
    assert build(state, "weaving_parlor") == {"wood": -2, "stone": -1, "food": 2}


def test_milking_parlor_gives_a_food_per_cattle_when_furnished() -> None:
    state = table(caverns=1)
    build(state, "breakfast_room")
    give(state, 0, cattle=3)
    assert build(state, "milking_parlor") == {"wood": -2, "stone": -2, "food": 3}


def test_state_parlor_gives_two_food_per_neighbouring_dwelling() -> None:
    state = table()
    # The only free cavern (3,2) touches the entry-level dwelling at the entrance.
    assert build(state, "state_parlor") == {"gold": -5, "stone": -3, "food": 2}


# ----- end points (yellow tiles)


def _bonus(state: CavernaState, tile: str) -> int:
    return bonus_points(tally(state, 0)).get(tile, 0)


def test_stone_storage_scores_a_point_per_stone() -> None:
    state = table()
    build(state, "stone_storage")
    assert _bonus(state, "stone_storage") == state.players[0].goods["stone"]


def test_ore_storage_scores_a_point_per_two_ore() -> None:
    state = table()
    build(state, "ore_storage")
    assert _bonus(state, "ore_storage") == state.players[0].goods["ore"] // 2


def test_treasure_chamber_scores_a_point_per_ruby() -> None:
    state = table(ruby=3)
    build(state, "treasure_chamber")
    assert _bonus(state, "treasure_chamber") == 3


def test_prayer_chamber_scores_eight_with_no_armed_dwarf() -> None:
    state = table()
    build(state, "prayer_chamber")
    assert _bonus(state, "prayer_chamber") == 8
    state.players[0].dwarfs[0].weapon = 1
    assert _bonus(state, "prayer_chamber") == 0


def test_supplies_storage_scores_eight_when_every_dwarf_is_armed() -> None:
    state = table()
    build(state, "supplies_storage")
    assert _bonus(state, "supplies_storage") == 0
    for dwarf in state.players[0].dwarfs:
        dwarf.weapon = 1
    assert _bonus(state, "supplies_storage") == 8


def test_weapon_storage_scores_three_per_armed_dwarf() -> None:
    state = table()
    build(state, "weapon_storage")
    state.players[0].dwarfs[0].weapon = 2
    assert _bonus(state, "weapon_storage") == 3
