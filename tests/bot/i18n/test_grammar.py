"""Grammar from data: number categories, nouns in the form a template names, counts that
agree with their number, lists and phrases that pass the form on, and the notes the
tests read."""

from __future__ import annotations

import pytest

from bot.i18n.catalog import Catalog
from bot.i18n.grammar import (
    Count,
    Noun,
    Phrase,
    Series,
    category,
    count_form,
    fill,
    recording,
)

ORE_RU = {"nom": "руда", "acc": "руду", "gen": "руды", "gen_pl": "руды"}
PERSON_RU = {"nom": "житель", "acc": "жителя", "gen": "жителя", "gen_pl": "жителей",
             "dat": "жителю"}
ORE_EN = {"nom": "ore", "pl": "ore"}
PERSON_EN = {"nom": "person", "pl": "people"}


@pytest.mark.parametrize(
    ("n", "expected"),
    [
        (0, 2), (1, 0), (2, 1), (3, 1), (4, 1), (5, 2), (10, 2), (11, 2), (12, 2), (14, 2),
        (21, 0), (22, 1), (25, 2), (101, 0), (111, 2), (112, 2), (104, 1), (1001, 0),
        (-1, 0), (-3, 1),
    ],
)
def test_russian_number_categories(n: int, expected: int) -> None:
    """One, few and many by the last one or two digits; 11–14 always take 'many'."""
    assert category("ru", n) == expected


def test_english_number_categories() -> None:
    """English: singular only for exactly one."""
    assert [category("en", n) for n in (1, 0, 2, -1)] == [0, 1, 1, 0]


def test_the_form_after_a_number_follows_the_case_asked() -> None:
    assert [count_form("ru", "nom", n) for n in (1, 3, 5)] == ["nom", "gen", "gen_pl"]
    assert [count_form("ru", "acc", n) for n in (1, 21, 3, 5)] == ["acc", "acc", "gen", "gen_pl"]
    assert [count_form("ru", "each", n) for n in (1, 2, 5)] == ["dat", "gen", "gen_pl"]
    assert [count_form("ru", "dat", n) for n in (1, 2)] == ["dat", "dat_pl"]
    assert count_form("ru", "vocative", 1) is None  # no rule: the test notes it
    # English nouns after a number differ only by number, whatever the case.
    assert [count_form("en", "acc", n) for n in (1, 2)] == ["nom", "pl"]


def test_a_noun_is_its_nominative_and_writes_the_form_a_template_names() -> None:
    ore = Noun("x.ore", "ru", ORE_RU)
    assert ore == "руда" and isinstance(ore, str)
    assert fill("платит {good:acc}, а не {good}", {"good": ore}) == "платит руду, а не руда"


def test_a_count_agrees_with_its_number_in_the_case_asked() -> None:
    def pays(n: int) -> str:
        return fill("платит {bill:acc}", {"bill": Count(n, Noun("x.ore", "ru", ORE_RU))})

    assert [pays(n) for n in (1, 3, 5, 21)] == [
        "платит 1 руду", "платит 3 руды", "платит 5 руды", "платит 21 руду"]
    people = Count(2, Noun("x.people", "ru", PERSON_RU))
    assert people == "2 жителя"  # the nominative text, for code that shows it alone
    assert fill("по {n:each}", {"n": Count(1, Noun("x.people", "ru", PERSON_RU))}) == \
        "по 1 жителю"
    en = Noun("x.people", "en", PERSON_EN)
    assert fill("sends {n:acc}", {"n": Count(1, en)}) == "sends 1 person"
    assert fill("sends {n}", {"n": Count(3, en)}) == "sends 3 people"


def test_a_series_writes_every_part_in_the_form_asked_of_it() -> None:
    goods = Series([Count(1, Noun("x.ore", "ru", ORE_RU)), "<b>", Count(1, Noun(
        "x.people", "ru", PERSON_RU))])
    assert goods == "1 руда, <b>, 1 житель"
    # Plain parts are escaped; inflected ones take the case.
    assert fill("берёт {g:acc}", {"g": goods}) == "берёт 1 руду, &lt;b&gt;, 1 жителя"


