"""Data model of a game's rules reference, validated when the YAML is loaded.

A rules book is a list of topics; every topic carries its title, body and keywords in
every chat language, so a missing translation fails at load time rather than in a chat.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, model_validator

Lang = Literal["ru", "en"]
LANGS: tuple[Lang, ...] = ("ru", "en")

# Whitespace-only text would render as an empty chat message; reject it at load time.
NonBlank = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1)]


class _Frozen(BaseModel):
    # Extra keys are almost always typos in hand-written YAML ("keyword:"), so forbid them.
    model_config = ConfigDict(frozen=True, extra="forbid")


class Localized(_Frozen):
    """One piece of text in every supported language."""

    ru: NonBlank
    en: NonBlank

    def get(self, lang: Lang) -> str:
        """Return the text in `lang`."""
        return self.ru if lang == "ru" else self.en


class LocalizedWords(_Frozen):
    """Search keywords (single words or short phrases) in every supported language."""

    ru: tuple[NonBlank, ...] = Field(min_length=1)
    en: tuple[NonBlank, ...] = Field(min_length=1)

    def all(self) -> tuple[str, ...]:
        """Return the keywords of all languages together (search is cross-language)."""
        return self.ru + self.en


class Topic(_Frozen):
    """One rules topic: a stable id, a title, a short body and search keywords."""

    id: Annotated[str, StringConstraints(pattern=r"^[a-z][a-z0-9_]*$")]
    title: Localized
    body: Localized
    keywords: LocalizedWords


class RulesBook(_Frozen):
    """All rules topics of one game, in display order."""

    game: Annotated[str, StringConstraints(pattern=r"^[a-z][a-z0-9_]*$")]
    title: Localized
    topics: tuple[Topic, ...] = Field(min_length=1)
    # Families of many small topics (``tile`` for ``tile_*`` ids): the topic list names
    # each family in one line instead of every member, so it stays short enough for a
    # chat message; ``/rules <game> <family title>`` lists the members.
    groups: dict[str, Localized] = Field(default_factory=dict)

    @model_validator(mode="after")
    def _unique_ids(self) -> RulesBook:
        # Topic ids are what tests and other code refer to; a duplicate would make one
        # topic unreachable by id.
        seen: set[str] = set()
        for topic in self.topics:
            if topic.id in seen:
                raise ValueError(f"duplicate topic id {topic.id!r} in {self.game!r}")
            seen.add(topic.id)
        return self

    def group_of(self, topic: Topic) -> str | None:
        """The family ``topic`` belongs to (its id's prefix), if the book declares it."""
        head, sep, _ = topic.id.partition("_")
        return head if sep and head in self.groups else None

    def topic(self, topic_id: str) -> Topic:
        """Return the topic with `topic_id`; raise KeyError if there is none."""
        for topic in self.topics:
            if topic.id == topic_id:
                return topic
        raise KeyError(topic_id)


@dataclass(frozen=True, slots=True)
class TopicHit:
    """One search result, already in the requested language.

    `score` is the relevance (higher is better); it is 0.0 when the hit comes from a
    topic listing rather than a search.
    """

    game: str
    topic_id: str
    title: str
    body: str
    score: float
