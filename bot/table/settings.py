"""A table's settings (chosen when it is opened) and the bot's bookkeeping beside the game.

Both travel inside the stored ``TableRecord`` (``options`` and ``meta``) and are
validated by these models whenever a record is read.
"""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Any, Literal, get_args

from pydantic import BaseModel, ConfigDict, Field, field_validator

from bot.identity_memo import IdentityMemo
from bot.storage import TableRecord
from engine.ai.levels import LevelName
from engine.core.protocol import Game
from engine.core.variants import recorded

# How well an AI plays: a seat of its own (``bot.table.lobby.add_ai``), or the seat of
# a player whose time ran out, given to it by the others' vote.
AiLevel = LevelName
AI_LEVELS: tuple[AiLevel, ...] = get_args(AiLevel)
# The autopilot's levels before the AI had its own: a stored table, ballot or vote's
# outcome that names one reads as the AI level that plays alike.
OLD_LEVELS: dict[str, AiLevel] = {"random": "easy", "greedy": "normal"}


def current_level(word: str) -> str:
    """``word`` with an old autopilot level read as its AI level (any other as it is)."""
    return OLD_LEVELS.get(word, word)


def as_level(word: str) -> AiLevel | None:
    """The AI level ``word`` is (or an old autopilot level it stands for), or None."""
    word = current_level(word)
    return next((level for level in AI_LEVELS if level == word), None)


# Every duration a table may set: from a second (tests, impatient friends) to 90 days.
# The bound keeps every computed date far inside what datetime can hold.
MIN_DURATION_H = 1 / 3600
MAX_DURATION_H = 24.0 * 90


class TableOptions(BaseModel):
    """What the creator may choose: seats, language, reminders and the turn clock.

    The clock works like Board Game Arena's turn-based mode: every player starts with
    ``clock_initial_h`` hours, gains ``clock_bonus_h`` after each of their turns, and
    never holds more than ``clock_max_h``.
    """

    model_config = ConfigDict(extra="forbid")

    min_seats: int = Field(ge=1, le=7)
    max_seats: int = Field(ge=1, le=7)
    lang: Literal["ru", "en"] = "ru"
    reminder_h: float = Field(default=12.0, ge=MIN_DURATION_H, le=MAX_DURATION_H)
    reminder_repeats: int = Field(default=3, ge=0, le=20)
    notify_next: bool = True
    clock: bool = False
    clock_initial_h: float = Field(default=24.0, ge=MIN_DURATION_H, le=MAX_DURATION_H)
    clock_bonus_h: float = Field(default=12.0, ge=0, le=MAX_DURATION_H)
    clock_max_h: float = Field(default=72.0, ge=MIN_DURATION_H, le=MAX_DURATION_H)
    # Whether anyone may watch the table's page without a seat (public information only).
    spectators: bool = True
    # The game's declared variants (its manifest's), passed to the engine's ``new``.
    variants: dict[str, str] = Field(default_factory=dict)


VoteKindName = Literal["timeout", "undo"]


class Vote(BaseModel):
    """A question the table puts to some of its players (its kind's rules: ``bot.table
    .vote_kinds``): after a player's time ran out, the others choose what becomes of the
    seat (``timeout``); a player who asks to take back a decision others have built on
    needs their consent (``undo``)."""

    model_config = ConfigDict(extra="forbid")

    kind: VoteKindName = "timeout"
    seat: int  # the seat it is about: the one that ran out, or the one that asks
    opened: int = 0  # the table version that opened the vote; its buttons carry it
    ballots: dict[str, str] = Field(default_factory=dict)  # user id -> choice
    voters: list[int] = Field(default_factory=list)  # the seats asked; none: all but ``seat``
    until: float = 0.0  # when it lapses unanswered (unix time; 0: it does not)

    @field_validator("ballots", mode="before")
    @classmethod
    def _current_ballots(cls, ballots: Any) -> Any:
        if not isinstance(ballots, dict):
            return ballots
        return {user: current_level(c) if isinstance(c, str) else c
                for user, c in ballots.items()}


class VoteEnd(BaseModel):
    """How the table's last vote ended, for the messages of the change that ended it."""

    model_config = ConfigDict(extra="forbid")

    version: int  # the table version that ended it
    kind: VoteKindName
    seat: int
    outcome: str  # the choice decided, or what ended it otherwise (``vote_kinds``)
    by: int | None = None  # the seat whose ballot decided it

    @field_validator("outcome", mode="before")
    @classmethod
    def _current_outcome(cls, outcome: Any) -> Any:
        return current_level(outcome) if isinstance(outcome, str) else outcome


