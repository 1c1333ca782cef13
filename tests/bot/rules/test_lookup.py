"""Rules look-up: realistic player questions must land on the right topic."""

from __future__ import annotations

import pytest

from bot.rules import RulesIndex, RulesLibrary, UnknownGameError
from bot.rules.models import Lang, RulesBook
from bot.rules.text import damerau_levenshtein, similarity, stem, terms
from tests.bot.rules.checks import assert_first_hit, in_languages


@pytest.fixture(scope="module")
def library() -> RulesLibrary:
    return RulesLibrary()


@pytest.fixture(scope="module")
def index(library: RulesLibrary) -> RulesIndex:
    return library.index("stone_age")


# (question, expected topic id). The top hit must be the expected topic.
RU_QUESTIONS: list[tuple[str, str]] = [
    ("сколько стоит карта", "civ_cards"),
    ("инструментов", "tools"),
    ("как кормить жителей", "feeding"),
    ("что если не хватает еды", "feeding"),
    ("когда конец игры", "game_end"),
    ("хижина", "hut"),
    ("двое игроков ограничения", "small_games"),
    ("как получить нового жителя", "hut"),
    ("сколько мест в лесу", "forest"),
    ("на что делится золото", "river"),
    ("как считаются зелёные карты", "culture_sets"),
    ("шаманы очки", "multipliers"),
    ("ничья что делать", "tie_break"),
    ("можно ли платить едой за карту", "civ_cards"),
    ("сколько жителей можно поставить на охоту", "hunting"),
    ("мастерская", "tool_maker"),
    ("земледелие", "field"),
    ("максимум жителей", "limits"),
    ("игра втроем", "small_games"),
    ("штраф за голод", "feeding"),
    ("кубики для всех", "card_dice_all"),
    ("одноразовый инструмент", "card_one_use_tool"),
    ("два ресурса на выбор", "card_two_resources"),
    ("в каком порядке выполнять действия", "actions"),
    ("кто ходит первым в новом раунде", "new_round"),
    ("как посчитать очки в конце", "final_scoring"),
    ("постройка за любые ресурсы", "buildings"),
    ("подготовка к игре", "setup"),
    ("сколько глины дает карьер", "clay_pit"),
    ("каменоломня", "quarry"),
    ("ферма", "field"),
    ("пропустить ход", "placement"),
    ("сдвиг карт", "new_round"),
    ("сколько стоит постройка", "buildings"),
    ("еда это ресурс?", "resources"),
    ("охотничьи угодья", "hunting"),
    ("строители", "multipliers"),
    ("фазы раунда", "round"),
    ("сколько еды в начале", "setup"),
    ("можно ли отказаться от покупки карты", "civ_cards"),
    ("сколько раз за раунд можно использовать инструмент", "tools"),
    ("сколько очков за ресурсы в конце", "final_scoring"),
    ("что дает ферма", "field"),
    ("сколько золота можно добыть", "river"),
    ("как улучшать инструменты", "tools"),
    ("когда раунд заканчивается", "round"),
    ("что будет если я не покормлю племя", "feeding"),
    ("карта с золотом на двух кубиках", "card_resource_dice"),
    ("что делать если кончились постройки", "game_end"),
    ("сколько карт в колоде", "civ_cards"),
]

# Typos, odd endings and a Ukrainian spelling.
RU_TYPOS: list[tuple[str, str]] = [
    ("хижена", "hut"),
    ("инструменов", "tools"),
    ("инструмены", "tools"),
    ("каменаломня", "quarry"),
    ("земледилие", "field"),
    ("ничя", "tie_break"),
    ("інструменти", "tools"),
    ("кормленье жителей", "feeding"),
    ("охотничих угодьях", "hunting"),
    ("множетели", "multipliers"),
]

