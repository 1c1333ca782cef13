"""Laying the core's buttons out within Discord's limits.

Discord shows at most 5 rows of up to 5 buttons, button labels up to 80 characters, and
select menus of up to 25 options (one select takes a whole row). A long list of moves
reads better as a select than as a wall of buttons, so past ``SELECT_OVER`` moves the
moves go into selects (25 options each) and the other buttons (pages, back, confirm)
stay buttons. The core's own rows are kept where they fit, else buttons are packed.
"""

from __future__ import annotations

from dataclasses import dataclass

import discord

from adapters.discord.components import TokenButton, TokenSelect
from bot.ui import Button

ROWS = 5
PER_ROW = 5
SELECT_OPTIONS = 25
BUTTON_LABEL = 80
OPTION_LABEL = 100
# More move choices than this become a select menu.
SELECT_OVER = 10


@dataclass(frozen=True, slots=True)
class Limits:
    """What one Discord message can hold."""

    rows: int = ROWS
    per_row: int = PER_ROW
    select_options: int = SELECT_OPTIONS
    select_over: int = SELECT_OVER


def _label(text: str, limit: int) -> str:
    text = text.strip() or "\u200b"
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _is_move(button: Button) -> bool:
    return button.token.startswith("m.")


def _table_of(buttons: list[Button]) -> str:
    parts = buttons[0].token.split(".") if buttons else []
    return parts[1] if len(parts) > 2 else ""


def plan(rows: tuple[tuple[Button, ...], ...], limits: Limits = Limits(),
         ) -> list[list[Button] | tuple[str, list[Button]]]:
    """Rows of the message: a list of buttons, or ("select", options) for a select.

    Pure, so the layout can be checked against the limits without Discord.
    """
    flat = [b for row in rows for b in row]
    moves = [b for b in flat if _is_move(b)]
    if len(moves) <= limits.select_over and len(flat) <= limits.rows * limits.per_row:
        if len(rows) <= limits.rows and all(len(r) <= limits.per_row for r in rows):
            return [list(r) for r in rows if r]
        return [flat[i:i + limits.per_row] for i in range(0, len(flat), limits.per_row)]
    others = [b for b in flat if not _is_move(b)]
    out: list[list[Button] | tuple[str, list[Button]]] = []
    button_rows = [others[i:i + limits.per_row] for i in range(0, len(others), limits.per_row)]
    select_rows = max(limits.rows - len(button_rows), 1)
    chunks = [moves[i:i + limits.select_options]
              for i in range(0, len(moves), limits.select_options)][:select_rows]
    out += [("select", chunk) for chunk in chunks]
    out += button_rows[: limits.rows - len(out)]
    return out


def build_view(rows: tuple[tuple[Button, ...], ...], placeholder: str = "…",
               limits: Limits = Limits()) -> discord.ui.View | None:
    """A persistent-style view (no timeout) for the buttons, or None when there are none."""
    if not rows or not any(rows):
        return None
    view = discord.ui.View(timeout=None)
    table = _table_of([b for row in rows for b in row])
    for index, row in enumerate(plan(rows, limits)):
        if isinstance(row, tuple):
            options = [discord.SelectOption(label=_label(b.label, OPTION_LABEL), value=b.token)
                       for b in row[1]]
            view.add_item(_select(index, table, options, placeholder, index))
            continue
        for button in row:
            item = TokenButton(button.token, _label(button.label, BUTTON_LABEL))
            item.item.row = index
            view.add_item(item)
    return view


def _select(index: int, table: str, options: list[discord.SelectOption], placeholder: str,
            row: int) -> TokenSelect:
    select = TokenSelect(index, table, options, placeholder=placeholder)
    select.item.row = row
    return select
