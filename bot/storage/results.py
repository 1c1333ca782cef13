"""Pydantic models of what is kept of every game for good: its result and the ratings
that follow from all results.

A table's record and log are archived for ``CAMPFIRE_ARCHIVE_DAYS`` and then gone; its
``KeptResult`` is written by the same atomic step that archives it (once: archiving an
archived table writes nothing) and never expires. Ratings (``KeptRating``) are figures
derived from the kept results in the order they were kept, so they can always be
rebuilt from them (``bot.stats.ratings``).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pydantic import AwareDatetime, BaseModel, ConfigDict, Field, JsonValue

from bot.storage.records import ExternalId, GameName, TableId


class KeptSeat(BaseModel):
    """One seat of a finished table: who sat there (an AI by its level), its score and
    its place (1 for a winner; seats level on score share a place)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    user_id: ExternalId
    name: str
    ai_level: str | None = None
    score: int
    place: int = Field(ge=1)


class KeptResult(BaseModel):
    """What is kept of one table once it is over: the game and its settings, when and
    where it was played, its seats, and why it ended (the game's own reason for a game
    played out; ``aborted`` for one ended early, which is kept but never rated)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    table_id: TableId
    game: GameName
    options: dict[str, JsonValue] = Field(default_factory=dict)
    chat_id: ExternalId
    opened_at: AwareDatetime
    ended_at: AwareDatetime
    seats: tuple[KeptSeat, ...]
    reason: str
    rated: bool

    def places(self) -> list[int]:
        """Every seat's place, in seat order."""
        return [s.place for s in self.seats]


class KeptRating(BaseModel):
    """A player's rating in one game and scope: the rating system's two figures (skill
    and how unsure it still is), and the rated games and wins behind them."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    mu: float
    sigma: float
    games: int = 0
    wins: int = 0
    name: str = ""


class RatingStep(BaseModel):
    """One point of a player's rating history in a game (everywhere): after which kept
    result, when, and the rating shown then."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    seq: int
    table_id: TableId
    at: AwareDatetime
    shown: int


# (game, scope, player): where one rating is kept.
RatingKey = tuple[str, str, str]


@dataclass
class Ratings:
    """Ratings and history steps up to the kept result numbered ``cursor``: every one
    of them after a rebuild, or those a batch of results changed."""

    ratings: dict[RatingKey, KeptRating] = field(default_factory=dict)
    history: dict[tuple[str, str], list[RatingStep]] = field(default_factory=dict)
    cursor: int = 0
