"""The Caverna picture's score: the final score sheet of a finished game, the running
total spelt out while it runs, and a bonus square's reward apart from what is kept there."""

from __future__ import annotations

import random

import pytest

from bot.games.caverna.picture import draw_page
from bot.games.caverna.picture.samples import SAMPLE_NAMES, played_views
from bot.games.caverna.picture.sheet import score_parts
from bot.render.samples import move_key
from engine.caverna.board import BONUS_SPACES
from engine.caverna.caverna_game import CAVERNA
from engine.caverna.scoring import SCORE_SHEET
from engine.caverna.view import view as caverna_view
from engine.caverna.view_model import CavernaView

Box = tuple[float, float, float, float]


def finished(players: int, seed: int) -> tuple[CavernaView, dict[int, dict[str, int]]]:
    """The final view of a random game, and the engine's result: seat -> its breakdown
    with the total."""
    state = CAVERNA.new(players, seed)
    agent = random.Random(seed)
    while prompts := CAVERNA.pending(state):
        prompt = agent.choice(prompts)
        CAVERNA.apply(state, prompt.seat, move_key(agent, prompt))
    result = CAVERNA.result(state)
    assert result is not None
    return caverna_view(state, None), {
        s.seat: {**s.breakdown, "total": s.total} for s in result.scores}


@pytest.mark.parametrize(("players", "lang"), [(1, "ru"), (3, "en"), (7, "ru")])
def test_the_final_picture_holds_the_engines_score_sheet(players: int, lang: str) -> None:
    view, scores = finished(players, 40 + players)
    assert view.phase == "over"
    _, drawn = draw_page(view, SAMPLE_NAMES, lang)
    assert drawn.sections[:1] == ["sheet"]  # it opens the page
    # Every seat's every line and total, as the engine scored the game.
    assert drawn.sheet == scores
    assert all(list(sheet) == [*SCORE_SHEET, "total"] for sheet in drawn.sheet.values())
    assert drawn.score_now == {}  # the sheet, not a running total


def test_a_running_game_spells_its_total_out_and_has_no_sheet() -> None:
    for players in (1, 4):
        for view, prompt in played_views(players, seed=60 + players, every=50)[:-1]:
            _, drawn = draw_page(view, SAMPLE_NAMES, "en", prompt)
            assert "sheet" not in drawn.sections and drawn.sheet == {}
            parts = drawn.score_now
            assert parts["total"] == sum(n for line, n in parts.items() if line != "total")
            big = drawn.boards[0]
            assert parts == score_parts(view.players[big])


def test_an_empty_home_board_explains_its_minus_28() -> None:
    view, prompt = played_views(1, seed=5, every=1000)[0]
    _, drawn = draw_page(view, SAMPLE_NAMES, "ru", prompt)
    assert drawn.score_now == {"missing_animals": -8, "dwarfs": 2, "unused_spaces": -22,
                               "total": -28}


def overlaps(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def test_a_bonus_square_with_a_boar_kept_shows_both_apart() -> None:
    """A stable on the boar bonus square keeps a boar: the reward for covering the
    square and the boar kept there are drawn, and not on top of each other."""
    view, _ = played_views(1, seed=5, every=1000)[0]
    (bonus_at,) = [pos for pos, reward in BONUS_SPACES.items()
                   if reward == {"wild_boar": 1} and pos[0] == 2]
    data = view.model_dump(mode="json")
    player = data["players"][0]
    key = f"{bonus_at[0]},{bonus_at[1]}"
    for square in player["board"]["spaces"]:
        if square["at"] == key:
            square["stable"] = True
    player["housing"]["held"][key] = {"wild_boar": 1}
    _, drawn = draw_page(CavernaView.model_validate(data), SAMPLE_NAMES, "ru")
    things = drawn.on_squares[bonus_at]
    kinds = [kind for kind, _ in things]
    assert sorted(kinds) == ["bonus", "kept"], things
    (bonus,) = [box for kind, box in things if kind == "bonus"]
    (kept,) = [box for kind, box in things if kind == "kept"]
    assert not overlaps(bonus, kept), (bonus, kept)


def test_nothing_on_a_square_is_drawn_over_anything_else_there() -> None:
    for players in (1, 2, 4):
        for view, prompt in played_views(players, seed=70 + players, every=30):
            _, drawn = draw_page(view, SAMPLE_NAMES, "en", prompt)
            for pos, things in drawn.on_squares.items():
                boxes = [box for _, box in things]
                for i, a in enumerate(boxes):
                    assert not any(overlaps(a, b) for b in boxes[i + 1:]), (pos, things)
