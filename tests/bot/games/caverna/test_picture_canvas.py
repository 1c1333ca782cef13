"""Names on the Caverna picture fit their boxes whole: every action space, round card,
furnishing and tile, in both languages, measured with the picture's own font."""

from __future__ import annotations

import pytest

from bot.games.caverna.picture import actions, board, board_cell, supply
from bot.games.caverna.picture.canvas import BREAK, fit_label, syllables, wrap
from bot.games.caverna.picture.names import furnishing_name, label, space_name
from bot.games.caverna.picture.samples import played_views
from bot.games.caverna.picture.style import MARGIN, MIN_TEXT, WIDTH
from bot.render.text import font
from engine.caverna.board import TILES
from engine.caverna.components import components

INNER = WIDTH - 2 * MARGIN
LANGS = ("ru", "en")
SPACES = sorted(set(components().spaces) | set(components().round_cards))
FURNISHINGS = [*sorted(components().furnishings), "entry_level_dwelling"]


def standard_cell() -> int:
    """The square of a home board drawn large, as it is until a tile overhangs."""
    view, _ = played_views(1, seed=3, every=1000)[0]
    return board_cell(view.players[0])


def read_back(lines: list[str], name: str) -> str:
    """The lines joined back into text: at a space, at a hyphen of the name, or (the
    hyphen dropped) at a listed syllable of the word broken there."""
    text = lines[0]
    for line in lines[1:]:
        if not text.endswith("-"):
            text += " " + line
        elif name.startswith(text + line.split(" ")[0]):
            text += line  # the name's own hyphen
        else:
            word = text.split(" ")[-1][:-1] + line.split(" ")[0]
            assert word.lower() in syllables(), f"{word!r} broken at no listed syllable"
            text = text[:-1] + line
    return text


def assert_whole(name: str, width: float, max_lines: int, bold: bool) -> None:
    """``name`` laid out as the picture lays it: every line within ``width`` in the
    font it is drawn with, no more lines than allowed, and the lines read back as the
    name (broken words only at listed syllables)."""
    fitted = fit_label(name, width, MIN_TEXT, bold, max_lines)
    assert fitted.whole, (name, width, fitted)
    assert fitted.size >= MIN_TEXT and len(fitted.lines) <= max_lines, fitted
    fnt = font(fitted.size, fitted.bold)
    assert all(fnt.getlength(line) <= width for line in fitted.lines), (name, fitted)
    assert read_back(fitted.lines, name) == name, (name, fitted.lines)


@pytest.mark.parametrize("lang", LANGS)
def test_every_action_space_name_fits_its_space(lang: str) -> None:
    width = actions.name_width(INNER)
    for space in SPACES:
        assert_whole(space_name(space, lang), width, actions.NAME_LINES, bold=True)


@pytest.mark.parametrize("lang", LANGS)
def test_every_furnishing_name_fits_the_supply_and_a_home_board(lang: str) -> None:
    tag = board.tag_width(standard_cell())
    for tile in FURNISHINGS:
        name = furnishing_name(tile, lang)
        assert_whole(name, supply.name_width(INNER), supply.NAME_LINES, bold=True)
        assert_whole(name, tag, board.TAG_LINES, bold=True)


@pytest.mark.parametrize("lang", LANGS)
def test_every_tile_name_fits_its_square(lang: str) -> None:
    for tile in (*TILES, "forest", "rock"):
        assert_whole(label(f"tile.{tile}", lang), board.tag_width(standard_cell()),
                     board.TILE_LINES, bold=False)


def test_the_two_names_players_saw_cut_are_whole_now() -> None:
    assert fit_label("Склад стройматериалов", supply.name_width(INNER), MIN_TEXT, True,
                     supply.NAME_LINES).lines == ["Склад строй-", "материалов"]
    assert fit_label("Постройка рубиновой шахты", actions.name_width(INNER), MIN_TEXT, True,
                     actions.NAME_LINES).lines == ["Постройка", "рубиновой", "шахты"]


def test_a_word_is_broken_only_when_nothing_else_fits() -> None:
    wide = fit_label("Каменоломня", 140, MIN_TEXT, True, 2)
    assert wide.lines == ["Каменоломня"] and wide.whole  # regular letters fit: no break
    narrow = fit_label("Каменоломня", 100, MIN_TEXT, True, 2)
    assert narrow.whole and narrow.lines[0].endswith("-")
    assert "".join(narrow.lines).replace("-", "") == "Каменоломня"


def test_a_name_that_cannot_fit_is_cut_and_says_so() -> None:
    fitted = fit_label("Непереносимоедлинноеслово", 60, MIN_TEXT, False, 1)
    assert not fitted.whole


def test_every_listed_break_is_inside_its_word() -> None:
    for word, ends in syllables().items():
        assert BREAK not in word and ends == tuple(sorted(ends))
        assert all(2 <= end <= len(word) - 2 for end in ends), word  # no lone letters


def test_wrap_keeps_a_broken_words_rest_on_the_next_line() -> None:
    lines = wrap("Склад стройматериалов", font(MIN_TEXT), 100, 3)
    assert lines == ["Склад", "стройма-", "териалов"]
