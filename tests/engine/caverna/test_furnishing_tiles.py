"""One small scenario per furnishing tile: furnish it through the flow (a furnishing step
opened for a solo player with goods to spare), then check what the reference says it
does — goods at once, room, animals kept, discounts, income, conversions, end points.

Every test is named ``test_<tile id>_…``; ``test_every_tile_has_its_own_scenario`` fails
when a tile of ``furnishings.yaml`` has none. The wording each test checks is the
reference's (../shared/reference/caverna.yaml, ``furnishing_tiles``)."""

from __future__ import annotations

from engine.caverna.animals import fits
from engine.caverna.bonus_tiles import bonus_points
from engine.caverna.breeding import born
from engine.caverna.components import components
from engine.caverna.family import max_dwarfs, room
from engine.caverna.feeding import discount, food_needed, slaughter_bonus
from engine.caverna.landscape import placements
from engine.caverna.receiving import receive
from engine.caverna.rounds import take_income
from engine.caverna.scoring import score
from engine.caverna.spaces import furnish_cost, furnish_spots, taken_tiles
from engine.caverna.state import (
    BoardStep,
    CavernaState,
    Dwarf,
    ExchangeStep,
    FeedStep,
    FurnishArgs,
    FurnishStep,
    GroupStep,
    TwinArgs,
    TwinTileStep,
)
from engine.caverna.view import tally
from tests.engine.caverna.scenario import codes, give, keys, play, scripted

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
    state.push(FurnishStep(seat=0, args=FurnishArgs(scope="any")))
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


def _houses_more(state: CavernaState, tile: str, paid: dict[str, int], more: int) -> None:
    """Building ``tile`` changes the goods by ``paid`` and houses ``more`` more dwarfs."""
    before = room(state.players[0])
    assert build(state, tile) == paid
    assert room(state.players[0]) == before + more


def test_dwelling_costs_4_wood_3_stone_and_houses_one_more_dwarf() -> None:
    _houses_more(table(), "dwelling", {"wood": -4, "stone": -3}, 1)


def test_mixed_dwelling_houses_one_more_dwarf() -> None:
    _houses_more(table(), "mixed_dwelling", {"wood": -5, "stone": -4}, 1)


def test_couple_dwelling_houses_two_more_dwarfs() -> None:
    _houses_more(table(), "couple_dwelling", {"wood": -8, "stone": -6}, 2)


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


def _supplier(tile: str, good: str, rounds: int) -> None:
    """``tile`` puts 1 ``good`` on each of the next ``rounds`` round spaces."""
    state = table()
    build(state, tile)
    income = state.players[0].income
    later = sorted(r for r in income if income[r].get(good))
    assert [income[r][good] for r in later] == [1] * rounds, tile
    assert later == sorted(r for r in state.rounds if r > state.round)[:rounds]


def test_wood_supplier_puts_a_wood_on_each_of_the_next_seven_rounds() -> None:
    _supplier("wood_supplier", "wood", 7)


def test_stone_supplier_puts_a_stone_on_each_of_the_next_five_rounds() -> None:
    _supplier("stone_supplier", "stone", 5)


def test_ruby_supplier_puts_a_ruby_on_each_of_the_next_four_rounds() -> None:
    _supplier("ruby_supplier", "ruby", 4)


def _one_for_each_new(tile: str, received: str, gained: str, count: int) -> None:
    """With ``tile`` built, ``count`` ``received`` coming in bring as many ``gained``."""
    state = table()
    build(state, tile)
    before = state.players[0].goods[gained]
    receive(state, 0, {received: count}, [])
    assert state.players[0].goods[gained] == before + count


def test_dog_school_gives_a_wood_for_each_new_dog() -> None:
    _one_for_each_new("dog_school", "dog", "wood", 2)


def test_seam_gives_an_ore_for_each_new_stone() -> None:
    _one_for_each_new("seam", "stone", "ore", 3)


