"""Rules data: every book validates, is complete in both languages, and is our own text."""

from __future__ import annotations

import re
from pathlib import Path

import pydantic
import pytest

from bot.rules import LANGS, RulesBook, load_books
from bot.rules.lookup import parse_book

# tests/bot/rules/<this file> -> repository root -> ../shared/seeds
SEEDS = Path(__file__).resolve().parents[3].parent / "shared" / "seeds"
WINDOW = 8

# Topics the Stone Age reference must cover (the list, by our ids).
STONE_AGE_TOPICS = {
    "setup", "round", "placement", "hunting", "forest", "clay_pit", "quarry", "river",
    "tool_maker", "hut", "field", "civ_cards", "buildings", "small_games", "actions",
    "dice", "tools", "card_dice_all", "card_instant", "card_resource_dice",
    "card_one_use_tool", "card_two_resources", "feeding", "new_round", "game_end",
    "final_scoring", "culture_sets", "multipliers", "tie_break", "limits", "resources",
}  # fmt: skip


@pytest.fixture(scope="module")
def books() -> dict[str, RulesBook]:
    return load_books()


def test_stone_age_book_loads_with_expected_topics(books: dict[str, RulesBook]) -> None:
    book = books["stone_age"]
    ids = [topic.id for topic in book.topics]
    assert len(ids) == len(set(ids))
    assert set(ids) == STONE_AGE_TOPICS
    assert 20 <= len(ids) <= 35


def test_every_topic_has_both_languages(books: dict[str, RulesBook]) -> None:
    for book in books.values():
        for topic in book.topics:
            for lang in LANGS:
                assert topic.title.get(lang).strip(), (topic.id, lang)
                assert topic.body.get(lang).strip(), (topic.id, lang)
                assert getattr(topic.keywords, lang), (topic.id, lang)
            # Russian text must be Russian and English text English, not a paste slip.
            assert re.search("[а-яё]", topic.body.ru, re.IGNORECASE), topic.id
            assert not re.search("[а-яё]", topic.body.en, re.IGNORECASE), topic.id


def test_bodies_are_chat_sized(books: dict[str, RulesBook]) -> None:
    for book in books.values():
        for topic in book.topics:
            for lang in LANGS:
                body = topic.body.get(lang)
                sentences = [s for s in re.split(r"(?<=[.!?])\s+", body) if s]
                assert 2 <= len(sentences) <= 6, (topic.id, lang, len(sentences))
                assert len(body) <= 700, (topic.id, lang, len(body))


def test_engine_choices_are_stated(books: dict[str, RulesBook]) -> None:
    # Where the rulebook is silent and our engine decides, the reference says so.
    book = books["stone_age"]
    for topic_id in ("placement", "tool_maker", "hut", "field", "card_two_resources", "limits"):
        topic = book.topic(topic_id)
        assert "В боте" in topic.body.ru or "в боте" in topic.body.ru, topic_id
        assert "bot" in topic.body.en, topic_id


def test_invalid_books_are_rejected() -> None:
    topic = """
  - id: a
    title: {ru: А, en: A}
    body: {ru: Текст. Ещё., en: Text. More.}
    keywords: {ru: [а], en: [a]}"""
    head = "game: g\ntitle: {ru: Г, en: G}\ntopics:"
    assert parse_book(head + topic).topics[0].id == "a"
    with pytest.raises(pydantic.ValidationError, match="duplicate topic id"):
        parse_book(head + topic + topic)
    with pytest.raises(pydantic.ValidationError):
        parse_book(head + topic.replace("en: Text. More.", "de: Text."))  # no English body
    with pytest.raises(pydantic.ValidationError):
        parse_book(head + topic.replace("en: [a]", "en: []"))  # no English keywords
    with pytest.raises(pydantic.ValidationError):
        parse_book(head + topic.replace("en: [a]", "en: [-10]"))  # YAML number, not text
    with pytest.raises(pydantic.ValidationError):
        parse_book(head + topic + "\n    extra: 1")  # unknown key (typo guard)


def _words(text: str) -> list[str]:
    return re.findall(r"\w+", text.lower().replace("ё", "е"))


def _windows(words: list[str]) -> set[tuple[str, ...]]:
    return {tuple(words[i : i + WINDOW]) for i in range(len(words) - WINDOW + 1)}


@pytest.mark.skipif(not SEEDS.is_dir(), reason="rulebook seeds (../shared/seeds) not present")
def test_no_body_copies_a_rulebook_sentence(books: dict[str, RulesBook]) -> None:
    # Normalising case and punctuation as well as whitespace makes the check stricter:
    # a copied sentence cannot hide behind a changed comma.
    seed_windows: set[tuple[str, ...]] = set()
    for path in sorted(SEEDS.glob("*.txt")):
        seed_windows |= _windows(_words(path.read_text(encoding="utf-8")))
    assert seed_windows
    copied = [
        (topic.id, lang, " ".join(window))
        for book in books.values()
        for topic in book.topics
        for lang in LANGS
        for window in _windows(_words(topic.body.get(lang)))
        if window in seed_windows
    ]
    assert copied == []
