"""Checks every hosted rules book passes, shared by the books' own tests."""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path

from bot.rules import LANGS, RulesIndex
from bot.rules.models import Lang, RulesBook, Topic

# tests/bot/rules/<this file> -> repository root -> ../shared/seeds
SEEDS = Path(__file__).resolve().parents[3].parent / "shared" / "seeds"
WINDOW = 8


def assert_in_both_languages(topic: Topic) -> None:
    """A title, a body and keywords in both languages; Russian text is Russian and
    English text English, not a paste slip."""
    for lang in LANGS:
        assert topic.title.get(lang).strip(), (topic.id, lang)
        assert topic.body.get(lang).strip(), (topic.id, lang)
        assert getattr(topic.keywords, lang), (topic.id, lang)
    assert_right_scripts(topic)


def assert_right_scripts(topic: Topic) -> None:
    assert re.search("[а-яё]", topic.body.ru, re.IGNORECASE), topic.id
    assert not re.search("[а-яё]", topic.body.en, re.IGNORECASE), topic.id


def assert_chat_sized(topic: Topic) -> None:
    """Two to six sentences and at most 700 characters in each language."""
    for lang in LANGS:
        body = topic.body.get(lang)
        sentences = [s for s in re.split(r"(?<=[.!?])\s+", body) if s]
        assert 2 <= len(sentences) <= 6, (topic.id, lang, len(sentences))
        assert len(body) <= 700, (topic.id, lang, len(body))


def assert_first_hit(index: RulesIndex, question: str, lang: Lang, expected: str) -> None:
    hits = index.search(question, lang)
    assert hits, f"no hits for {question!r}"
    assert hits[0].topic_id == expected, [h.topic_id for h in hits]


def _words(text: str) -> list[str]:
    # Case, ё and punctuation are ignored as well as whitespace: a copied sentence
    # cannot hide behind a changed comma.
    return re.findall(r"\w+", text.lower().replace("ё", "е"))


def _windows(words: list[str]) -> set[tuple[str, ...]]:
    return {tuple(words[i : i + WINDOW]) for i in range(len(words) - WINDOW + 1)}


def seed_windows(paths: Iterable[Path]) -> set[tuple[str, ...]]:
    """Every run of WINDOW words of the rulebook seeds at ``paths``."""
    found: set[tuple[str, ...]] = set()
    for path in paths:
        found |= _windows(_words(path.read_text(encoding="utf-8")))
    return found


def copied_runs(books: Iterable[RulesBook], seed: set[tuple[str, ...]]) -> list[tuple[str, ...]]:
    """(topic, language, words) of every body run that stands in the seeds."""
    return [
        (topic.id, lang, " ".join(window))
        for book in books
        for topic in book.topics
        for lang in LANGS
        for window in _windows(_words(topic.body.get(lang)))
        if window in seed
    ]


def in_languages(ru: list[tuple[str, str]], en: list[tuple[str, str]]
                 ) -> list[tuple[str, Lang, str]]:
    """(question, language, expected topic) of Russian and English questions."""
    return [(q, "ru", t) for q, t in ru] + [(q, "en", t) for q, t in en]