def test_seam_adds_an_ore_to_the_stone_a_supplier_brings() -> None:
    state = table()
    build(state, "seam")
    player = state.players[0]
    player.income[state.round] = {"stone": 1}  # as the Stone supplier leaves it
    stone, ore = player.goods["stone"], player.goods["ore"]
    take_income(state, [])
    assert (player.goods["stone"], player.goods["ore"]) == (stone + 1, ore + 1)


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
    return bonus_points(tally(state.players[0])).get(tile, 0)


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


# ===== the rest of the 48 tiles ==========================================================


def _score(state: CavernaState) -> dict[str, int]:
    return score(tally(state.players[0]))


# ----- dwellings


def test_simple_dwelling_4w2s_houses_a_dwarf_for_4_wood_2_stone_and_scores_nothing() -> None:
    state = table()
    printed = _score(state)["furnishings"]
    _houses_more(state, "simple_dwelling_4w2s", {"wood": -4, "stone": -2}, 1)
    assert _score(state)["furnishings"] == printed


def test_simple_dwelling_3w3s_houses_a_dwarf_for_3_wood_3_stone_and_scores_nothing() -> None:
    state = table()
    printed = _score(state)["furnishings"]
    _houses_more(state, "simple_dwelling_3w3s", {"wood": -3, "stone": -3}, 1)
    assert _score(state)["furnishings"] == printed


# ----- rooms


FIELDS = ((0, 3), (0, 1))  # forest spaces turned into fields for the Stubble room


def test_stubble_room_keeps_one_farm_animal_on_each_empty_field() -> None:
    state = table()
    board = state.players[0].board
    for pos in FIELDS:
        board.edit(pos).tile = "field"
    before = most(state, "cattle", 2)
    build(state, "stubble_room")
    assert most(state, "cattle", 2) == before + 2
    sown = board.edit(FIELDS[0])
    sown.crop, sown.crop_count = "grain", 3
    assert most(state, "cattle", 2) == before + 1  # a sown field keeps no animal


def _group(state: CavernaState, space: str) -> None:
    """Open ``space``'s action for the solo player's first dwarf."""
    state.push(GroupStep(seat=0, dwarf=0, space=space))


def _lay_any(state: CavernaState) -> None:
    """Lay the twin tile the open step asks for, at the first place offered."""
    while isinstance(state.top(0), BoardStep):
        options = keys(state, 0)
        key = next((k for k in options if k.startswith("lay:")), None)
        play(state, 0, key or next(k for k in options if k.startswith("at:")))


def test_guest_room_makes_either_or_and_or() -> None:
    state = table(caverns=1)
    build(state, "dwelling")  # room for a third dwarf
    _group(state, "growth")  # either the supplies or family growth
    play(state, 0, "part:0")
    assert not isinstance(state.top(0), GroupStep)  # either … or: done after one
    assert len(state.players[0].dwarfs) == 2

    state = table(caverns=1)
    build(state, "dwelling")
    build(state, "guest_room")
    _group(state, "growth")
    play(state, 0, "part:0")
    assert keys(state, 0) == ["part:1", "stop"]
    play(state, 0, "part:1")
    assert len(state.players[0].dwarfs) == 3


def test_guest_room_takes_both_halves_of_extension_once_per_game() -> None:
    state = table()
    build(state, "guest_room")
    _group(state, "extension")
    play(state, 0, "part:0")
    _lay_any(state)
    assert keys(state, 0) == ["part:1", "stop"]
    play(state, 0, "part:1")
    _lay_any(state)
    assert state.players[0].spent == ["guest_room:extension"]
    assert not isinstance(state.top(0), GroupStep)
    _group(state, "extension")  # the second time: one half only
    play(state, 0, "part:0")
    _lay_any(state)
    assert not isinstance(state.top(0), GroupStep)


