"""Laying out choice blocks: rows, groups, select menus, pages and limits."""

from __future__ import annotations

import pytest

from adapters.console.chat import CONSOLE
from adapters.discord.render import DISCORD
from adapters.telegram.render import TELEGRAM
from bot.ui.choices import Choice, ChoiceBlock, Group, page_token
from bot.ui.layout import (
    NEXT,
    PREVIOUS,
    ButtonRow,
    Capabilities,
    SelectRow,
    TokenTooLong,
    lay_out,
    pages,
)

PAGER = "p.t1.5.0.0a1b2c3d.mac"


def options(n: int, group: str | None = None, prefix: str = "o") -> list[Choice]:
    return [Choice(f"{prefix}{i}", f"{prefix}{i}", "option", group) for i in range(n)]


def test_a_few_options_in_rows_with_the_fixed_items_last() -> None:
    block = ChoiceBlock((*options(5), Choice("back", "b", "back")), pager=PAGER)
    layout = lay_out(block, TELEGRAM)
    rows = [[c.label for c in r.buttons] for r in layout.rows if isinstance(r, ButtonRow)]
    assert rows == [["o0", "o1"], ["o2", "o3"], ["o4"], ["back"]]
    assert layout.pages == 1


def test_telegram_pages_sixteen_options_with_arrows_that_reach_every_page() -> None:
    block = ChoiceBlock((*options(40), Choice("back", "b", "back")), pager=PAGER)
    assert pages(block, TELEGRAM) == 3
    first = lay_out(block, TELEGRAM)
    labels = [c.label for c in first.choices()]
    assert labels[:16] == [f"o{i}" for i in range(16)]
    assert labels[16:] == [NEXT, "back"]  # no ‹ on the first page
    nxt = next(c for c in first.choices() if c.label == NEXT)
    assert nxt.token == page_token(PAGER, 1)
    last = lay_out(ChoiceBlock(block.choices, page=2, pager=PAGER), TELEGRAM)
    assert [c.label for c in last.choices()] == [*(f"o{i}" for i in range(32, 40)), PREVIOUS,
                                                 "back"]
    far = lay_out(ChoiceBlock(block.choices, page=99, pager=PAGER), TELEGRAM)
    assert far.page == 2  # clamped


def test_groups_never_share_a_row_and_come_in_their_order() -> None:
    block = ChoiceBlock((*options(3, "green", "g"), *options(1), *options(3, "yellow", "y")),
                        groups=(Group("yellow", "Yellow"), Group("green", "Green")))
    rows = [[c.label for c in r.buttons] for r in lay_out(block, TELEGRAM).rows
            if isinstance(r, ButtonRow)]
    assert rows == [["o0"], ["y0", "y1"], ["y2"], ["g0", "g1"], ["g2"]]


def test_discord_turns_a_long_list_into_select_menus_by_group() -> None:
    block = ChoiceBlock((*options(30, "dwellings", "d"), *options(10, "green", "g"),
                         Choice("back", "b", "back")),
                        groups=(Group("dwellings", "Dwellings"), Group("green", "Green")),
                        pager=PAGER)
    layout = lay_out(block, DISCORD)
    menus = [r for r in layout.rows if isinstance(r, SelectRow)]
    assert [(m.placeholder, len(m.options)) for m in menus] == [
        ("Dwellings (1/2)", 25), ("Dwellings (2/2)", 5), ("Green", 10)]
    assert len({m.key for m in menus}) == 3
    assert [c.label for r in layout.rows if isinstance(r, ButtonRow) for c in r.buttons] == [
        "back"]
    assert layout.pages == 1


def test_discord_pages_when_even_menus_do_not_fit() -> None:
    block = ChoiceBlock(tuple(options(200)), pager=PAGER)
    layout = lay_out(block, DISCORD)
    # Four menus of 25 and a row for the arrows.
    assert len(layout.rows) <= 5 and layout.pages == 2
    everything = set()
    for page in range(layout.pages):
        shown = lay_out(ChoiceBlock(block.choices, page=page, pager=PAGER), DISCORD)
        everything |= {c.token for c in shown.choices() if c.kind == "option"}
    assert everything == {c.token for c in block.choices}


def test_a_few_options_on_discord_stay_buttons_five_to_a_row() -> None:
    layout = lay_out(ChoiceBlock(tuple(options(12))), DISCORD)
    assert [len(r.buttons) for r in layout.rows if isinstance(r, ButtonRow)] == [5, 5, 2]


def test_the_console_numbers_everything_on_one_page() -> None:
    block = ChoiceBlock((*options(300), Choice("back", "b", "back")), pager=PAGER)
    layout = lay_out(block, CONSOLE)
    assert layout.pages == 1 and len(layout.choices()) == 301


def test_labels_are_cut_and_long_tokens_refused() -> None:
    caps = Capabilities(per_row=2, max_rows=5, label_chars=10, token_bytes=12)
    [row] = lay_out(ChoiceBlock((Choice("a very long label indeed", "t"),)), caps).rows
    assert isinstance(row, ButtonRow) and row.buttons[0].label == "a very lo…"
    with pytest.raises(TokenTooLong):
        lay_out(ChoiceBlock((Choice("x", "ж" * 7),)), caps)  # 14 bytes


def test_a_block_without_a_pager_must_fit() -> None:
    with pytest.raises(ValueError, match="pager"):
        lay_out(ChoiceBlock(tuple(options(40))), TELEGRAM)
