"""The Stone Age picture: valid, deterministic, complete, and robust to any name."""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path
from typing import Any

import pytest

from bot.games.stone_age.picture import (
    WIDTH,
    WORDS,
    canvas_height,
    final_score,
    label,
    render_stone_age,
)
from bot.games.stone_age.picture.samples import SAMPLE_NAMES, play_view, write_samples
from engine.stone_age.components import CULTURES, GATHERING, MULTIPLIERS, VILLAGE, components
from engine.stone_age.game import GAME
from engine.stone_age.view import building_info, card_info
from engine.stone_age.view_model import PlayerView, StoneAgeView
from tests.bot.games.pictures import decoded, decoded_png

REPO = Path(__file__).resolve().parents[4]


@pytest.fixture(scope="module")
def mid4() -> StoneAgeView:
    return play_view(4, 11, 204)


def _with_player(view: StoneAgeView, player: PlayerView) -> StoneAgeView:
    """``view`` with ``player`` in place of the player of the same seat."""
    players = [player if p.seat == player.seat else p for p in view.players]
    return view.model_copy(update={"players": players})


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("stage", ["start", "mid", "end"])
def test_renders_a_valid_png_for_every_stage_and_player_count(players: int, stage: str) -> None:
    actions = {"start": 0, "mid": 40 * players, "end": None}[stage]
    view = play_view(players, 100 + players, actions)
    if stage == "end":
        assert view.phase == "over"
    im = decoded(render_stone_age(view, SAMPLE_NAMES[:players]))
    assert im.size == (WIDTH, canvas_height(players))
    assert 850 <= im.height <= 1100 or players < 4


def test_same_view_gives_the_same_bytes(mid4: StoneAgeView) -> None:
    first = render_stone_age(mid4, SAMPLE_NAMES)
    assert render_stone_age(copy.deepcopy(mid4), list(SAMPLE_NAMES)) == first


def test_a_view_after_a_json_round_trip_draws_the_same(mid4: StoneAgeView) -> None:
    # Stored or sent views have string keys in by_seat: the picture must not change.
    assert any(site.by_seat for site in mid4.sites.values())
    again = StoneAgeView.model_validate_json(mid4.model_dump_json())
    assert render_stone_age(again, SAMPLE_NAMES) == render_stone_age(mid4, SAMPLE_NAMES)


@pytest.mark.parametrize("stage", ["start", "mid", "end"])
def test_a_view_read_back_from_its_json_draws_the_same_picture(stage: str) -> None:
    """A view stored or sent as JSON text and read back with ``model_validate_json`` is
    an equal view and gives the same bytes, for a player's view and an onlooker's."""
    actions = {"start": 0, "mid": 120, "end": None}[stage]
    for seat in (0, None):
        view = play_view(3, 7, actions, seat)
        again = StoneAgeView.model_validate_json(json.dumps(view.model_dump(mode="json")))
        assert again == view
        for lang in ("ru", "en"):
            assert (render_stone_age(again, SAMPLE_NAMES[:3], lang)
                    == render_stone_age(view, SAMPLE_NAMES[:3], lang))


def test_different_views_give_different_pictures(mid4: StoneAgeView) -> None:
    base = render_stone_age(mid4, SAMPLE_NAMES)
    # Action 205 only opens a "how many workers" step, which the view does not show.
    later = play_view(4, 11, 206)
    assert later != mid4
    assert render_stone_age(later, SAMPLE_NAMES) != base
    # A view is frozen: a changed one is a copy with the change.
    third = mid4.players[2]
    richer = _with_player(mid4, third.model_copy(
        update={"goods": {**third.goods, "gold": third.goods["gold"] + 1}}))
    assert render_stone_age(richer, SAMPLE_NAMES) != base
    other_turn = mid4.model_copy(update={"turn": (mid4.turn + 1) % 4})
    assert render_stone_age(other_turn, SAMPLE_NAMES) != base


def test_both_languages(mid4: StoneAgeView) -> None:
    ru = render_stone_age(mid4, SAMPLE_NAMES, "ru")
    en = render_stone_age(mid4, SAMPLE_NAMES, "en")
    assert ru != en
    decoded(en)
    # An unknown language falls back to Russian rather than failing.
    assert render_stone_age(mid4, SAMPLE_NAMES, "xx") == ru


HOSTILE_NAMES = [
    "🔥🦣🪨👨‍👩‍👧‍👦",  # emoji only, with zero-width joiners: nothing drawable
    "שלום עולם",  # Hebrew (RTL)
    "مرحبا Bob 123",  # Arabic mixed with Latin and digits
    "\u202eevil override\u202c",  # bidi override characters
    "<b>Bob</b> & <script>alert(1)</script>",  # HTML-like: drawn as text
    "W" * 5000,  # very long
    "",  # empty
    "   \n\t\x00\x1b[31m",  # whitespace and control characters
    "Zoë Ångström 李小龍 Ḡ̸̢",  # accents, CJK (not in the font), combining marks
]


