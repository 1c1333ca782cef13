"""Applying a move to a table: engine state in, new record and what changed out.

Besides the game state the bot keeps, per seat, when its current prompt opened and
when it last acted. A button stays valid across other players' moves (simultaneous
decisions) exactly while its seat has not acted since the button was issued and its
prompt still looks the same — the prompt's fingerprint.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel

from bot.identity_memo import IdentityMemo
from bot.storage import ActionKind, LogEntry, TableRecord, TableStatus
from bot.table.settings import TableMeta, meta_of, options_of, setup_variants
from bot.table.undo_trail import extend_trail, undo_count, undo_event
from bot.table.vote_kinds import MOVED_ON, end_vote, ends_with_move
from engine.core.errors import IllegalMove
from engine.core.prompts import Event, Prompt
from engine.core.protocol import Game
from engine.core.reveals import hidden_part, reveals

RECENT_EVENTS = 8


def _digest(prompt: Prompt) -> str:
    body = json.dumps(
        [prompt.seat, prompt.label.code, prompt.label.args, prompt.keys()],
        sort_keys=True, default=str,
    )
    return hashlib.blake2s(body.encode(), digest_size=4).hexdigest()


# The bot keeps one prompt object per open decision (``Services.prompts``), which a
# press digests three times over (the check, the table's buttons, the private buttons).
_digests: IdentityMemo[Prompt, str] = IdentityMemo(_digest)


def fingerprint(prompt: Prompt) -> str:
    """A short digest of what a prompt asks and offers."""
    return _digests(prompt)


def load_state(game: Game[Any], record: TableRecord) -> BaseModel:
    """The engine state inside a record, loaded by the engine (the record holds it
    parsed, so no second parse)."""
    state: BaseModel = game.load(record.state)
    return state


def state_dict(state: BaseModel) -> dict[str, Any]:
    """The engine state as JSON-ready data for the record."""
    return state.model_dump(mode="json")


@dataclass
class MoveOutcome:
    """A move applied in memory, ready to be committed."""

    record: TableRecord
    events: list[Event]
    prompts: list[Prompt]
    new_turn: list[int]  # seats whose turn has just begun
    ended_turn: list[int]  # seats whose turn has just ended
    finished: bool
    # The state after the move: what ``record.state`` holds, already parsed. Nothing
    # else holds it, so once committed it can serve as that version's read-only state.
    state: BaseModel


def _clock_after_move(
    meta: TableMeta, record: TableRecord, seat: int, still_asked: bool, now: float
) -> None:
    options = options_of(record)
    if not options.clock:
        return
    key = str(seat)
    spent = max(0.0, now - meta.opened_at.get(key, now))
    bank = meta.bank.get(key, options.clock_initial_h * 3600) - spent
    if not still_asked:
        bank = min(bank + options.clock_bonus_h * 3600, options.clock_max_h * 3600)
    meta.bank[key] = bank


def apply_move(
    game: Game[Any], record: TableRecord, seat: int, key: str, now: float,
    before: list[Prompt] | None = None,
) -> MoveOutcome:
    """Apply ``key`` for ``seat`` to a copy of the record's state.

    Raises the engine's ``IllegalMove`` (nothing changes). The returned record is not
    yet stored: the caller commits it against ``record.version``.
    """
    state = load_state(game, record)
    asked_before = {p.seat for p in (game.pending(state) if before is None else before)}
    hidden = hidden_part(game, state)
    events = game.apply(state, seat, key)
    prompts = game.pending(state)
    asked_after = {p.seat for p in prompts}
    version = record.version + 1
    meta = meta_of(record)
    meta.undo, meta.sealed = extend_trail(game, meta_of(record), record.state, seat, key,
                                          version, len(events), reveals(game, hidden, state))
    _clock_after_move(meta, record, seat, seat in asked_after, now)
    meta.last_acted[str(seat)] = version
    meta.acted_at[str(seat)] = now
    new_turn = sorted(asked_after - asked_before)
    ended = sorted(asked_before - asked_after)
    for s in [*new_turn, *([seat] if seat in asked_after else [])]:
        meta.opened[str(s)] = version
        meta.opened_at[str(s)] = now
    for s in new_turn:
        meta.began[str(s)] = version
    for s in ended:
        meta.opened.pop(str(s), None)
        meta.opened_at.pop(str(s), None)
    for e in events:
        meta.recent.append([e.code, e.seat, e.args])
    meta.recent = meta.recent[-RECENT_EVENTS:]
    if meta.vote is not None and ends_with_move(meta.vote, seat):
        end_vote(meta, MOVED_ON, version)
    finished = game.result(state) is not None
    updated = record.model_copy(update={
        "state": state_dict(state),
        "meta": meta.model_dump(mode="json"),
        "status": TableStatus.FINISHED if finished else record.status,
    })
    return MoveOutcome(updated, events, prompts, new_turn, ended, finished, state)


def open_first_prompts(game: Game[Any], record: TableRecord, now: float) -> TableRecord:
    """Note the prompts open at the start of a game (for reminders and clocks)."""
    state = load_state(game, record)
    meta = meta_of(record)
    options = options_of(record)
    for p in game.pending(state):
        meta.opened[str(p.seat)] = record.version + 1
        meta.began[str(p.seat)] = record.version + 1
        meta.opened_at[str(p.seat)] = now
    if options.clock:
        meta.bank = {str(s): options.clock_initial_h * 3600 for s in range(len(record.seats))}
    return record.model_copy(update={"meta": meta.model_dump(mode="json")})


def replay(game: Game[Any], record: TableRecord, log: list[LogEntry]) -> BaseModel:
    """Rebuild the game state from the seed and the logged moves (for audits and repair)."""
    return replay_with_events(game, record, log)[0]


class ReplayBroken(ValueError):
    """A logged move the engine no longer takes: the table was played under an older
    version of its rules (a change that asks fewer steps, say). Its stored state plays
    on; only the retelling stops here, with the ``events`` told up to that move."""

    def __init__(self, version: int, events: list[Event]) -> None:
        super().__init__(f"logged move of version {version} no longer replays")
        self.version = version
        self.events = events


def replay_with_events(
    game: Game[Any], record: TableRecord, log: list[LogEntry]
) -> tuple[BaseModel, list[Event]]:
    """The game state rebuilt from the seed and the logged moves, and every event the
    moves produced on the way (``/log`` tells them again)."""
    events: list[Event] = []
    state: BaseModel | None = None
    for _, after, told in replay_steps(game, record, log, events):
        state = after
        events += told
    if state is None:  # no step at all: the game as it was dealt
        state = new_game(game, record)
    return state, events


def new_game(game: Game[Any], record: TableRecord) -> BaseModel:
    """The table's game as it was dealt, before any move."""
    if record.seed is None:
        raise ValueError("table has no seed: it never started")
    state: BaseModel = game.new(len(record.seats), record.seed, setup_variants(record, game))
    return state


def replay_steps(
    game: Game[Any], record: TableRecord, log: list[LogEntry],
    told: list[Event] | None = None,
) -> Iterator[tuple[LogEntry, BaseModel, list[Event]]]:
    """The game replayed one logged step (a move, a taking back) at a time: each step's
    entry, the state after it (the same object, changed in place: copy it to keep it)
    and the events it told. ``ReplayBroken`` carries ``told`` (the events before the
    step that no longer replays) when given."""
    state = new_game(game, record)
    standing: list[LogEntry] = []
    for entry in log:
        if entry.kind == ActionKind.MOVE and entry.seat is not None:
            try:
                events = game.apply(state, entry.seat, entry.key)
            except IllegalMove as refused:
                raise ReplayBroken(entry.version, list(told or [])) from refused
            standing.append(entry)
            yield entry, state, events
        elif entry.kind == ActionKind.UNDO and standing:
            # The last moves standing are taken back: their events stay told (the log
            # keeps them, followed by the undo's own line), the state goes back to
            # before them.
            count = undo_count(entry.key)
            del standing[-count:]
            state = new_game(game, record)
            for kept in standing:
                game.apply(state, kept.seat or 0, kept.key)
            yield entry, state, [Event(undo_event(count), entry.seat)]