def test_office_room_lets_a_twin_overhang_for_two_gold() -> None:
    state = table()
    board = state.players[0].board
    assert not [p for p in placements(board, "meadow_field") if p.overhangs]
    build(state, "office_room")
    over = next(p for p in placements(board, "meadow_field") if p.overhangs)
    gold = state.players[0].goods["gold"]
    state.push(TwinTileStep(seat=0, args=TwinArgs(kinds=["meadow_field"])))
    if f"lay:meadow_field:{over.key}" not in keys(state, 0):
        play(state, 0, f"at:{over.key.split('+')[0]}")
    play(state, 0, f"lay:meadow_field:{over.key}")
    assert state.players[0].goods["gold"] == gold + 2


# ----- building-material tiles


def test_miner_gives_an_ore_per_donkey_in_an_ore_mine_each_round() -> None:
    state = table()
    build(state, "miner")
    board = state.players[0].board
    board.edit((5, 3)).tile = "ore_mine"
    board.edit((5, 2)).tile = "ruby_mine"
    give(state, 0, donkey=2)
    ore = state.players[0].goods["ore"]
    take_income(state, [])
    assert state.players[0].goods["ore"] == ore + 1  # the ruby mine's donkey gives none


def test_builder_lets_ore_stand_for_a_wood_and_a_stone_when_furnishing() -> None:
    state = table(caverns=1)
    build(state, "builder")
    player = state.players[0]
    player.goods.update(wood=3, stone=2, ore=2, ruby=0)
    # 4 wood 3 stone: payable only with ore for both, the one way (not asked)
    _choose_dwelling(state)
    assert player.goods["wood"] == 0 and player.goods["stone"] == 0
    assert player.goods["ore"] == 0
    assert "dwelling" in player.board.furnishings


def test_builder_offers_the_plain_bill_and_each_substitution() -> None:
    state = table(caverns=1)
    build(state, "builder")
    _choose_dwelling(state)
    assert keys(state, 0) == ["ore:none", "ore:wood", "ore:stone", "ore:wood+stone", "back"]
    assert build_diff(state, "ore:stone") == {"wood": -4, "stone": -2, "ore": -1}


def _choose_dwelling(state: CavernaState) -> None:
    """Open a furnishing step and choose the Dwelling (through its block if asked)."""
    state.push(FurnishStep(seat=0, args=FurnishArgs(scope="any")))
    if "tile:dwelling" not in keys(state, 0):
        play(state, 0, "block:1")
    play(state, 0, "tile:dwelling")  # one free cavern: no question where


def build_diff(state: CavernaState, key: str) -> dict[str, int]:
    before = dict(state.players[0].goods)
    play(state, 0, key)
    after = state.players[0].goods
    return {g: after[g] - before[g] for g in after if after[g] != before[g]}


def test_trader_buys_wood_stone_and_ore_for_two_gold() -> None:
    state = table()
    build(state, "trader")
    assert _trade(state, "swap:trader:0") == {"gold": -2, "wood": 1, "stone": 1, "ore": 1}


def test_trader_goes_on_top_of_the_spare_part_storage() -> None:
    state = table(caverns=1)
    build(state, "spare_part_storage")
    spot = state.players[0].board.furnishing_at("spare_part_storage")
    build(state, "trader")
    player = state.players[0]
    assert player.board.furnishing_at("trader") == spot
    assert "spare_part_storage" not in player.board.furnishings
    assert player.covered == ["spare_part_storage"]
    assert len(player.board.empty_caverns()) == 1  # the free cavern stays free
    assert [k for k in keys(state, 0) if k == "exchange"]
    play(state, 0, "exchange")
    assert not [k for k in keys(state, 0) if k.startswith("swap:spare_part_storage")]
    play(state, 0, "back")


def test_spare_part_storage_sells_wood_stone_and_ore_for_two_gold() -> None:
    state = table()
    build(state, "spare_part_storage")
    assert _trade(state, "swap:spare_part_storage:0") == {
        "gold": 2, "wood": -1, "stone": -1, "ore": -1,
    }


