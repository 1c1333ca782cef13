"""Hunters and Gatherers rules: the book loads, is our own text, and answers real questions."""

from __future__ import annotations

import pytest

from bot.rules import RulesBook, RulesIndex, RulesLibrary
from bot.rules.models import Lang
from tests.bot.rules.checks import (
    SEEDS,
    assert_first_hit,
    assert_in_both_languages,
    copied_runs,
    in_languages,
    seed_windows,
)

GAME = "hunters_gatherers"
SEED = SEEDS / "hunters_gatherers_rules_ru.txt"

# The rulebook's sections, by our topic ids.
EXPECTED_TOPICS = {
    "setup", "components", "turn", "tile_placement", "tile_discard", "tribe_member",
    "occupied", "hut", "river", "forest", "majority", "returning", "quick_score",
    "score_track", "gold", "bonus_turn", "bonus_tiles", "fire", "mushrooms", "aurochs",
    "shrine", "big_lake", "game_end", "final_scoring", "unfinished", "meadow_scoring",
    "tigers", "hut_scoring",
}  # fmt: skip


@pytest.fixture(scope="module")
def library() -> RulesLibrary:
    return RulesLibrary()


@pytest.fixture(scope="module")
def book(library: RulesLibrary) -> RulesBook:
    return library.book(GAME)


@pytest.fixture(scope="module")
def index(library: RulesLibrary) -> RulesIndex:
    return library.index(GAME)


# (question, expected topic id). The top hit must be the expected topic.
RU_QUESTIONS: list[tuple[str, str]] = [
    ("как подготовить игру", "setup"),
    ("кто ходит первым", "setup"),
    ("что делать в свой ход", "turn"),
    ("как выкладывать квадрат", "tile_placement"),
    ("должны ли совпадать стороны квадратов", "tile_placement"),
    ("можно ли приложить квадрат только углом", "tile_placement"),
    ("квадрат некуда положить", "tile_discard"),
    ("куда ставить рыбака", "tribe_member"),
    ("можно ли поставить охотника в занятую низину", "occupied"),
    ("можно ли поставить хижину на озеро", "hut"),
    ("когда река считается завершённой", "river"),
    ("сколько очков за реку", "river"),
    ("когда лес закрыт", "forest"),
    ("сколько очков за лес", "forest"),
    ("ничья по собирателям", "majority"),
    ("возвращаются ли охотники в запас", "returning"),
    ("что даёт золотой самородок", "gold"),
    ("бонусная стопка кончилась", "bonus_turn"),
    ("что делает огонь", "fire"),
    ("грибы", "mushrooms"),
    ("сколько стоит тур", "aurochs"),
    ("когда заканчивается игра", "game_end"),
    ("что будет с незавершённым лесом в конце", "unfinished"),
    ("сколько очков за оленя", "meadow_scoring"),
    ("тигр съел оленя", "tigers"),
    ("очки за хижины в конце", "hut_scoring"),
    ("что если больше 50 очков", "score_track"),
    ("сколько у игрока хижин", "components"),
    ("кончились соплеменники", "components"),
    ("большое озеро", "big_lake"),
    ("поставить и сразу забрать", "quick_score"),
    ("кто победил", "final_scoring"),
    ("какие бывают бонусные квадраты", "bonus_tiles"),
]

# Typos and odd endings.
RU_TYPOS: list[tuple[str, str]] = [
    ("самародок", "gold"),
    ("саблезубые тиргы", "tigers"),
    ("хижыны", "hut"),
    ("в святыне", "shrine"),
    ("незавершеный лес", "unfinished"),
    ("грибочки", "mushrooms"),
    ("тайл никуда не подходит", "tile_discard"),
    ("мамонтов в низинах", "meadow_scoring"),
]

EN_QUESTIONS: list[tuple[str, str]] = [
    ("how do I set up", "setup"),
    ("what happens on my turn", "turn"),
    ("do edges have to match", "tile_placement"),
    ("tile doesn't fit anywhere", "tile_discard"),
    ("where can I put a fisherman", "tribe_member"),
    ("can I place a hunter in an occupied meadow", "occupied"),
    ("where can huts go", "hut"),
    ("when is a river complete", "river"),
    ("forest scoring", "forest"),
    ("tie for majority", "majority"),
    ("do hunters come back", "returning"),
    ("what does gold do", "gold"),
    ("extra turn", "bonus_turn"),
    ("fire tile", "fire"),
    ("aurochs points", "aurochs"),
    ("shrine", "shrine"),
    ("when does the game end", "game_end"),
    ("sabre-toothed tigers", "tigers"),
    ("how do huts score", "hut_scoring"),
    ("score over 50", "score_track"),
    ("how many meeples do I have", "components"),
    ("who wins", "final_scoring"),
    ("unfinished river", "unfinished"),
    ("meadow scoring", "meadow_scoring"),
]

