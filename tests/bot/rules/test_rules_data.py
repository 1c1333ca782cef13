"""Rules data: every book validates, is complete in both languages, and is our own text."""

from __future__ import annotations

import pydantic
import pytest

from bot.rules import RulesBook, load_books
from bot.rules.lookup import parse_book
from tests.bot.rules.checks import (
    SEEDS,
    assert_chat_sized,
    assert_in_both_languages,
    copied_runs,
    seed_windows,
)

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
            assert_in_both_languages(topic)


def test_bodies_are_chat_sized(books: dict[str, RulesBook]) -> None:
    for book in books.values():
        for topic in book.topics:
            assert_chat_sized(topic)


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


@pytest.mark.skipif(not SEEDS.is_dir(), reason="rulebook seeds (../shared/seeds) not present")
def test_no_body_copies_a_rulebook_sentence(books: dict[str, RulesBook]) -> None:
    seed = seed_windows(sorted(SEEDS.glob("*.txt")))
    assert seed
    assert copied_runs(books.values(), seed) == []