def test_a_phrase_passes_the_form_asked_of_it_to_nouns_that_name_none() -> None:
    cavern = Noun("x.cavern", "ru", {"nom": "каверна", "acc": "каверну"})
    tunnel = Noun("x.tunnel", "ru", {"nom": "туннель", "acc": "туннель"})
    placement = Phrase("{a} D1, {b:nom} D2 & <i>{at}</i>",
                       {"a": cavern, "b": tunnel, "at": "<x>"})
    assert placement == "каверна D1, туннель D2 & <x>"  # plain: what a button shows
    assert fill("кладёт {p:acc}", {"p": placement}) == \
        "кладёт каверну D1, туннель D2 & <i>&lt;x&gt;</i>"


def test_the_recording_notes_every_noun_written_and_what_was_missing() -> None:
    ore = Noun("x.ore", "ru", ORE_RU)
    with recording() as uses:
        fill("{a:acc} {b:ins} {c:acc}", {"a": Count(3, ore), "b": ore, "c": ore})
        Phrase("{a}", {"a": ore})  # making a phrase's own text notes nothing
    assert [(u.noun, u.case, u.form, u.n, u.text, u.found) for u in uses] == [
        ("x.ore", "acc", "gen", 3, "3 руды", True),
        ("x.ore", "ins", "ins", None, "руда", False),  # no such form: the nominative
        ("x.ore", "acc", "acc", None, "руду", True),
    ]
    fill("{a:acc}", {"a": ore})  # nothing is noted outside a recording
    assert len(uses) == 3


def test_a_form_asked_of_plain_text_is_written_as_it_is_and_noted() -> None:
    with recording() as uses:
        text = fill("платит {bill:acc} {n}", {"bill": "1 <руда>", "n": 2})
    assert text == "платит 1 &lt;руда&gt; 2"
    assert [(u.noun, u.found) for u in uses] == [("", False)]


def test_arguments_fill_as_before() -> None:
    """Numbers as they are, other values escaped, a missing name left visible."""
    assert fill("{a} {b} {c}", {"a": 3, "b": "<b>"}) == "3 &lt;b&gt; {c}"
    assert fill("{a:>3}", {"a": 7}) == "  7"


def test_the_catalog_reads_nouns_scalar_or_with_forms() -> None:
    catalog = Catalog.from_yaml_documents({
        "ru": ["x:\n  ore: {nom: руда, acc: руду}\n  name: Лес\n  card: {nom: 'Карта {n}', "
               "to: 'на карту {n}'}\n  say: '{name} берёт {ore:acc}'\n"],
        "en": ["x:\n  ore: {nom: ore, pl: ore}\n  name: Forest\n  only: {nom: only}\n"],
    })
    ore = catalog.noun("ru", "x.ore")
    assert (ore, ore.code, ore.lang, dict(ore.forms)) == \
        ("руда", "x.ore", "ru", {"nom": "руда", "acc": "руду"})
    assert catalog.forms("ru", "x.name") == {"nom": "Лес"}
    card = catalog.noun("ru", "x.card", n=3)
    assert fill("{c:to}", {"c": card}) == "на карту 3"
    assert catalog.noun("ru", "x.only").lang == "ru" and catalog.noun("ru", "x.only") == "only"
    assert catalog.forms("ru", "x.only") == {}  # in exactly that language
    assert catalog.noun("ru", "x.none") == "x.none"  # a gap shows as its code
    assert catalog.t("ru", "x.say", name="<Аня>", ore=ore) == "&lt;Аня&gt; берёт руду"
    assert catalog.has_noun("en", "x.only") and not catalog.has_noun("en", "x.none")
    # A noun's forms are one entry: the languages may need different forms.
    assert catalog.entries("ru") == {"x.ore", "x.name", "x.card", "x.say"}
    assert catalog.entries("en") == {"x.ore", "x.name", "x.only"}
    phrase = catalog.phrase("ru", "x.say", name="Аня", ore=ore)
    assert phrase == "Аня берёт руду"