EN_QUESTIONS: list[tuple[str, str]] = [
    ("hunting dice", "hunting"),
    ("how much does a card cost", "civ_cards"),
    ("what happens if I can't feed my people", "feeding"),
    ("when does the game end", "game_end"),
    ("how do tools work", "tools"),
    ("green cards scoring", "culture_sets"),
    ("shaman multiplier", "multipliers"),
    ("two player rules", "small_games"),
    ("what does the hut do", "hut"),
    ("farm", "field"),
    ("one use tool", "card_one_use_tool"),
    ("starvation penalty", "feeding"),
    ("order of actions", "actions"),
    ("who goes first", "new_round"),
    ("is food a resource", "resources"),
    ("tool maker", "tool_maker"),
    ("toolmakers multiplier", "multipliers"),
    ("setup", "setup"),
    ("clay", "clay_pit"),
    ("gold river divisor", "river"),
    ("dice for everyone card", "card_dice_all"),
    ("extra card", "card_instant"),
    ("any two resources card", "card_two_resources"),
    ("refill the cards", "new_round"),
    ("final score", "final_scoring"),
    ("can I skip my turn", "placement"),
    ("what is a shaman", "multipliers"),
    ("how do I get more workers", "hut"),
    ("can I use a tool twice", "tools"),
    ("what if buildings run out", "game_end"),
    ("brick", "clay_pit"),
    ("how are culture sets scored", "culture_sets"),
    ("first player marker", "new_round"),
    ("what happens at the end of round", "round"),
]

EN_TYPOS: list[tuple[str, str]] = [
    ("tie braker", "tie_break"),
    ("how many peple max", "limits"),
    ("buildng points", "buildings"),
    ("quary", "quarry"),
    ("hunting grouns", "hunting"),
    ("civilisation card price", "civ_cards"),
    ("agricultre", "field"),
]

# Genuinely ambiguous questions: another topic may answer them as well, so the
# expected topic only has to be among the top two.
AMBIGUOUS: list[tuple[str, str]] = [
    ("можно ли поставить жителей в лес второй раз", "placement"),
    ("can I place in the forest twice", "placement"),
    ("three players forest", "small_games"),
    ("max agriculture", "limits"),
    ("делитель ресурсов", "dice"),
    ("wood value", "forest"),
]


def test_question_set_is_large_enough() -> None:
    ru = len(RU_QUESTIONS) + len(RU_TYPOS)
    en = len(EN_QUESTIONS) + len(EN_TYPOS)
    assert ru >= 20
    assert en >= 15
    assert ru + en + len(AMBIGUOUS) >= 40


@pytest.mark.parametrize(("question", "lang", "expected"),
                         in_languages(RU_QUESTIONS + RU_TYPOS, EN_QUESTIONS + EN_TYPOS))
def test_question_finds_topic(index: RulesIndex, question: str, lang: Lang,
                              expected: str) -> None:
    assert_first_hit(index, question, lang, expected)


@pytest.mark.parametrize(("question", "expected"), AMBIGUOUS)
def test_ambiguous_question_has_answer_in_top_two(
    index: RulesIndex, question: str, expected: str
) -> None:
    assert expected in [hit.topic_id for hit in index.search(question, "en")[:2]]


@pytest.mark.parametrize(
    ("question", "lang", "expected_title"),
    [
        ("хижина", "en", "Hut"),  # Russian question in an English chat
        ("tie breaker", "ru", "Ничья"),  # and the other way round
        ("инструменты", "ru", "Инструменты"),
    ],
)
def test_search_crosses_languages_but_answers_in_requested_one(
    index: RulesIndex, question: str, lang: str, expected_title: str
) -> None:
    hits = index.search(question, "en" if lang == "en" else "ru")
    assert hits[0].title == expected_title
    topic = index.book.topic(hits[0].topic_id)
    assert hits[0].body == (topic.body.en if lang == "en" else topic.body.ru)


