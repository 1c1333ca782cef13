"""Caverna's rules book and names: every furnishing tile, action space, round card and
loot item has a topic and a name in both languages (the names equal to the engine
data's), the book keeps the rules-data checks every hosted book passes, and the
typo-tolerant look-up finds tiles by misspelled names in either language."""

from __future__ import annotations

import re

import pytest

from bot.games.caverna.manifest import CAVERNA_MANIFEST
from bot.i18n.catalog import LANGS, default_catalog
from bot.rules import RulesBook, RulesLibrary
from bot.rules.lookup import parse_book
from engine.caverna.components import components
from engine.caverna.expedition import loot_table
from tests.bot.rules.checks import (
    SEEDS,
    assert_chat_sized,
    assert_right_scripts,
    copied_runs,
    seed_windows,
)

SPACE_SUFFIX = re.compile(r"_(1_3|4_7|6_7|3|5|7)$")


@pytest.fixture(scope="module")
def book() -> RulesBook:
    return parse_book(CAVERNA_MANIFEST.rules_file().read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def library(book: RulesBook) -> RulesLibrary:
    return RulesLibrary(books={"caverna": book})


def _ids(book: RulesBook) -> set[str]:
    return {t.id for t in book.topics}


def test_every_furnishing_tile_has_a_topic_and_names(book: RulesBook) -> None:
    tiles = components().furnishings
    assert len(tiles) == 48
    for tile_id, tile in tiles.items():
        assert f"tile_{tile_id}" in _ids(book), tile_id
        topic = book.topic(f"tile_{tile_id}")
        for lang in LANGS:
            name = default_catalog().raw(lang, f"cav.furnishing.{tile_id}")
            assert name is not None and name == getattr(tile.name, lang), (tile_id, lang)
            assert name in topic.title.get(lang), (tile_id, lang)


def test_a_free_tile_costs_nothing_in_words(book: RulesBook) -> None:
    """A tile without a cost says so in a sentence, not "it costs free"."""
    body = book.topic("tile_dog_school").body
    assert "ничего не стоит" in body.get("ru") and "costs nothing" in body.get("en")
    for topic in book.topics:
        assert "стоит бесплатно" not in topic.body.get("ru"), topic.id
        assert "costs free" not in topic.body.get("en"), topic.id


def test_every_action_space_and_round_card_has_a_topic_and_names(book: RulesBook) -> None:
    c = components()
    for space_id, space in {**c.spaces, **c.round_cards}.items():
        topic_id = (f"card_{space_id}" if space_id in c.round_cards
                    else f"space_{SPACE_SUFFIX.sub('', space_id)}")
        assert topic_id in _ids(book), space_id
        for lang in LANGS:
            name = default_catalog().raw(lang, f"cav.space.{space_id}")
            assert name == getattr(space.name, lang), (space_id, lang)
            assert name == book.topic(topic_id).title.get(lang), (space_id, lang)


def test_every_loot_item_has_a_topic_and_names(book: RulesBook) -> None:
    for item_id, item in loot_table().items():
        topic = book.topic(f"loot_{item_id}")
        for lang in LANGS:
            name = default_catalog().raw(lang, f"cav.loot.{item_id}")
            assert name and name in topic.title.get(lang), (item_id, lang)
        assert str(item.strength) in topic.body.en, item_id


def test_the_book_keeps_the_rules_data_checks(book: RulesBook) -> None:
    assert book.game == CAVERNA_MANIFEST.name
    for topic in book.topics:
        assert_chat_sized(topic)
        assert_right_scripts(topic)


@pytest.mark.skipif(not SEEDS.is_dir(), reason="rulebook seeds (../shared/seeds) not present")
def test_no_topic_copies_a_rulebook_sentence(book: RulesBook) -> None:
    assert copied_runs([book], seed_windows(sorted(SEEDS.glob("*.txt")))) == []


@pytest.mark.parametrize(("query", "lang", "topic"), [
    ("Уютная комнат", "ru", "tile_cuddle_room"),
    ("cudle room", "en", "tile_cuddle_room"),
    ("stone carvr", "en", "tile_stone_carver"),
    ("писательская комнта", "ru", "tile_writing_chamber"),
    ("trasure chamber", "en", "tile_treasure_chamber"),
    ("Склад оружя", "ru", "tile_weapon_storage"),
    ("breakfst room", "en", "tile_breakfast_room"),
    ("подсечное земледелье", "ru", "space_slash_and_burn"),
    ("бесплатный хлев", "ru", "loot_stable"),
])
def test_misspelled_names_find_their_topic(library: RulesLibrary, query: str, lang: str,
                                           topic: str) -> None:
    for game in ("каверна", "caverna", "Caverna: The Cave Farmers"):
        hits = library.lookup(game, query, "ru" if lang == "ru" else "en")
        assert hits and hits[0].topic_id == topic, (game, query, [h.topic_id for h in hits])
