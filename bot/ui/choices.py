"""The choice block: what a player can choose, said semantically, laid out by adapters.

The core never arranges buttons in rows. It hands a ``ChoiceBlock`` with a message and
each adapter lays it out for its platform from declared capabilities
(``bot.ui.layout.Capabilities``, ``bot.ui.layout.lay_out``): rows of buttons on Telegram, a
numbered list on the console, rows of five buttons or select menus on Discord.

A block holds:

- ``choices`` — every item in reading order. Each is a ``Choice`` with a ``label``
  (plain text), a ``token`` (opaque, signed by the core: send it back as is when the
  item is chosen) and a ``kind``:

  * ``option`` — one answer to the question (a move); may belong to a ``group``;
  * ``back`` — return to the previous step of a multi-step decision;
  * ``confirm`` — an explicit yes to something asked (e.g. abort the table);
  * ``action`` — a verb that is not an answer (join, leave, start, vote …);
  * ``web`` — open the table's page (``table`` names the table). A platform that can
    open a page from a button (Telegram's Mini App) makes it one; any other sends the
    token like any press, and the core answers the presser with their own link.

  Only ``option`` items are ever split across pages; ``back``/``confirm``/``action``
  items are shown on every page, after the options.

  A choice that answers a prompt also carries its ``mark``: the option's 1-based
  position in the prompt, the number ``/move N`` takes and a picture draws on what the
  option points at. An adapter that numbers its buttons (the console) shows this
  number, so the picture and the buttons agree; other items have no mark.
- ``groups`` — the named groups options may belong to, in display order (e.g. the
  furnishings: dwellings / green / yellow). Adapters keep a group's options together
  (a row or a select menu of their own) and may show the group's label as a heading
  or placeholder. Options without a group come first. A group that ``fold``s holds
  variants of one choice (the numbers of people one place may take): where the whole
  block does not fit on one page, the layout may show it as one button that opens its
  options (``bot.ui.layout``), so the choice takes two presses there and one where it
  fits. Where every option of such a group has a ``short`` label (``🌲3``: one that
  still says what it is among the whole block's), a platform with narrow rows may show
  the group many to a row with those labels instead of folding it.
- ``prompt`` — a reference to the decision the block answers
  (``table:version:seat:fingerprint``), or None for blocks that answer none (lobby,
  votes). Adapters may use it to recognise the same question (e.g. Discord's
  component ids), never to act on it.
- ``page`` — which page to show, counted in the adapter's own page size. The core
  only passes it through: a page token names a page of the adapter's layout.
- ``pager`` — a signed token prefix for navigation, or None when the block must fit
  on one page. ``page_token(pager, n)`` is the token of "show page n"; an adapter
  builds the ‹ › (or page select) items from it. The core answers such a press by
  sending the same message with ``page=n`` to update the pressed message.

``Button`` is kept as a name for ``Choice`` (the label and token every platform needs).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Literal

ChoiceKind = Literal["option", "back", "confirm", "action", "web"]
PAGE_SEPARATOR = "."


@dataclass(frozen=True, slots=True)
class Choice:
    """One item to choose: what it says, the token it sends back, its role."""

    label: str
    token: str
    kind: ChoiceKind = "option"
    group: str | None = None
    mark: int | None = None  # the option's number in its prompt (see the module)
    short: str | None = None  # a label that stands alone in a narrow row (see the module)
    table: str | None = None  # the table whose page a ``web`` item opens


Button = Choice


@dataclass(frozen=True, slots=True)
class Group:
    """A named group of options (its key is what ``Choice.group`` holds)."""

    key: str
    label: str
    fold: bool = False


@dataclass(frozen=True, slots=True)
class ChoiceBlock:
    """Every choice offered with one message (see the module for the fields)."""

    choices: tuple[Choice, ...]
    groups: tuple[Group, ...] = ()
    prompt: str | None = None
    page: int = 0
    pager: str | None = field(default=None)

    @property
    def options(self) -> tuple[Choice, ...]:
        """The answers (the items that page), ungrouped first, then group by group."""
        order = {None: -1} | {g.key: i for i, g in enumerate(self.groups)}
        opts = [c for c in self.choices if c.kind == "option"]
        return tuple(sorted(opts, key=lambda c: order.get(c.group, len(order))))

    @property
    def fixed(self) -> tuple[Choice, ...]:
        """The items shown on every page (back, confirm, actions), in order."""
        return tuple(c for c in self.choices if c.kind != "option")

    def group_label(self, key: str | None) -> str | None:
        """The label of group ``key`` (None for no group or an unknown one)."""
        return next((g.label for g in self.groups if g.key == key), None)

    def folds(self, key: str | None) -> bool:
        """Does group ``key`` fold (see the module)?"""
        return any(g.fold for g in self.groups if g.key == key)


def block(choices: Iterable[Choice], **kw: object) -> ChoiceBlock:
    """A block of ``choices`` (keyword arguments as ``ChoiceBlock``'s)."""
    return ChoiceBlock(tuple(choices), **kw)  # type: ignore[arg-type]


def page_token(pager: str, page: int) -> str:
    """The token of "show page ``page``" for a block whose pager is ``pager``."""
    return f"{pager}{PAGE_SEPARATOR}{page}"