def test_spare_part_storage_covers_the_trader_and_takes_its_points() -> None:
    state = table()
    build(state, "trader")
    printed = _score(state)["furnishings"]
    assert not state.players[0].board.empty_caverns()  # no free cavern: still possible
    build(state, "spare_part_storage")
    assert _score(state)["furnishings"] == printed - 2  # the Trader's 2 points are gone
    assert "trader" in taken_tiles(state)  # and it does not go back to the supply


def _trade(state: CavernaState, key: str) -> dict[str, int]:
    """Carry out the any-time trade ``key`` from the work turn; returns the change. The
    one trade open is made on opening the trades (nothing else to choose)."""
    before = dict(state.players[0].goods)
    made = "disarmed" if key.startswith("disarm:") else "swapped"
    events = play(state, 0, "exchange")
    if made not in codes(events):  # several trades open: this one is pressed
        events = play(state, 0, key)
    assert codes(events).count(made) == 1
    after = state.players[0].goods
    if isinstance(state.top(0), ExchangeStep):  # closes by itself when nothing is left
        play(state, 0, "back")
    return {g: after[g] - before[g] for g in after if after[g] != before[g]}


def test_quarry_gives_a_stone_per_newborn_donkey() -> None:
    state = table()
    build(state, "quarry")
    stone = state.players[0].goods["stone"]
    receive(state, 0, {"donkey": 1}, [])  # a donkey taken, not born: nothing
    assert state.players[0].goods["stone"] == stone
    born(state, 0, {"donkey": 1, "sheep": 1}, [])
    assert state.players[0].goods["stone"] == stone + 1


# ----- food tiles


def test_cooking_cave_turns_a_grain_and_a_vegetable_into_five_food() -> None:
    state = table()
    build(state, "cooking_cave")
    assert _trade(state, "swap:cooking_cave:0") == {"grain": -1, "vegetable": -1, "food": 5}


def test_working_cave_feeds_one_dwarf_with_a_wood_a_stone_or_two_ore() -> None:
    state = table()
    build(state, "working_cave")
    player = state.players[0]
    player.goods["food"] = 0
    state.push(FeedStep(seat=0, need=4))
    assert {"work:wood", "work:stone", "work:ore"} <= set(keys(state, 0))
    ore = player.goods["ore"]
    play(state, 0, "work:ore")
    assert player.goods["ore"] == ore - 2
    top = state.top(0)
    assert isinstance(top, FeedStep) and top.need == 2
    assert not [k for k in keys(state, 0) if k.startswith("work:")]  # one dwarf only


def test_mining_cave_feeds_one_less_per_donkey_in_a_mine() -> None:
    state = table()
    player = state.players[0]
    board = player.board
    board.edit((5, 3)).tile = "ore_mine"
    board.edit((5, 2)).tile = "ruby_mine"
    give(state, 0, donkey=3)
    assert food_needed(player, 2) == 4
    build(state, "mining_cave")
    assert food_needed(player, 2) == 2  # two mines: two donkeys count
    assert food_needed(player, 1) == 0


def test_breeding_cave_gives_food_by_the_number_of_newborns() -> None:
    for young, food in (({"sheep": 1}, 1), ({"sheep": 1, "donkey": 1}, 2),
                        ({"sheep": 1, "donkey": 1, "cattle": 1}, 3),
                        ({"sheep": 1, "donkey": 1, "cattle": 1, "wild_boar": 1}, 5)):
        state = table()
        build(state, "breeding_cave")
        before = state.players[0].goods["food"]
        born(state, 0, young, [])
        assert state.players[0].goods["food"] == before + food, young


