"""Laying a choice block out for a platform, from what the platform can show.

Every adapter declares its ``Capabilities`` and calls ``lay_out(block, caps)`` to turn
a ``bot.ui.choices.ChoiceBlock`` into rows it can send as they are:

- ``per_row`` — buttons side by side in one row;
- ``max_rows`` — rows in one message (a select menu takes a whole row);
- ``max_buttons`` — buttons in one message, all rows together;
- ``page_size`` — at most this many options per page even if more would fit (keeps a
  long list readable; 0: as many as fit);
- ``label_chars`` — longest button label; longer ones are cut with ``…``;
- ``token_bytes`` — longest token (callback data, custom id) in UTF-8 bytes; a token
  that does not fit is a bug in the core and raises ``TokenTooLong``;
- ``select_options`` — options one select menu holds (0: the platform has none); with
  selects, an option list that does not fit as buttons is offered as menus, one per
  group (split when a group is longer), ``select_label_chars`` long labels;
- ``unlimited`` — no limits at all (the console's numbered list): one page, one row
  per group.

``lay_out`` returns a ``Layout``: ``rows`` (each a ``ButtonRow`` or a ``SelectRow``),
the page shown and how many pages there are. Options are only ever split across pages;
the block's fixed items (back, confirm, actions) are on every page, after the options,
with ‹ › navigation (tokens from ``bot.ui.choices.page_token``) when there are several
pages. Paging is deterministic: ``pages(block, caps)`` gives the same split the
adapter's next call will, so a page token names the same options when pressed.

Each adapter declares its own capabilities beside its rendering (Telegram's, the
console's and Discord's are checked together over real games by the layout test).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from bot.ui.choices import Choice, ChoiceBlock, page_token

PREVIOUS = "‹"
NEXT = "›"


class TokenTooLong(ValueError):
    """A token longer than the platform accepts (the core made it too long)."""


@dataclass(frozen=True, slots=True)
class Capabilities:
    """What a platform can show with one message (see the module)."""

    per_row: int = 2
    max_rows: int = 10
    max_buttons: int = 100
    page_size: int = 0
    label_chars: int = 0
    token_bytes: int = 64
    select_options: int = 0
    select_label_chars: int = 100
    unlimited: bool = False


@dataclass(frozen=True, slots=True)
class ButtonRow:
    """Buttons side by side."""

    buttons: tuple[Choice, ...]


@dataclass(frozen=True, slots=True)
class SelectRow:
    """One select menu: ``placeholder`` (its group's label, or None) and its options."""

    options: tuple[Choice, ...]
    placeholder: str | None = None
    key: str = "0"  # tells this block's menus apart (group key and part)


Row = ButtonRow | SelectRow


@dataclass(frozen=True, slots=True)
class Layout:
    """A block as laid out: rows, the page shown and how many pages there are."""

    rows: tuple[Row, ...]
    page: int = 0
    pages: int = 1

    def choices(self) -> list[Choice]:
        """Every item shown, in reading order."""
        out: list[Choice] = []
        for row in self.rows:
            out.extend(row.buttons if isinstance(row, ButtonRow) else row.options)
        return out


def _cut(label: str, limit: int) -> str:
    if limit <= 0 or len(label) <= limit:
        return label
    return label[:limit - 1] + "…"


def _fit(choice: Choice, caps: Capabilities, limit: int) -> Choice:
    if len(choice.token.encode()) > caps.token_bytes:
        raise TokenTooLong(f"{len(choice.token.encode())} bytes: {choice.token!r}")
    label = _cut(choice.label, limit)
    return choice if label == choice.label else replace(choice, label=label)


def _runs(options: tuple[Choice, ...]) -> list[list[Choice]]:
    """Options cut where the group changes."""
    runs: list[list[Choice]] = []
    for option in options:
        if runs and runs[-1][0].group == option.group:
            runs[-1].append(option)
        else:
            runs.append([option])
    return runs


def _rows_of(items: list[Choice], width: int) -> list[tuple[Choice, ...]]:
    return [tuple(items[i:i + width]) for i in range(0, len(items), width)]


def _fixed_rows(block: ChoiceBlock, caps: Capabilities, nav: bool) -> list[tuple[Choice, ...]]:
    """The rows shown on every page: navigation first in the last row, then the rest."""
    items = list(block.fixed)
    if nav:
        # Placeholders: the real tokens depend on the page shown.
        items = [Choice(PREVIOUS, "", "action"), Choice(NEXT, "", "action"), *items]
    return _rows_of(items, caps.per_row) if items else []


def _button_pages(block: ChoiceBlock, caps: Capabilities, nav: bool
                  ) -> list[list[tuple[Choice, ...]]]:
    """Options as button rows split into pages (one group never shares a row)."""
    fixed = _fixed_rows(block, caps, nav)
    rows_left = caps.max_rows - len(fixed)
    buttons_left = caps.max_buttons - sum(len(r) for r in fixed)
    per_page = caps.page_size or buttons_left
    per_page = min(per_page, buttons_left)
    if rows_left <= 0 or per_page <= 0:
        raise ValueError(f"no room for options with {caps}")
    pages: list[list[tuple[Choice, ...]]] = [[]]
    count = 0
    for run in _runs(block.options):
        for row in _rows_of(run, caps.per_row):
            while row:
                room = min(per_page - count, len(row))
                if len(pages[-1]) >= rows_left or room <= 0:
                    pages.append([])
                    count = 0
                    continue
                pages[-1].append(row[:room])
                count += room
                row = row[room:]
    return pages


def _select_pages(block: ChoiceBlock, caps: Capabilities, nav: bool) -> list[list[SelectRow]]:
    """Options as select menus (a group each, split when longer) split into pages."""
    rows_left = caps.max_rows - len(_fixed_rows(block, caps, nav))
    if rows_left <= 0:
        raise ValueError(f"no room for options with {caps}")
    menus: list[SelectRow] = []
    for run in _runs(block.options):
        group = run[0].group
        parts = _rows_of(run, caps.select_options)
        for n, part in enumerate(parts):
            label = block.group_label(group)
            if label is not None and len(parts) > 1:
                label = f"{label} ({n + 1}/{len(parts)})"
            menus.append(SelectRow(part, label, f"{group or ''}:{n}"))
    return [menus[i:i + rows_left] for i in range(0, len(menus), rows_left)] or [[]]


def _use_selects(block: ChoiceBlock, caps: Capabilities) -> bool:
    if caps.select_options <= 0 or caps.unlimited:
        return False
    return len(_button_pages(block, caps, nav=False)) > 1


def pages(block: ChoiceBlock, caps: Capabilities) -> int:
    """How many pages ``block`` takes under ``caps``."""
    return len(_paged(block, caps))


def _paged(block: ChoiceBlock, caps: Capabilities) -> list[list[Row]]:
    if caps.unlimited:
        rows: list[Row] = [ButtonRow(tuple(run)) for run in _runs(block.options)]
        return [rows]
    selects = _use_selects(block, caps)
    for nav in (False, True):
        if selects:
            split: list[list[Row]] = [list(p) for p in _select_pages(block, caps, nav)]
        else:
            split = [[ButtonRow(r) for r in p] for p in _button_pages(block, caps, nav)]
        if len(split) == 1 or nav:
            if len(split) > 1 and block.pager is None:
                raise ValueError("a block without a pager does not fit on one page")
            return split
    raise AssertionError("unreachable")


def lay_out(block: ChoiceBlock, caps: Capabilities) -> Layout:
    """``block`` laid out under ``caps``: the page it asks for (clamped), the options of
    that page, then navigation and the fixed items. Labels are cut to fit; a token that
    does not fit raises ``TokenTooLong``."""
    split = _paged(block, caps)
    page = min(max(block.page, 0), len(split) - 1)
    rows: list[Row] = []
    for row in split[page]:
        if isinstance(row, SelectRow):
            opts = tuple(_fit(c, caps, caps.select_label_chars) for c in row.options)
            rows.append(replace(row, options=opts))
        else:
            rows.append(ButtonRow(tuple(_fit(c, caps, caps.label_chars) for c in row.buttons)))
    fixed = list(block.fixed)
    if len(split) > 1 and block.pager is not None:
        # Room for both arrows was kept on every page; the first page has no ‹ and the
        # last no ›, so a player sees where the list ends.
        nav = []
        if page > 0:
            nav.append(Choice(PREVIOUS, page_token(block.pager, page - 1), "action"))
        if page < len(split) - 1:
            nav.append(Choice(NEXT, page_token(block.pager, page + 1), "action"))
        fixed = [*nav, *fixed]
    if caps.unlimited:
        if fixed:
            rows.append(ButtonRow(tuple(_fit(c, caps, caps.label_chars) for c in fixed)))
    else:
        for r in _rows_of(fixed, caps.per_row):
            rows.append(ButtonRow(tuple(_fit(c, caps, caps.label_chars) for c in r)))
    return Layout(tuple(rows), page, len(split))
