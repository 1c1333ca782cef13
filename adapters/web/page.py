"""What a table's page shows a viewer, as JSON: the table's words, the picture's
address, and the viewer's own open decision with its buttons.

Everything here comes from the presenter the chats use, so the page says what the chat
says: the table message's text (header, scores, the last events, who decides what),
and for a seated viewer the private prompt's question and choices — the very tokens
their DM's buttons carry, so a tap on the page is checked like a press in the chat.
A spectator gets the table message alone, drawn from the public view. The picture
and its tap targets are the server's to add (it draws them once per version).
"""

from __future__ import annotations

from typing import Any

from adapters.web.render import page_html
from bot.identity import is_ai
from bot.services import Services
from bot.storage import TableRecord, TableStatus
from bot.table.moves import prompt_of, seat_of
from bot.ui.choices import ChoiceBlock
from bot.ui.present import seat_names
from engine.registry import get_game

JsonDict = dict[str, Any]


def choices_json(block: ChoiceBlock | None) -> JsonDict | None:
    """A choice block as the page lays it out: every item (no paging: the page scrolls),
    its group's label, its number on the picture."""
    if block is None:
        return None
    return {
        "items": [{"label": c.label, "token": c.token, "kind": c.kind, "group": c.group,
                   "mark": c.mark, "short": c.short} for c in (*block.options, *block.fixed)],
        # A group that folds holds variants of one choice (people sent to one place):
        # the page shows its options by their short labels, many to a row.
        "groups": [{"key": g.key, "label": g.label, "fold": g.fold} for g in block.groups],
    }


def page_json(sv: Services, record: TableRecord, user_id: str | None, now: float) -> JsonDict:
    """The page of ``record`` for ``user_id`` (None: a spectator)."""
    lang = sv.table_lang(record)
    game = get_game(record.game)
    seat = seat_of(record, user_id)
    running = record.status == TableStatus.RUNNING
    state = (sv.view_state(record)
             if record.status in (TableStatus.RUNNING, TableStatus.FINISHED) else None)
    prompts = sv.prompts(record) if running else []
    table = sv.presenter.table_any(record, game, state, lang, prompts, now=now)
    mine = prompt_of(prompts, seat) if seat is not None else None
    decision = None
    if mine is not None:
        private = sv.presenter.private_prompt(record, mine, lang, now=now)
        decision = {"text": page_html(private.text), "choices": choices_json(private.choices)}
    names = seat_names(record)
    return {
        "table": record.table_id,
        "version": record.version,
        "game": record.game,
        "title": sv.presenter.game_title(lang, record.game),
        "status": record.status.value,
        "lang": lang,
        "seat": seat,
        "players": [{"name": n, "ai": is_ai(u)} for n, u in zip(names, record.seats, strict=True)],
        "text": page_html(table.text),
        # The lobby's buttons (join, start…) work from the page as in the chat; a
        # running table's buttons are the private decision's.
        "lobby": choices_json(table.choices) if record.status == TableStatus.LOBBY else None,
        "decision": decision,
    }