class UndoPoint(BaseModel):
    """One decision that may still be taken back: the version it made, whose it was,
    its key, how many events it added to ``recent``, and the bookkeeping as it stood
    before it (without ``undo``, ``recent`` and ``names``, which are rebuilt)."""

    model_config = ConfigDict(extra="forbid")

    version: int
    seat: int
    key: str
    events: int = 0
    meta: dict[str, Any] = Field(default_factory=dict)


class UndoTrail(BaseModel):
    """The decisions made since anything random or hidden was last shown (``bot.table
    .undo``): the game state before the first of them, and each of them in order."""

    model_config = ConfigDict(extra="forbid")

    base: dict[str, Any]
    points: list[UndoPoint] = Field(default_factory=list)
    # A later version the trail still describes the table at: reached by changes that
    # touched nothing but an undo vote (``bot.table.undo_trail.carry``); 0 for none.
    carried: int = 0


class TableMeta(BaseModel):
    """The bot's notes about a running table (not part of the game rules).

    Seat numbers are stored as strings because JSON object keys are strings.
    """

    model_config = ConfigDict(extra="forbid")

    names: dict[str, str] = Field(default_factory=dict)  # user id -> display name
    last_acted: dict[str, int] = Field(default_factory=dict)  # seat -> version of last move
    acted_at: dict[str, float] = Field(default_factory=dict)  # seat -> unix time of it
    opened: dict[str, int] = Field(default_factory=dict)  # seat -> version its prompt opened
    began: dict[str, int] = Field(default_factory=dict)  # seat -> version its turn began
    opened_at: dict[str, float] = Field(default_factory=dict)  # seat -> unix time it opened
    bank: dict[str, float] = Field(default_factory=dict)  # seat -> clock seconds left
    # seat -> the AI level that plays it: an AI player's seat from the start, a seat
    # whose time ran out once the others chose so
    autopilot: dict[str, AiLevel] = Field(default_factory=dict)
    vote: Vote | None = None
    ended: VoteEnd | None = None  # how the last vote ended (``bot.table.vote_kinds``)
    recent: list[list[Any]] = Field(default_factory=list)  # last events: [code, seat, args]
    undo: UndoTrail | None = None  # what may still be taken back (``bot.table.undo``)
    sealed: int = 0  # the version of the last move that showed something random or hidden
    undone: int = 0  # the version of the last undo (its messages say "taken back")

    @field_validator("autopilot", mode="before")
    @classmethod
    def _current_levels(cls, held: Any) -> Any:
        if not isinstance(held, dict):
            return held
        return {seat: current_level(v) if isinstance(v, str) else v for seat, v in held.items()}


def options_of(record: TableRecord) -> TableOptions:
    """The table's validated options (treat as read-only: they are shared)."""
    return _options_by_dict(record.options)


def setup_variants(record: TableRecord, game: Game[Any]) -> dict[str, str]:
    """The variants ``game``'s ``new`` is given for the table, when it starts and at
    every replay: those it recorded when it opened, and each variant declared since at
    what the game played before it (``engine.core.variants.recorded``)."""
    return recorded(game.variants, options_of(record).variants)


@lru_cache(maxsize=4096)
def _options(source: str) -> TableOptions:
    # Options are fixed when a table opens, so equal settings parse once.
    return TableOptions.model_validate_json(source)


# A press reads a record's options and bookkeeping a dozen times over: parsed once per
# dict (``IdentityMemo``; a record's dicts are never edited in place).
_options_by_dict: IdentityMemo[dict[str, Any], TableOptions] = IdentityMemo(
    lambda source: _options(json.dumps(source, sort_keys=True)))
_meta_by_dict: IdentityMemo[dict[str, Any], TableMeta] = IdentityMemo(
    TableMeta.model_validate)


def meta_of(record: TableRecord) -> TableMeta:
    """The table's validated bookkeeping: a fresh copy, to change and write back."""
    return TableMeta.model_validate(record.meta)


def meta_view(record: TableRecord) -> TableMeta:
    """The table's validated bookkeeping for reading only: shared between callers, so
    never change it (``meta_of`` gives a copy to change)."""
    return _meta_by_dict(record.meta)