def test_peaceful_cave_turns_a_weapon_into_food() -> None:
    state = table()
    build(state, "peaceful_cave")
    state.players[0].dwarfs[1].weapon = 5
    assert _trade(state, "disarm:1") == {"food": 5}
    assert state.players[0].dwarfs[1].weapon == 0


# ----- parlors: trades before scoring


def test_hunting_parlor_trades_two_wild_boars_for_two_gold_and_two_food() -> None:
    state = table(caverns=1)
    build(state, "slaughtering_cave")  # gives nothing extra here: a trade, not a slaughter
    build(state, "hunting_parlor")
    give(state, 0, wild_boar=2)
    assert _trade(state, "swap:hunting_parlor:0") == {"gold": 2, "food": 2}
    assert state.players[0].animals["wild_boar"] == 0


def test_beer_parlor_trades_two_grain_for_three_gold_or_four_food() -> None:
    state = table()
    build(state, "beer_parlor")
    assert _trade(state, "swap:beer_parlor:0") == {"grain": -2, "gold": 3}
    assert _trade(state, "swap:beer_parlor:1") == {"grain": -2, "food": 4}


def test_blacksmithing_parlor_trades_a_ruby_and_an_ore_for_two_gold_and_a_food() -> None:
    state = table(ruby=1)
    build(state, "blacksmithing_parlor")
    assert _trade(state, "swap:blacksmithing_parlor:0") == {
        "ruby": -1, "ore": -1, "gold": 2, "food": 1,
    }


# ----- storages and chambers: end points


def test_main_storage_scores_two_per_yellow_tile_itself_included() -> None:
    state = table(caverns=1)
    build(state, "main_storage")
    assert _bonus(state, "main_storage") == 2
    build(state, "prayer_chamber")
    assert _bonus(state, "main_storage") == 4


def test_broom_chamber_scores_five_for_five_dwarfs_and_ten_for_six() -> None:
    state = table()
    build(state, "broom_chamber")
    dwarfs = state.players[0].dwarfs
    assert _bonus(state, "broom_chamber") == 0
    dwarfs += [Dwarf(), Dwarf()]
    assert _bonus(state, "broom_chamber") == 0  # four dwarfs
    dwarfs.append(Dwarf())
    assert _bonus(state, "broom_chamber") == 5
    dwarfs.append(Dwarf())
    assert _bonus(state, "broom_chamber") == 10


def test_food_chamber_scores_two_per_grain_and_vegetable_pair() -> None:
    state = table()
    build(state, "food_chamber")  # costs 2 vegetables: 3 left
    player = state.players[0]
    player.goods.update(grain=5, vegetable=3)
    assert _bonus(state, "food_chamber") == 6
    field = player.board.edit((0, 3))
    field.tile, field.crop, field.crop_count = "field", "vegetable", 2
    assert _bonus(state, "food_chamber") == 10  # sown vegetables count too


def test_writing_chamber_cancels_up_to_seven_negative_points() -> None:
    state = table()
    state.players[0].begging = 2  # −6 and no animals (−8), unused spaces
    before = _score(state)
    build(state, "writing_chamber")
    after = _score(state)
    negative = ("missing_animals", "unused_spaces", "begging")
    assert sum(after[k] for k in negative) == sum(before[k] for k in negative) + 7


def test_fodder_chamber_scores_a_point_per_three_farm_animals() -> None:
    state = table(caverns=1)
    build(state, "breakfast_room")
    build(state, "fodder_chamber")
    give(state, 0, cattle=3, sheep=2, dog=3)
    assert _bonus(state, "fodder_chamber") == 1  # 5 farm animals; dogs do not count
    give(state, 0, cattle=0, sheep=1)
    assert _bonus(state, "fodder_chamber") == 2


# ----- every tile has its scenario


def test_every_tile_has_its_own_scenario() -> None:
    names = [n for n in globals() if n.startswith("test_")]
    missing = [t for t in components().furnishings
               if not any(n.startswith(f"test_{t}_") for n in names)]
    assert missing == []
