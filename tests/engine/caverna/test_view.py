"""The view: every public fact the pictures and texts need, as a typed model that
round-trips through JSON, and nothing of the future (the face-down round cards' order,
the face-down harvest markers)."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from engine.caverna.caverna_game import CAVERNA, new_game
from engine.caverna.components import components
from engine.caverna.scoring import SCORE_SHEET
from engine.caverna.state import CavernaState
from engine.caverna.view import secrets, view
from engine.caverna.view_model import CavernaView, HarvestRound
from engine.core.conformance import leaks
from tests.engine.round_trip import random_moves


def played(players: int, seed: int, actions: int) -> CavernaState:
    """A game after ``actions`` random legal actions (or at its end)."""
    state = new_game(players, seed)
    random_moves(CAVERNA, state, random.Random(seed), actions)
    return state


def strings(value: Any) -> set[str]:
    """Every string (keys included) anywhere in ``value``."""
    found: set[str] = set()
    if isinstance(value, str):
        found.add(value)
    elif isinstance(value, dict):
        for k, v in value.items():
            found.add(str(k))
            found |= strings(v)
    elif isinstance(value, list):
        for v in value:
            found |= strings(v)
    return found


def test_a_new_game_shows_the_table() -> None:
    state = new_game(4, 1)
    v = view(state, 2)
    json.dumps(v.model_dump(mode="json"))
    assert v.seat == 2 and v.player_count == 4 and v.round == 1
    assert v.phase == "work" and v.first == 0 and v.deciding == [0]
    assert [s.id for s in v.spaces] == [s.id for s in state.spaces]
    card = v.spaces[-1]
    assert card.card_round == 1 and card.stage == 1
    assert v.cards.face_down == 11
    assert [u.round for u in v.cards.upcoming] == list(range(2, 13))
    assert v.harvest.face_down == 7 and v.harvest.reds_left == 3
    assert v.harvest.schedule[2] == HarvestRound(round=3, kind="harvest")
    assert v.harvest.schedule[5] == HarvestRound(round=6, kind="face_down", marker=None)
    # A round without a marker and a round with one still face down tell apart.
    assert not v.harvest.schedule[2].has_marker and v.harvest.schedule[5].has_marker
    me = v.players[3]
    assert me.goods["food"] == 3 and me.room == 2 and me.max_dwarfs == 5
    assert [d.weapon for d in me.dwarfs] == [0, 0]
    assert len(me.board.spaces) == 24 and me.board.unused == 22
    entry = next(s for s in me.board.spaces if s.at == "3,3")
    assert entry.furnishing == "entry_level_dwelling" and entry.half == "mountain"
    boar = next(s for s in me.board.spaces if s.at == "2,0")
    assert boar.bonus == {"wild_boar": 1}
    score = me.score.model_dump(mode="json")
    assert list(score) == [*SCORE_SHEET, "total"]
    assert score["total"] == sum(score[k] for k in SCORE_SHEET)


def test_the_furnishing_supply_lists_costs_points_and_what_is_left() -> None:
    v = view(new_game(2, 3), None)
    tiles = {t.id: t for t in v.furnishings.tiles}
    assert v.furnishings.set == "official" and v.official is True
    assert len(tiles) == 48
    assert tiles["dwelling"].left is None
    assert tiles["dwelling"].cost == {"wood": 4, "stone": 3}
    assert tiles["dwelling"].points == 3
    assert all(t.left == 1 for i, t in tiles.items() if i != "dwelling")


def test_the_beginner_set_is_marked_unofficial() -> None:
    v = view(new_game(3, 3, {"furnishings": "beginner"}), 0)
    assert v.official is False and v.furnishings.set == "beginner"
    assert len(v.furnishings.tiles) == 27


def test_occupied_spaces_name_their_dwarf() -> None:
    state = played(3, 4, 30)
    v = view(state, None)
    for space in v.spaces:
        if space.occupant is not None:
            dwarf = v.players[space.occupant.seat].dwarfs[space.occupant.dwarf]
            assert dwarf.at == space.id


def test_turned_markers_show_and_face_down_ones_do_not() -> None:
    state = played(4, 8, 100_000)
    assert state.phase == "over"
    v = view(state, 1)
    turned = v.harvest.revealed
    assert [m.round for m in turned] == list(range(6, 13))
    assert sum(m.marker == "red" for m in turned) == 3
    reds = [m.kind for m in turned if m.marker == "red"]
    assert reds == ["none", "feed1", "choice"]  # the reds' events in the order turned
    assert v.harvest.face_down == 0 and v.cards.face_down == 0


@pytest.mark.parametrize("players", [1, 2, 4, 7])
def test_no_view_tells_the_future(players: int) -> None:
    state = new_game(players, 11)
    rnd = random.Random(players)
    while CAVERNA.pending(state):
        for seat in [None, *range(players)]:
            v = view(state, seat)
            for secret in secrets(state, seat):
                assert not leaks(v, secret)
            shown = strings(v.model_dump(mode="json"))
            # No face-down card's id anywhere, nor a colour for a face-down marker.
            assert not shown & set(state.cards.values())
            for entry in v.harvest.schedule:
                if entry.round in state.markers:
                    assert entry.marker is None
        prompt = rnd.choice(CAVERNA.pending(state))
        for _ in range(40):
            CAVERNA.apply(state, prompt.seat, rnd.choice(prompt.options).key)
            prompts = CAVERNA.pending(state)
            if not prompts:
                break
            prompt = rnd.choice(prompts)


def test_views_of_two_deals_differ_only_where_the_table_does() -> None:
    # Two games whose deals differ in future cards only look the same before turning.
    a, b = new_game(4, 1), new_game(4, 1)
    b.cards = dict(zip(sorted(b.cards), reversed(list(b.cards.values())), strict=True))
    b.markers = dict(zip(sorted(b.markers), reversed(list(b.markers.values())), strict=True))
    assert view(a, 0) == view(b, 0)


def test_round_cards_name_their_stage() -> None:
    v = view(new_game(5, 2), 0)
    stages = {u.round: u.stage for u in v.cards.upcoming}
    assert stages[4] == 2 and stages[12] == 4
    assert components().round_cards[new_game(5, 2).cards[12]].stage == 4


def test_a_covered_tile_stays_out_of_the_supply() -> None:
    """The Trader laid on the Spare part storage covers it: it never returns."""
    state = new_game(3, 1)
    player = state.players[1]
    player.board.edit((3, 2)).tile = "cavern"
    player.board.edit((3, 2)).furnishing = "trader"
    player.covered.append("spare_part_storage")
    tiles = {t.id: t for t in view(state, 0).furnishings.tiles}
    assert (tiles["spare_part_storage"].left, tiles["spare_part_storage"].owner) == (0, 1)
    assert (tiles["trader"].left, tiles["trader"].owner) == (0, 1)


@pytest.mark.parametrize("players", [1, 3, 7])
def test_every_view_round_trips_through_json(players: int) -> None:
    """The JSON a web page receives reads back as the very same view, all game long."""
    state = new_game(players, 5)
    rnd = random.Random(players)
    seen = 0
    while True:
        for seat in (None, 0):
            v = view(state, seat)
            again = CavernaView.model_validate_json(v.model_dump_json())
            assert again == v
            assert again.model_dump(mode="json") == json.loads(v.model_dump_json())
            seen += 1
        if not CAVERNA.pending(state):
            break
        random_moves(CAVERNA, state, rnd, 60)
    assert state.phase == "over" and seen > 4


def test_the_json_keeps_the_shape_of_the_view() -> None:
    """The JSON keeps the field names of the contract; a round without a harvest marker
    carries ``marker: null`` like a face-down one, its kind tells them apart."""
    plain = view(new_game(4, 1), 2).model_dump(mode="json")
    assert list(plain) == [
        "game", "seat", "options", "official", "player_count", "round", "rounds",
        "last_round", "phase", "first", "next_first", "turn", "acting", "passed",
        "deciding", "end_reason", "harvest", "cards", "spaces", "furnishings", "players"]
    assert plain["harvest"]["schedule"][2] == {"round": 3, "kind": "harvest", "marker": None}
    assert plain["harvest"]["schedule"][5] == {"round": 6, "kind": "face_down", "marker": None}
    assert plain["players"][3]["board"]["spaces"][0]["at"] == "0,0"
    assert plain["spaces"][0]["occupant"] is None
