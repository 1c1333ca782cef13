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
- ``narrow_per_row`` — buttons in a narrow row: a folding group whose options all have
  ``short`` labels may be shown this many to a row, with those labels (0: never);
- ``unlimited`` — no limits at all (the console's numbered list): one page, one row
  per group.

``lay_out`` returns a ``Layout``: ``rows`` (each a ``ButtonRow`` or a ``SelectRow``),
the page shown and how many pages there are. A block that fits on one page is shown
whole: as buttons, else (with selects) as menus, neighbouring groups' menus packed into
one where there are more menus than rows. A block that does not fit and has groups that
``fold`` shows each such group as one button on its first page (as few as it takes: the
largest fold first, the smallest stay open), which opens the group's own page with a ‹
back; a choice there takes two presses instead of one. A group that stays open is shown
in narrow rows where the platform has them and its options have short labels (rows count
against ``max_rows``, not against ``page_size``: a row of numbers reads as one item), so
a block of several sites and their numbers fits one page and every choice is one press.
Otherwise options are split across pages read in turn. The block's fixed items (back,
confirm, actions) are on every page, after the options, with ‹ › navigation (tokens from
``bot.ui.choices.page_token``) when there are several pages. Paging is deterministic:
``pages(block, caps)`` gives the same split the adapter's next call will, so a page
token names the same options when pressed.

Each adapter declares its own capabilities beside its rendering (Telegram's, the
console's and Discord's are checked together over real games by the layout test).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from itertools import pairwise

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
    narrow_per_row: int = 0
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


