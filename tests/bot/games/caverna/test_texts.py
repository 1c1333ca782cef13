"""Caverna's words for single things: squares, placements, furnishing buttons, /board."""

from __future__ import annotations

from bot.games.caverna.describe import square_name, square_of
from bot.games.caverna.texts import CavernaTexts
from bot.i18n.catalog import LANGS
from engine.caverna.caverna_game import CAVERNA
from engine.caverna.components import components
from engine.core.prompts import Label

MAX_BUTTON = 64


def test_squares_are_named_like_a_chess_board_with_overhang_beyond() -> None:
    assert square_name((0, 0)) == "A1"
    assert square_name((5, 3)) == "F4"
    assert square_name((-1, 2)) == "-A3"
    assert square_name((6, 0)) == "G1"
    assert square_name((2, -1)) == "C0"
    assert square_of("3,1+3,2") == "D2+D3"
    assert square_of("not a square") == "not a square"


def test_a_twin_placement_names_both_halves_and_the_direction() -> None:
    texts = CavernaTexts()
    label = Label("cav.opt.lay", {"tile": "meadow_field", "at": "2,2+1,2"})
    assert texts.option("en", label) == "Meadow C3, field B3 (west)"
    assert texts.option("ru", label) == "Луг C3, поле B3 (на запад)"


def test_every_furnishing_button_carries_cost_and_points_and_fits() -> None:
    texts = CavernaTexts()
    for tile_id, tile in components().furnishings.items():
        for lang in LANGS:
            text = texts.option(lang, Label("cav.opt.tile", {"tile": tile_id, "cost": tile.cost}))
            assert len(text) <= MAX_BUTTON, text
            assert text.startswith(getattr(tile.name, lang)), text
            if tile.points:
                assert str(tile.points) in text, text
            for good, n in tile.cost.items():
                assert str(n) in text, (text, good)
    assert "★" in texts.option("en", Label("cav.opt.tile", {"tile": "main_storage",
                                                            "cost": {"wood": 2, "stone": 1}}))


def test_the_board_text_describes_the_own_home_board_and_the_others() -> None:
    texts = CavernaTexts()
    state = CAVERNA.new(3, 5)
    lines = texts.board("en", CAVERNA.view(state, 1), 1, ["Anna", "Boris", "Cleo"])
    text = "\n".join(lines)
    assert "Row 4:" in text and "D4 cavern: Entry-level dwelling" in text
    own = next(i for i, line in enumerate(lines) if line.startswith("<b>Boris</b> —"))
    assert lines[own + 1].startswith("Dwarfs: 1 (unarmed); 2 (unarmed)")
    assert "<b>Anna</b> —" in text and "<b>Cleo</b> —" in text
    ru = "\n".join(texts.board("ru", CAVERNA.view(state, 1), 1, ["Анна", "Борис", "Клео"]))
    assert "Привходовое жилище" in ru and "Ряд 1:" in ru