@pytest.mark.parametrize("name", HOSTILE_NAMES)
def test_any_name_draws_without_crashing(mid4: StoneAgeView, name: str) -> None:
    for lang in ("ru", "en"):
        im = decoded(render_stone_age(mid4, [name, name, "Анна", name], lang))
        assert im.size == (WIDTH, canvas_height(4))


def test_missing_names_are_placeholders(mid4: StoneAgeView) -> None:
    # Fewer names than seats (or none) must not fail; empty names equal missing ones.
    assert render_stone_age(mid4, []) == render_stone_age(mid4, ["", "", "", ""])


def test_every_card_effect_and_building_form_draws(mid4: StoneAgeView) -> None:
    cards = sorted(components().cards)
    buildings = sorted(components().buildings)
    for start in range(0, len(cards), 4):
        row = [slot.model_copy(update={"card": card_info(card_id)})
               for slot, card_id in zip(mid4.row, cards[start:start + 4], strict=False)]
        piles = [pile.model_copy(update={"top": building_info(b_id)})
                 for pile, b_id in zip(mid4.piles, buildings[start:start + 4], strict=False)]
        # The last few cards fill only part of the row: the other places stay as they were.
        view = mid4.model_copy(update={"row": [*row, *mid4.row[len(row):]],
                                       "piles": [*piles, *mid4.piles[len(piles):]]})
        decoded(render_stone_age(view, SAMPLE_NAMES, "en"))


def test_player_extras_and_empty_slots_draw(mid4: StoneAgeView) -> None:
    p = mid4.players[1].model_copy(update=dict(
        boons=3, one_use_tools=[4, 3, 2], tools=[4, 4, 4], tools_used=[True, False, True],
        goods={"food": 999, "wood": 99, "clay": 99, "stone": 99, "gold": 99}, people=10))
    view = _with_player(mid4, p).model_copy(update={
        "row": [mid4.row[0].model_copy(update={"card": None}), *mid4.row[1:]],
        "piles": [mid4.piles[0].model_copy(update={"size": 0, "top": None}), *mid4.piles[1:]],
    })
    decoded(render_stone_age(view, SAMPLE_NAMES, "ru"))


def _final_state(players: int, seed: int) -> Any:
    """A finished game, played with random legal choices."""
    state = GAME.new(players, seed)
    agent = random.Random(seed)
    while prompts := GAME.pending(state):
        prompt = agent.choice(prompts)
        GAME.apply(state, prompt.seat, agent.choice(prompt.options).key)
    return state


@pytest.mark.parametrize("players", [2, 3, 4])
def test_final_score_matches_the_engine(players: int) -> None:
    # The picture recomputes final totals from the view; they must equal the engine's.
    for seed in range(500, 503):
        state = _final_state(players, seed)
        view = GAME.view(state, None)
        result = GAME.result(state)
        assert result is not None
        for score in result.scores:
            assert final_score(view.players[score.seat]) == score.total


def test_hidden_cards_give_no_final_score() -> None:
    # Seat 0 bought c09 (extra card) in the open and drew c21 blind; seat 1 bought c15.
    state = GAME.new(2, seed=5)
    state.players[0].cards = ["c09", "c21"]
    state.players[0].blind = ["c21"]
    state.players[1].cards = ["c15"]
    seen_by_1 = GAME.view(state, 1).players
    assert final_score(seen_by_1[0]) is None
    seen_by_0 = GAME.view(state, 0).players
    assert final_score(seen_by_0[0]) is not None
    # Open cards are the same to everyone, so is the total they give.
    assert final_score(seen_by_0[1]) == final_score(seen_by_1[1]) is not None


def test_labels_cover_the_game_in_both_languages() -> None:
    needed = [f"loc.{loc}" for loc in (*GATHERING, *VILLAGE)]
    needed += [f"culture.{c}" for c in CULTURES] + [f"mult.{m}" for m in MULTIPLIERS]
    needed += ["end.building_pile_empty", "end.cards_exhausted"]
    needed += [f"phase.{p}" for p in ("placement", "actions", "feeding", "over")]
    for key in needed:
        assert key in WORDS.labels, key
    for key, entry in WORDS.labels.items():
        assert entry["ru"] and entry["en"], key
    assert label("round", "ru", 3) == "Раунд 3"
    assert label("round", "en", 3) == "Round 3"
    assert label("no.such.key", "en") == "no.such.key"


def test_write_samples() -> None:
    """Writes the pictures to look at (out/ is git-ignored)."""
    written = write_samples(REPO / "out" / "samples")
    mid = REPO / "out" / "samples" / "stone_age_mid.png"
    assert mid in written
    decoded_png(mid.read_bytes())
