"""The greedy autopilot's judgement: it ranks sensibly, feeds its family, grows it,
scores, and autopilot-only games end legally."""

from __future__ import annotations

import random
from dataclasses import dataclass

import pytest

from bot.table.autopilot import choose
from engine.caverna.caverna_game import CAVERNA, new_game
from engine.caverna.heuristic import hunger, open_action, position_value
from engine.caverna.state import CavernaState, Dwarf
from engine.core.prompts import Prompt

# Seeded 4-player autopilot games: the bounds hold with margin (these four games average
# about 42 points and 0.1 begging markers per player; other seeds 35-42 and 0-0.1).
GAMES = 4
MIN_AVERAGE = 30.0
MAX_BEGGING = 0.5


@dataclass
class Played:
    """An autopilot-only game: decisions taken, totals and begging markers by seat,
    and family sizes at the end."""

    actions: int
    totals: list[int]
    begging: list[int]
    dwarfs: list[int]


def greedy_game(players: int, seed: int) -> Played:
    """Every seat on the greedy autopilot; each choice must be one it was offered."""
    state = new_game(players, seed)
    rnd = random.Random(seed)
    actions = 0
    while prompts := CAVERNA.pending(state):
        prompt = prompts[0]
        key = choose(CAVERNA, state, prompt, "greedy", rnd)
        assert key in {o.key for o in prompt.options}
        CAVERNA.apply(state, prompt.seat, key)
        actions += 1
        assert not CAVERNA.invariants(state)
    result = CAVERNA.result(state)
    assert result is not None
    return Played(
        actions, [s.total for s in result.scores], [p.begging for p in state.players],
        [len(p.dwarfs) for p in state.players],
    )


@pytest.mark.parametrize("players", range(1, 8))
def test_autopilot_games_end(players: int) -> None:
    played = greedy_game(players, players)
    assert played.actions > 0 and len(played.totals) == players


def test_four_player_autopilot_games_score_feed_and_grow() -> None:
    games = [greedy_game(4, 3000 + i) for i in range(GAMES)]
    totals = [t for g in games for t in g.totals]
    begging = [b for g in games for b in g.begging]
    dwarfs = [d for g in games for d in g.dwarfs]
    assert sum(totals) / len(totals) > MIN_AVERAGE
    assert sum(begging) / len(begging) < MAX_BEGGING
    assert sum(dwarfs) / len(dwarfs) > 2.5  # families grow
    assert min(totals) > 0


def _midgame(seed: int, decisions: int) -> tuple[CavernaState, Prompt]:
    state = new_game(4, seed)
    rnd = random.Random(seed)
    for _ in range(decisions):
        prompt = CAVERNA.pending(state)[0]
        CAVERNA.apply(state, prompt.seat, choose(CAVERNA, state, prompt, "greedy", rnd))
    return state, CAVERNA.pending(state)[0]


def test_same_state_same_value_and_choice() -> None:
    state, prompt = _midgame(5, 60)
    copy = CAVERNA.load(CAVERNA.dump(state))
    assert position_value(state, prompt.seat) == position_value(copy, prompt.seat)
    keys = {choose(CAVERNA, CAVERNA.load(CAVERNA.dump(state)), prompt, "greedy",
                   random.Random(n)) for n in range(3)}
    assert len(keys) == 1  # the random tie-break never outweighs a real difference


def test_more_food_is_better_when_short() -> None:
    state = new_game(4, 1)
    before = position_value(state, 0)
    assert hunger(state, 0) > 0
    state.players[0].goods["food"] += 10
    assert hunger(state, 0) == 0
    assert position_value(state, 0) > before + 3


def test_hunger_presses_most_when_the_feeding_is_this_round_and_no_dwarf_is_left() -> None:
    state = new_game(4, 1)
    state.harvest = "harvest"
    state.phase = "work"
    early = hunger(state, 0)
    for dwarf in state.players[0].dwarfs:
        dwarf.at = "somewhere"
    assert hunger(state, 0) > early > 0


def test_a_bigger_family_is_better() -> None:
    state = new_game(4, 1)
    before = position_value(state, 1)
    state.players[1].goods["food"] += 20  # no hunger in either position
    fed = position_value(state, 1)
    state.players[1].dwarfs.append(Dwarf(born=True))
    assert position_value(state, 1) > fed > before


def test_begging_is_worse_than_its_points() -> None:
    state = new_game(4, 1)
    before = position_value(state, 0)
    state.players[0].begging = 1
    assert position_value(state, 0) < before - 3


def test_an_action_begun_counts_the_parts_still_to_do() -> None:
    state = new_game(4, 1)
    CAVERNA.apply(state, 0, "go:excavation_4_7")  # 2 stone and/or a cavern/tunnel twin
    keys = [o.key for o in CAVERNA.pending(state)[0].options]
    assert keys == ["part:0", "part:1"]
    waiting = open_action(state, 0)
    assert waiting > 0
    CAVERNA.apply(state, 0, "part:0")  # the stone is taken: less is still to come
    assert state.players[0].goods["stone"] == 2
    assert 0 <= open_action(state, 0) < waiting


def test_a_dwelling_is_worth_building_early_with_the_goods_at_hand() -> None:
    from engine.caverna.tile_worth import tile_gain
    from engine.caverna.valuation import horizon

    state = new_game(4, 1)
    player = state.players[0]
    player.goods.update(wood=4, stone=3)
    player.board.edit((4, 3)).tile = "cavern"  # a free cavern for it
    assert tile_gain(state, 0, "dwelling", horizon(state)) > 0


def test_a_newborn_early_is_worth_more_than_a_dwelling_without_it() -> None:
    from engine.caverna.valuation import growth_gain, horizon, room_gain

    state = new_game(4, 1)
    player = state.players[0]
    player.board.edit((3, 2)).furnishing = "dwelling"
    h = horizon(state)
    assert growth_gain(player, h) > room_gain(player, 1, h) > 0