@pytest.mark.parametrize("query", ["", "   ", "\n\t"])
def test_empty_query_lists_all_topics(library: RulesLibrary, query: str) -> None:
    hits = library.lookup("stone_age", query, "ru")
    book = library.book("stone_age")
    assert [h.topic_id for h in hits] == [t.id for t in book.topics]
    assert all(h.score == 0.0 for h in hits)
    assert hits[0].title == book.topics[0].title.ru


@pytest.mark.parametrize(
    "query", ["asdfgh qwerty", "бла бла бла", "zzzz", "шкаф пингвин", "???", "как что где"]
)
def test_nonsense_query_finds_nothing(index: RulesIndex, query: str) -> None:
    assert index.search(query, "ru") == []


def test_hits_are_best_first_and_limited(index: RulesIndex) -> None:
    hits = index.search("карта инструмент кубики очки", "ru", limit=2)
    assert len(hits) <= 2
    assert [h.score for h in hits] == sorted((h.score for h in hits), reverse=True)
    assert index.search("карта", "ru", limit=0) == []


def test_game_names_are_resolved_loosely(library: RulesLibrary) -> None:
    for name in ("stone_age", "Stone Age", "stone-age", "Каменный век", "STONEAGE"):
        assert library.resolve_game(name) == "stone_age"
    with pytest.raises(UnknownGameError):
        library.lookup("chess", "king", "en")


def test_index_is_built_once_per_library(library: RulesLibrary) -> None:
    assert library.index("stone_age") is library.index("Stone Age")


def test_small_custom_book() -> None:
    book = RulesBook.model_validate(
        {
            "game": "toy",
            "title": {"ru": "Игрушка", "en": "Toy"},
            "topics": [
                {
                    "id": "dice",
                    "title": {"ru": "Кубики", "en": "Dice"},
                    "body": {"ru": "Бросайте кубики.", "en": "Roll the dice."},
                    "keywords": {"ru": ["бросок"], "en": ["roll"]},
                },
                {
                    "id": "cards",
                    "title": {"ru": "Карты", "en": "Cards"},
                    "body": {"ru": "Тяните карты.", "en": "Draw cards."},
                    "keywords": {"ru": ["колода"], "en": ["deck"]},
                },
            ],
        }
    )
    library = RulesLibrary({"toy": book})
    assert library.games == ("toy",)
    assert [h.topic_id for h in library.lookup("toy", "колоду", "en")] == ["cards"]
    assert library.lookup("toy", "rolling", "ru")[0].body == "Бросайте кубики."


@pytest.mark.parametrize(
    ("forms", "same"),
    [
        (["инструменты", "инструментов", "инструментами", "инструмент"], True),
        (["жители", "жителей", "житель", "жителя"], True),
        (["хижина", "хижину", "хижине", "хижины"], True),
        (["еда", "еды", "едой"], True),
        (["tools", "tool"], True),
        (["place", "places", "placed", "placing"], True),
        (["использовать", "использует", "используют"], True),
        (["лес", "река"], False),
    ],
)
def test_stemmer_merges_word_forms(forms: list[str], same: bool) -> None:
    stems = {stem(form) for form in forms}
    assert (len(stems) == 1) is same, stems


def test_terms_drop_stopwords_and_fold_letters() -> None:
    assert terms("Что будет, если НЕ хватает ЕДЫ?") == ["буд", "хват", "ед"]
    assert terms("Ёлка") == terms("елка")
    assert terms("інструменти") == terms("инструменты")


def test_fuzzy_matching() -> None:
    assert damerau_levenshtein("braker", "breaker", 2) == 1
    assert damerau_levenshtein("инструемнт", "инструмент", 2) == 1  # swapped letters
    assert damerau_levenshtein("abc", "xyzxyz", 2) == 3  # capped at limit + 1
    assert similarity("tie", "die") == 0.0  # short words must match exactly
    assert similarity("инструм", "инструмент") > 0.0  # a truncated word is a prefix
    assert similarity("пингвин", "инструмент") == 0.0
