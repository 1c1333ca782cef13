"""Rules look-up: find the rules topics that answer a player's question.

`rules <game> <words>` in the chat ends up in `RulesLibrary.lookup`. The search is a
small weighted keyword match: every topic is indexed once by the stems of its keywords,
title and body in all languages (so a Russian question works in an English chat), and
each query word is matched exactly, by prefix or within a couple of typos.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from importlib.resources.abc import Traversable
from itertools import pairwise
from types import MappingProxyType

from bot.rules.models import Lang, RulesBook, Topic, TopicHit
from bot.rules.text import MAX_EDITS, MIN_PREFIX, normalize, similarity, terms
from engine.core.data import load_yaml

# Where a word occurs says how much it tells about the topic: keywords are chosen to be
# what players ask, titles name the topic, bodies merely mention things in passing.
KEYWORD_WEIGHT = 3.0
TITLE_WEIGHT = 2.0
BODY_WEIGHT = 0.7
# Bonus for two adjacent query words found together in one keyword phrase or title.
PHRASE_WEIGHT = 4.0

DEFAULT_LIMIT = 3
# A hit must reach this fraction of the best score: a question usually has one answer,
# and far weaker matches are noise that makes the chat reply longer.
RELATIVE_CUTOFF = 0.45
# Below this a "hit" is a single weak fuzzy or body match — better to say nothing.
MIN_SCORE = 1.5


class UnknownGameError(LookupError):
    """Raised for a game name that matches no rules book."""

    def __init__(self, name: str, known: Iterable[str]) -> None:
        self.name = name
        self.known = tuple(sorted(known))
        super().__init__(f"no rules for {name!r}; known games: {', '.join(self.known)}")


def parse_book(text: str) -> RulesBook:
    """Parse and validate one rules book from YAML text."""
    return RulesBook.model_validate(load_yaml(text))


def load_books(files: Iterable[Traversable] | None = None) -> dict[str, RulesBook]:
    """Load the rules books in `files` (default: every hosted game's, from its manifest).

    Raises pydantic.ValidationError for an invalid file and ValueError when two files
    claim the same game.
    """
    if files is None:
        from bot.games import manifests

        files = [m.rules_file() for m in manifests().values()]
    books: dict[str, RulesBook] = {}
    for entry in files:
        book = parse_book(entry.read_text(encoding="utf-8"))
        if book.game in books:
            raise ValueError(f"two rules files for game {book.game!r}")
        books[book.game] = book
    return books


@dataclass(frozen=True, slots=True)
class _Posting:
    topic: int
    weight: float


def _field_weights(topic: Topic) -> dict[str, float]:
    """Return each stem's weight in `topic`.

    Within a field the weight grows slowly with repetition (a stem in five keywords
    beats one in a single keyword); the fields then add up.
    """
    fields = (
        (KEYWORD_WEIGHT, " \n ".join(topic.keywords.all())),
        (TITLE_WEIGHT, f"{topic.title.ru}\n{topic.title.en}"),
        (BODY_WEIGHT, f"{topic.body.ru}\n{topic.body.en}"),
    )
    weights: dict[str, float] = {}
    for field_weight, text in fields:
        counts: dict[str, int] = {}
        for term in terms(text):
            counts[term] = counts.get(term, 0) + 1
        for term, count in counts.items():
            weights[term] = weights.get(term, 0.0) + field_weight * (1.0 + math.log(count))
    return weights


def _phrases(topic: Topic) -> set[tuple[str, str]]:
    """Return the adjacent stem pairs of the topic's keyword phrases and titles."""
    pairs: set[tuple[str, str]] = set()
    for phrase in (*topic.keywords.all(), topic.title.ru, topic.title.en):
        stems = terms(phrase)
        pairs.update(pairwise(stems))
    return pairs


def _idf(total: int, frequency: float) -> float:
    return math.log(1.0 + total / frequency)


class RulesIndex:
    """A pre-built search index over one rules book. Immutable once built."""

    def __init__(self, book: RulesBook) -> None:
        """Index `book`; costs a few milliseconds, so build once and reuse."""
        self.book = book
        total = len(book.topics)
        postings: dict[str, list[_Posting]] = {}
        phrases: dict[tuple[str, str], list[int]] = {}
        for number, topic in enumerate(book.topics):
            for term, weight in _field_weights(topic).items():
                postings.setdefault(term, []).append(_Posting(number, weight))
            for pair in _phrases(topic):
                phrases.setdefault(pair, []).append(number)
        # Inverse document frequency: a stem that labels many topics ("карта") decides
        # little, one that labels a single topic ("ничья") decides almost everything.
        # A mere mention in a body counts as a fraction of a topic, otherwise the words
        # every body uses ("постройки", "инструменты") would lose their weight in the
        # very topics they name.
        self._idf: Mapping[str, float] = MappingProxyType(
            {
                term: _idf(total, sum(min(1.0, p.weight / KEYWORD_WEIGHT) for p in plist))
                for term, plist in postings.items()
            }
        )
        self._postings: Mapping[str, tuple[_Posting, ...]] = MappingProxyType(
            {term: tuple(plist) for term, plist in postings.items()}
        )
        self._phrases: Mapping[tuple[str, str], tuple[int, ...]] = MappingProxyType(
            {pair: tuple(topics) for pair, topics in phrases.items()}
        )
        # Fuzzy matching only compares stems of similar length; bucketing by length
        # avoids scanning the whole vocabulary for every query word.
        by_length: dict[int, list[str]] = {}
        for term in self._postings:
            by_length.setdefault(len(term), []).append(term)
        self._by_length: Mapping[int, tuple[str, ...]] = MappingProxyType(
            {length: tuple(sorted(group)) for length, group in by_length.items()}
        )

    def _matches(self, query_term: str) -> dict[str, float]:
        """Return indexed stems resembling `query_term`, with their similarity."""
        if query_term in self._postings:
            # An exact hit is what the player meant; fuzzy neighbours would only add
            # noise ("карт" must not also pull in every stem one letter away).
            return {query_term: 1.0}
        found: dict[str, float] = {}
        for length, group in self._by_length.items():
            # Typo matches differ in length by at most MAX_EDITS; only prefix matches
            # (both stems at least MIN_PREFIX long) may differ more.
            if (
                abs(length - len(query_term)) > MAX_EDITS
                and min(length, len(query_term)) < MIN_PREFIX
            ):
                continue
            for term in group:
                score = similarity(query_term, term)
                if score > 0.0:
                    found[term] = score
        return found

    def topic_list(self, lang: Lang) -> list[TopicHit]:
        """Return every topic in display order (the answer to an empty query)."""
        return [self._hit(topic, lang, 0.0) for topic in self.book.topics]

    def search(self, query: str, lang: Lang, limit: int = DEFAULT_LIMIT) -> list[TopicHit]:
        """Return up to `limit` topics answering `query`, best first, texts in `lang`.

        An empty or blank query returns the whole topic list; a query that matches
        nothing well enough returns an empty list.
        """
        if not normalize(query).strip():
            return self.topic_list(lang)
        query_terms = terms(query)
        matches = {term: self._matches(term) for term in query_terms}
        scores: dict[int, float] = {}
        for found in matches.values():  # each distinct word counts once
            self._add_best(scores, self._term_scores(found))
        for first, second in pairwise(query_terms):
            self._add_best(scores, self._phrase_scores(matches[first], matches[second]))
        if not scores:
            return []
        top = max(scores.values())
        floor = max(MIN_SCORE, top * RELATIVE_CUTOFF)
        # Ties keep display order, so results are deterministic.
        ranked = sorted(
            (item for item in scores.items() if item[1] >= floor),
            key=lambda item: (-item[1], item[0]),
        )
        return [
            self._hit(self.book.topics[number], lang, round(score, 3))
            for number, score in ranked[: max(limit, 0)]
        ]

    def _term_scores(self, found: Mapping[str, float]) -> dict[int, float]:
        """Score every topic for one query word: its best-matching stem in that topic."""
        best: dict[int, float] = {}
        for term, closeness in found.items():
            idf = self._idf[term]
            for posting in self._postings[term]:
                value = closeness * posting.weight * idf
                if value > best.get(posting.topic, 0.0):
                    best[posting.topic] = value
        return best

    def _phrase_scores(
        self, first: Mapping[str, float], second: Mapping[str, float]
    ) -> dict[int, float]:
        """Score topics whose keyword phrase contains two adjacent query words.

        Two words together ("кубики для всех", "new round") say much more than each
        alone; either order counts, since players reorder words freely.
        """
        best: dict[int, float] = {}
        total = len(self.book.topics)
        for term_a, close_a in first.items():
            for term_b, close_b in second.items():
                for pair in ((term_a, term_b), (term_b, term_a)):
                    topics = self._phrases.get(pair, ())
                    if not topics:
                        continue
                    value = close_a * close_b * PHRASE_WEIGHT * _idf(total, len(topics))
                    for topic in topics:
                        if value > best.get(topic, 0.0):
                            best[topic] = value
        return best

    @staticmethod
    def _add_best(scores: dict[int, float], part: Mapping[int, float]) -> None:
        for topic, value in part.items():
            scores[topic] = scores.get(topic, 0.0) + value

    def _hit(self, topic: Topic, lang: Lang, score: float) -> TopicHit:
        return TopicHit(
            game=self.book.game,
            topic_id=topic.id,
            title=topic.title.get(lang),
            body=topic.body.get(lang),
            score=score,
        )


class RulesLibrary:
    """All games' rules books with their search indexes, built lazily and cached here.

    Create one per process (or per test) and pass it to whoever answers `rules`. A game
    is named by its id or by anything a player types for it: ``bot.games.find_game``,
    the one look-up of game names, reads it.
    """

    def __init__(self, books: Mapping[str, RulesBook] | None = None) -> None:
        """Use ``books`` if given, else the hosted games' books."""
        self._books: Mapping[str, RulesBook] = MappingProxyType(
            dict(books) if books is not None else load_books()
        )
        self._indexes: dict[str, RulesIndex] = {}

    @property
    def games(self) -> tuple[str, ...]:
        """Ids of the games that have a rules book."""
        return tuple(self._books)

    def resolve_game(self, name: str) -> str:
        """Return the game id for a name a player typed; raise UnknownGameError."""
        from bot.games import find_game  # the games' manifests read their rules books

        if name in self._books:
            return name
        found = find_game(name)
        if found is None or found.name not in self._books:
            raise UnknownGameError(name, self._books)
        return found.name

    def book(self, game: str) -> RulesBook:
        """Return the rules book of `game` (id or alias)."""
        return self._books[self.resolve_game(game)]

    def index(self, game: str) -> RulesIndex:
        """Return the search index of `game` (id or alias), building it on first use."""
        game_id = self.resolve_game(game)
        index = self._indexes.get(game_id)
        if index is None:
            index = self._indexes[game_id] = RulesIndex(self._books[game_id])
        return index

    def lookup(
        self, game: str, query: str, lang: Lang, limit: int = DEFAULT_LIMIT
    ) -> list[TopicHit]:
        """Answer `rules <game> <query>`: best-matching topics first, texts in `lang`.

        An empty query lists all topics; no good match gives an empty list.
        Raises UnknownGameError for an unknown game.
        """
        return self.index(game).search(query, lang, limit)