EN_TYPOS: list[tuple[str, str]] = [
    ("mushrom", "mushrooms"),
    ("gold nugets", "gold"),
    ("tigr eats deer", "tigers"),
    ("shrien", "shrine"),
    ("mamoth points", "meadow_scoring"),
    ("huts scorring", "hut_scoring"),
]

# Genuinely ambiguous questions: another topic answers them too, so the expected topic
# only has to be among the top two.
AMBIGUOUS: list[tuple[str, str, str]] = [
    ("рыба в озере", "ru", "river"),
    ("lake fish points", "en", "hut_scoring"),
    ("можно ли получить два бонусных хода", "ru", "bonus_turn"),
    ("can two players share a forest", "en", "majority"),
    ("ставится ли рыбак на озеро", "ru", "tribe_member"),
]


def test_question_set_is_large_enough() -> None:
    ru = len(RU_QUESTIONS) + len(RU_TYPOS)
    en = len(EN_QUESTIONS) + len(EN_TYPOS)
    assert ru >= 15
    assert en >= 12
    assert ru + en >= 30


def test_book_loads_with_expected_topics(book: RulesBook) -> None:
    ids = [topic.id for topic in book.topics]
    assert len(ids) == len(set(ids))
    assert set(ids) == EXPECTED_TOPICS
    assert 20 <= len(ids) <= 28
    assert book.game == GAME
    for topic in book.topics:
        assert_in_both_languages(topic)


def test_every_asked_topic_exists(book: RulesBook) -> None:
    asked = {t for _, t in RU_QUESTIONS + RU_TYPOS + EN_QUESTIONS + EN_TYPOS}
    asked |= {t for _, _, t in AMBIGUOUS}
    assert asked <= {topic.id for topic in book.topics}


@pytest.mark.parametrize(
    "name",
    [
        "Охотники и собиратели",
        "hunters",
        "Hunters and Gatherers",
        "Hunters & Gatherers",
        "hunters_gatherers",
        "Каркассон. Охотники и собиратели",
        "Carcassonne: Hunters and Gatherers",
        "охотники-собиратели",
    ],
)
def test_game_names_resolve(library: RulesLibrary, name: str) -> None:
    assert library.resolve_game(name) == GAME


def test_stone_age_still_resolves(library: RulesLibrary) -> None:
    # The new aliases must not steal another game's names.
    assert library.resolve_game("Каменный век") == "stone_age"
    assert library.resolve_game("stone age") == "stone_age"


@pytest.mark.parametrize(("question", "lang", "expected"),
                         in_languages(RU_QUESTIONS + RU_TYPOS, EN_QUESTIONS + EN_TYPOS))
def test_question_finds_topic(index: RulesIndex, question: str, lang: Lang,
                              expected: str) -> None:
    assert_first_hit(index, question, lang, expected)


@pytest.mark.parametrize(("question", "lang", "expected"), AMBIGUOUS)
def test_ambiguous_question_has_answer_in_top_two(
    index: RulesIndex, question: str, lang: str, expected: str
) -> None:
    hits = index.search(question, "ru" if lang == "ru" else "en")
    assert expected in [hit.topic_id for hit in hits[:2]]


def test_answers_come_in_the_chat_language(index: RulesIndex) -> None:
    hit = index.search("самородок", "en")[0]
    assert (hit.topic_id, hit.title) == ("gold", "Gold nuggets")
    hit = index.search("shrine", "ru")[0]
    assert (hit.topic_id, hit.title) == ("shrine", "Святыня")


@pytest.mark.parametrize("query", ["asdfgh qwerty", "шкаф пингвин", "zzzz"])
def test_nonsense_query_finds_nothing(index: RulesIndex, query: str) -> None:
    assert index.search(query, "ru") == []


@pytest.mark.skipif(not SEED.is_file(), reason="rulebook seeds (../shared/seeds) not present")
def test_no_body_copies_the_rulebook(book: RulesBook) -> None:
    seed = seed_windows([SEED])
    assert seed
    assert copied_runs([book], seed) == []
