"""A table's story, step by step: the game replayed from its seed and action log to any
step, as a page shows it (what that step told, the scores then, the board then).

Step 0 is the game as it was dealt; step ``n`` is the table after the ``n``-th logged
step (a move, or a taking back), stamped with the table version that step produced.
Each step is drawn from the viewer's side: a seated player sees what their seat saw
then, anyone else the public view — at no step does a spectator learn more than the
table showed everyone at that moment.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from pydantic import BaseModel

from adapters.web.render import page_html
from bot.i18n import Lang
from bot.services import Services
from bot.storage import LogEntry, TableRecord
from bot.table.turns import ReplayBroken, new_game, replay_steps
from bot.ui.markup import rich_lines
from engine.core.prompts import Event
from engine.registry import get_game


@dataclass(frozen=True)
class Step:
    """The table at one step of its story."""

    number: int  # 0: as dealt
    total: int  # the last step there is
    version: int  # the table version this step produced (the first move's parent for 0)
    state: BaseModel
    events: list[Event]


def step_of(record: TableRecord, log: list[LogEntry], number: int) -> Step | None:
    """The table at step ``number`` (None past the end, or where a move logged under an
    older rule no longer replays)."""
    game = get_game(record.game)
    if record.seed is None or number < 0:
        return None
    found: Step | None = None
    total = 0
    dealt_version = record.version  # no step yet: the game as dealt is the table now
    try:
        for total, (entry, state, events) in enumerate(replay_steps(game, record, log), 1):
            if total == 1:
                dealt_version = entry.version - 1
            if total == number:
                found = Step(number, 0, entry.version, game.copy(state), events)
    except ReplayBroken:
        return None
    if number == 0:
        found = Step(0, 0, dealt_version, new_game(game, record), [])
    return replace(found, total=total) if found is not None else None


def step_json(sv: Services, record: TableRecord, step: Step, lang: Lang) -> dict[str, Any]:
    """What the page shows of a step: its number and version, what it told, the scores."""
    game = get_game(record.game)
    lines = sv.presenter.event_lines(record, lang, step.events)
    scores = sv.presenter.scores_line(record, game.summary(step.state), lang)
    return {
        "step": step.number,
        "total": step.total,
        "version": step.version,
        "text": page_html(rich_lines([scores, *lines])),
    }