def _narrow_rows(run: list[Choice], caps: Capabilities) -> list[tuple[Choice, ...]] | None:
    """A group's options in narrow rows with their short labels, the rows as even as
    they can be (10 numbers: two rows of 5, not 8 and 2); None when the platform has no
    narrow rows or an option has no short label."""
    if caps.narrow_per_row <= 0 or any(c.short is None for c in run):
        return None
    rows = -(-len(run) // caps.narrow_per_row)
    return _rows_of([replace(c, label=c.short or c.label) for c in run], -(-len(run) // rows))


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


def _menus(block: ChoiceBlock, caps: Capabilities, rows_left: int) -> list[SelectRow]:
    """Options as select menus: a group each, split when longer. When there are more
    menus than rows, neighbouring groups' menus are packed into one while it holds
    them (the options of no group keep their own menus)."""
    menus: list[tuple[list[Choice], list[str], str]] = []
    for run in _runs(block.options):
        group = run[0].group
        parts = _rows_of(run, caps.select_options)
        for n, part in enumerate(parts):
            label = block.group_label(group)
            if label is not None and len(parts) > 1:
                label = f"{label} ({n + 1}/{len(parts)})"
            menus.append((list(part), [label] if label else [], f"{group or ''}:{n}"))
    while len(menus) > rows_left:
        # Pack the two neighbouring groups' menus that make the shortest one, until
        # the menus fit (or nothing more can be packed).
        pairs = [(len(a[0]) + len(b[0]), i) for i, (a, b) in enumerate(pairwise(menus))
                 if a[0][0].group is not None and b[0][0].group is not None
                 and len(a[0]) + len(b[0]) <= caps.select_options]
        if not pairs:
            break
        _, i = min(pairs)
        (a_items, a_labels, key), (b_items, b_labels, _) = menus[i], menus[i + 1]
        menus[i:i + 2] = [(a_items + b_items, a_labels + b_labels, key)]
    return [SelectRow(tuple(items), _cut(" · ".join(labels), caps.select_label_chars) or None,
                      key) for items, labels, key in menus]


def _select_pages(block: ChoiceBlock, caps: Capabilities, nav: bool) -> list[list[SelectRow]]:
    """Options as select menus (see ``_menus``) split into pages."""
    rows_left = caps.max_rows - len(_fixed_rows(block, caps, nav))
    if rows_left <= 0:
        raise ValueError(f"no room for options with {caps}")
    menus = _menus(block, caps, rows_left)
    return [menus[i:i + rows_left] for i in range(0, len(menus), rows_left)] or [[]]


# A folded group's button, until laid out: its token names the page it opens.
_OPENS = "\x00opens:"


def _folded(block: ChoiceBlock, caps: Capabilities) -> _Plan | None:
    """The block with its folding groups shown as one button each on the first page
    (as few as it takes to fit: the smallest stay open, in narrow rows where they can
    be), each opening pages of its own that lead back; None when it does not fit even
    so. With nothing folded, the block is one page and needs no pager."""
    runs = _runs(block.options)
    foldable = [i for i, run in enumerate(runs) if block.folds(run[0].group)]
    if not foldable:
        return None
    fixed = _fixed_rows(block, caps, nav=False)
    rows_left = caps.max_rows - len(fixed)
    per_page = min(caps.page_size or caps.max_buttons,
                   caps.max_buttons - sum(len(r) for r in fixed))

    def first_page(folded: set[int]) -> list[tuple[Choice, ...]] | None:
        rows: list[tuple[Choice, ...]] = []
        counted = 0  # the buttons that count against the page size (narrow rows do not)
        openers: list[Choice] = []
        for i, run in enumerate(runs):
            if i in folded:
                label = block.group_label(run[0].group) or run[0].label
                openers.append(Choice(f"{label} …", f"{_OPENS}{i}", "action"))
                continue
            if openers:
                rows += _rows_of(openers, caps.per_row)
                counted += len(openers)
                openers = []
            narrow = _narrow_rows(run, caps) if i in foldable else None
            if narrow is not None:
                rows += narrow
            else:
                rows += _rows_of(run, caps.per_row)
                counted += len(run)
        rows += _rows_of(openers, caps.per_row)
        counted += len(openers)
        fits = len(rows) <= rows_left and counted <= per_page
        return rows if fits else None

    # Fold the largest groups until the page fits, then open again any that fit back.
    folded: set[int] = set()
    for i in sorted(foldable, key=lambda i: -len(runs[i])):
        if first_page(folded) is not None:
            break
        folded.add(i)
    for i in sorted(folded, key=lambda i: len(runs[i])):
        if first_page(folded - {i}) is not None:
            folded.discard(i)
    index = first_page(folded)
    if index is None:
        return None
    if not folded:
        return _Plan([[ButtonRow(r) for r in index]], [{}])
    if block.pager is None:
        return None
    pages: list[list[Row]] = [[]]
    nav: list[dict[str, int]] = [{}]
    opens: dict[int, int] = {}  # run -> its first page
    for i in sorted(folded):
        own = _button_pages(ChoiceBlock((*runs[i], *block.fixed)), caps, nav=True)
        opens[i] = len(pages)
        for n, rows in enumerate(own):
            at = len(pages)
            pages.append([ButtonRow(r) for r in rows])
            nav.append({PREVIOUS: at - 1 if n else 0,
                        **({NEXT: at + 1} if n < len(own) - 1 else {})})
    pages[0] = [ButtonRow(tuple(replace(c, token=f"{_OPENS}{opens[int(c.token[len(_OPENS):])]}")
                                if c.token.startswith(_OPENS) else c for c in row))
                for row in index]
    return _Plan(pages, nav)


@dataclass(frozen=True, slots=True)
class _Plan:
    """A block's pages, and the page each page's ‹ › lead to (an empty map: none)."""

    pages: list[list[Row]]
    nav: list[dict[str, int]]


def _in_turn(split: list[list[Row]]) -> _Plan:
    """Pages read one after another: ‹ to the one before, › to the one after."""
    last = len(split) - 1
    return _Plan(split, [{} if not last else {
        **({PREVIOUS: p - 1} if p > 0 else {}), **({NEXT: p + 1} if p < last else {})}
        for p in range(len(split))])


def _use_selects(block: ChoiceBlock, caps: Capabilities) -> bool:
    if caps.select_options <= 0 or caps.unlimited:
        return False
    return len(_button_pages(block, caps, nav=False)) > 1


def pages(block: ChoiceBlock, caps: Capabilities) -> int:
    """How many pages ``block`` takes under ``caps``."""
    return len(_paged(block, caps).pages)


def _paged(block: ChoiceBlock, caps: Capabilities) -> _Plan:
    """One page when it fits (buttons, else select menus); else folded groups when the
    block has some and that fits; else pages read in turn."""
    if caps.unlimited:
        return _Plan([[ButtonRow(tuple(run)) for run in _runs(block.options)]], [{}])
    selects = _use_selects(block, caps)
    if selects:
        one: list[list[Row]] = [list(p) for p in _select_pages(block, caps, nav=False)]
    else:
        one = [[ButtonRow(r) for r in p] for p in _button_pages(block, caps, nav=False)]
    if len(one) == 1:
        return _Plan(one, [{}])
    folded = _folded(block, caps)
    if folded is not None:
        return folded
    if block.pager is None:
        raise ValueError("a block without a pager does not fit on one page")
    if selects:
        return _in_turn([list(p) for p in _select_pages(block, caps, nav=True)])
    return _in_turn([[ButtonRow(r) for r in p] for p in _button_pages(block, caps, nav=True)])


def lay_out(block: ChoiceBlock, caps: Capabilities) -> Layout:
    """``block`` laid out under ``caps``: the page it asks for (clamped), the options of
    that page, then navigation and the fixed items. Labels are cut to fit; a token that
    does not fit raises ``TokenTooLong``."""
    plan = _paged(block, caps)
    page = min(max(block.page, 0), len(plan.pages) - 1)
    rows: list[Row] = []
    for row in plan.pages[page]:
        if isinstance(row, SelectRow):
            opts = tuple(_fit(c, caps, caps.select_label_chars) for c in row.options)
            rows.append(replace(row, options=opts))
        else:
            rows.append(ButtonRow(tuple(_fit(_opened(c, block), caps, caps.label_chars)
                                        for c in row.buttons)))
    fixed = list(block.fixed)
    if plan.nav[page] and block.pager is not None:
        # Room for both arrows was kept on every page; the first page has no ‹ and the
        # last no ›, so a player sees where the list ends.
        nav = [Choice(label, page_token(block.pager, target), "action")
               for label, target in sorted(plan.nav[page].items(), key=lambda i: i[0] != PREVIOUS)]
        fixed = [*nav, *fixed]
    if caps.unlimited:
        if fixed:
            rows.append(ButtonRow(tuple(_fit(c, caps, caps.label_chars) for c in fixed)))
    else:
        for r in _rows_of(fixed, caps.per_row):
            rows.append(ButtonRow(tuple(_fit(c, caps, caps.label_chars) for c in r)))
    return Layout(tuple(rows), page, len(plan.pages))


def _opened(choice: Choice, block: ChoiceBlock) -> Choice:
    """A folded group's button with the real token of the page it opens."""
    if not choice.token.startswith(_OPENS) or block.pager is None:
        return choice
    return replace(choice, token=page_token(block.pager, int(choice.token[len(_OPENS):])))
