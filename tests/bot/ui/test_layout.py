"""Laying out choice blocks: rows, groups, select menus, pages and limits."""

from __future__ import annotations

from dataclasses import replace

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


def test_discord_packs_neighbouring_groups_into_one_menu_when_menus_outnumber_rows() -> None:
    sites = [Group(g, g.title()) for g in ("hunt", "forest", "clay", "quarry", "river")]
    block = ChoiceBlock((*options(10), *(c for g in sites for c in options(5, g.key, g.key))),
                        groups=tuple(sites), pager=PAGER)
    layout = lay_out(block, DISCORD)
    menus = [r for r in layout.rows if isinstance(r, SelectRow)]
    # Six menus for five rows: the two smallest neighbours share one, the rest stay.
    assert [(m.placeholder, len(m.options)) for m in menus] == [
        (None, 10), ("Hunt · Forest", 10), ("Clay", 5), ("Quarry", 5), ("River", 5)]
    assert layout.pages == 1
    assert {c.token for c in layout.choices()} == {c.token for c in block.choices}
    # The options of no group are never packed with a group's.
    assert all(c.group is None for c in menus[0].options)


def _sites(count: int, fold: bool = True) -> ChoiceBlock:
    groups = tuple(Group(g, f"{g.title()} 1–{count}", fold=fold)
                   for g in ("hunt", "forest", "clay", "quarry", "river"))
    return ChoiceBlock((*options(9), *(c for g in groups for c in options(count, g.key, g.key)),
                        Choice("back", "b", "back")), groups=groups, pager=PAGER)


def test_telegram_folds_groups_that_do_not_fit_into_one_button_each() -> None:
    block = _sites(5)  # 9 + 25 options: more than a page of sixteen
    first = lay_out(block, TELEGRAM)
    labels = [c.label for c in first.choices()]
    assert labels == [*(f"o{i}" for i in range(9)),
                      *(f"{g} 1–5 …" for g in ("Hunt", "Forest", "Clay", "Quarry", "River")),
                      "back"]
    assert first.pages == 6
    opener = first.choices()[10]  # the forest's button opens the forest's page
    assert opener.token == page_token(PAGER, 2)
    forest = lay_out(replace(block, page=2), TELEGRAM)
    assert [c.label for c in forest.choices()] == [*(f"forest{i}" for i in range(5)),
                                                   PREVIOUS, "back"]
    back = next(c for c in forest.choices() if c.label == PREVIOUS)
    assert back.token == page_token(PAGER, 0)


def test_only_as_many_groups_fold_as_it_takes_to_fit() -> None:
    block = _sites(1)  # 9 + 5: fits whole, nothing folds
    assert lay_out(block, TELEGRAM).pages == 1
    groups = (Group("big", "Big", fold=True), Group("small", "Small", fold=True))
    block = ChoiceBlock((*options(9), *options(12, "big", "b"), *options(2, "small", "s")),
                        groups=groups, pager=PAGER)
    first = lay_out(block, TELEGRAM)
    assert [c.label for c in first.choices()] == [
        *(f"o{i}" for i in range(9)), "Big …", "s0", "s1"]
    assert first.pages == 2


def test_groups_that_do_not_fold_are_paged_as_before() -> None:
    block = _sites(5, fold=False)
    assert lay_out(block, TELEGRAM).pages == 3
    assert "…" not in " ".join(c.label for c in lay_out(block, TELEGRAM).choices())


def test_a_long_folded_group_pages_within_itself_and_leads_back() -> None:
    groups = (Group("hunt", "Hunt", fold=True), Group("forest", "Forest", fold=True))
    block = ChoiceBlock((*options(12), *options(20, "hunt", "h"), *options(3, "forest", "f")),
                        groups=groups, pager=PAGER)
    first = lay_out(block, TELEGRAM)
    assert [c.label for c in first.choices()][12:] == ["Hunt …", "f0", "f1", "f2"]
    assert first.pages == 3  # the hunt's twenty options take two pages of their own
    reached, todo, seen = set(), [0], set()
    while todo:
        page = todo.pop()
        if page in seen:
            continue
        seen.add(page)
        shown = lay_out(replace(block, page=page), TELEGRAM)
        assert len([c for c in shown.choices() if c.kind == "option"]) <= 16
        reached |= {c.token for c in shown.choices() if c.kind == "option"}
        todo += [int(c.token.rsplit(".", 1)[1]) for c in shown.choices() if c.kind == "action"]
    assert reached == {c.token for c in block.choices}
    assert seen == set(range(first.pages))


def _short_sites(counts: dict[str, int], loose: int) -> ChoiceBlock:
    """``loose`` options of no group, then each site's numbers with short labels."""
    groups = tuple(Group(g, g.title(), fold=True) for g in counts)
    sites = [replace(c, short=f"{g[0]}{i + 1}")
             for g, n in counts.items() for i, c in enumerate(options(n, g, f"{g} people "))]
    return ChoiceBlock((*options(loose), *sites), groups=groups, pager=PAGER)


def test_sites_with_short_labels_go_in_narrow_rows_on_one_page() -> None:
    """Five sites of 7 and a hunt of 10 (45 options with 9 more) fit one Telegram page
    in narrow rows: every choice one press, no opener; the hunt's 10 in two rows of 5."""
    block = _short_sites({"hunt": 10, "forest": 7, "clay": 7, "quarry": 7, "river": 7}, 9)
    layout = lay_out(block, TELEGRAM)
    assert layout.pages == 1
    assert {c.token for c in layout.choices()} == {c.token for c in block.choices}
    widths = [len(r.buttons) for r in layout.rows if isinstance(r, ButtonRow)]
    assert widths == [2, 2, 2, 2, 1, 5, 5, 7, 7, 7, 7]
    assert [c.label for c in layout.rows[5].buttons] == ["h1", "h2", "h3", "h4", "h5"]
    # The console and Discord have no narrow rows: their layouts are as before.
    assert all(len(r.buttons) <= CONSOLE.per_row or CONSOLE.unlimited
               for r in lay_out(block, CONSOLE).rows if isinstance(r, ButtonRow))


def test_narrow_rows_count_against_the_rows_not_the_page_size() -> None:
    """Loose options fill most of a page: the sites still fit as narrow rows while rows
    are left, and fold (largest first) once they are not."""
    block = _short_sites({"hunt": 10, "forest": 3}, 16)
    first = lay_out(block, TELEGRAM)
    assert first.pages == 1  # 8 rows of 2, then 2 + 1 narrow rows: 11 of 12
    # 8 rows of loose options and 5 narrow rows: one too many; the hunt (2 rows) folds
    # into one button, the small sites stay open.
    block = _short_sites({"hunt": 10, "forest": 3, "clay": 3, "quarry": 3}, 15)
    first = lay_out(block, TELEGRAM)
    labels = [c.label for c in first.choices()]
    assert "Hunt …" in labels and {"f1", "c1", "q1"} <= set(labels)
    assert len(first.rows) <= TELEGRAM.max_rows


def test_a_group_without_short_labels_folds_as_before() -> None:
    block = _short_sites({"hunt": 10, "forest": 7, "clay": 7, "quarry": 7, "river": 7}, 9)
    plain = replace(block, choices=tuple(replace(c, short=None) if c.group == "clay" else c
                                         for c in block.choices))
    labels = [c.label for c in lay_out(plain, TELEGRAM).choices()]
    assert "Clay …" in labels and "f1" in labels
