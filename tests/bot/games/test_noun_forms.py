"""Every noun of every line is in the form its sentence names, over random whole games of
every hosted game (and the tests' own) in both languages; and every catalog noun has
every form a sentence asks.

The texts are rendered over the shipped catalog while ``bot.i18n.grammar`` notes each noun
written: which noun, the form its placeholder asked, the form written and the number
before it. For every prompt, button and chat-log line the test checks, apart from the
code under test:

- the form written is the one asked (after a number: the one the number and the case
  call for, by the rules below), the noun has that form in this language (no nominative
  standing in), and the line holds exactly that catalog form;
- every form a filled text names was written (no empty list or plain text in its place);
- no form was asked of plain text (a noun that travelled as text).

What the games asked of each family of nouns (``cav.tile``, ``sa.loc``…) is then asked of
every noun in that family: one noun's missing form fails even if no game reached it.
"""

from __future__ import annotations

import random
import re
from collections import defaultdict
from collections.abc import Callable
from functools import cache
from string import Formatter
from typing import Any

import pytest

from bot.games import manifests
from bot.i18n.catalog import LANGS, Catalog, Lang, Markup, shipped_sources, to_plain
from bot.i18n.grammar import Use, recording
from engine.core.prompts import Event
from tests.tiny_game.hosting import with_test_games

GAMES = with_test_games(manifests())
SEEDS = range(4)
NAMES = ["Anna", "Boris", "Cleo", "Dmitri"]

# Which form of a noun follows a number, by the case its sentence asks: Russian takes
# the case's singular after 1 (21, 101…), the genitive singular after 2–4 in the
# nominative and accusative, and the genitive plural after the rest; "по" takes the
# dative after 1. English takes the singular after exactly 1, else the plural.
RU_AFTER_NUMBER = {
    "nom": ("nom", "gen", "gen_pl"),
    "acc": ("acc", "gen", "gen_pl"),
    "gen": ("gen", "gen_pl", "gen_pl"),
    "each": ("dat", "gen", "gen_pl"),
}


def _ru_category(n: int) -> int:
    if n % 10 == 1 and n % 100 != 11:
        return 0
    if n % 10 in (2, 3, 4) and n % 100 not in (12, 13, 14):
        return 1
    return 2


def after_number(lang: str, case: str, n: int) -> list[str]:
    """The forms a noun needs after numbers in ``case`` (all of them when ``n`` is
    None), or the one form after ``n``."""
    if lang == "en":
        return ["nom" if n == 1 else "pl"]
    return [RU_AFTER_NUMBER[case][_ru_category(n)]]


def forms_needed(lang: str, case: str, counted: bool) -> set[str]:
    """Every form a noun must have to be written in ``case`` (after any number when
    ``counted``)."""
    if not counted:
        return {case}
    return {"nom", "pl"} if lang == "en" else set(RU_AFTER_NUMBER[case])


class WatchedCatalog(Catalog):
    """The shipped texts; while ``uses`` is set, every text filled is checked: each form
    its template names was written into it."""

    uses: list[Use] | None = None

    def __init__(self, texts: Any) -> None:
        super().__init__(texts)
        self.problems: list[str] = []

    def t(self, lang: Lang, code: str, **args: Any) -> Markup:
        uses = self.uses
        start = len(uses) if uses is not None else 0
        out = super().t(lang, code, **args)
        if uses is not None:
            asked = {spec for _, field, spec, _ in Formatter().parse(self.raw(lang, code) or "")
                     if field is not None and spec and spec.isidentifier()}
            written = {u.case for u in uses[start:]}
            self.problems += [f"{lang} {code}: asks {spec!r}, nothing was written in it"
                              for spec in sorted(asked - written)]
        return out


def _pattern(form: str) -> str:
    """A catalog form as a pattern: filled-in fields (``Карта {n}``) match any word."""
    return "".join(r"\S+" if field else re.escape(literal)
                   for literal, field, _, _ in _parts(form))


def _parts(form: str) -> list[tuple[str, bool, str, str]]:
    out: list[tuple[str, bool, str, str]] = []
    for literal, field, _, _ in Formatter().parse(form):
        out.append((literal, False, "", ""))
        if field is not None:
            out.append(("", True, "", ""))
    return out


def check_uses(catalog: Catalog, uses: list[Use], line: str, what: str) -> list[str]:
    """What is wrong with the nouns written into ``line`` (plain text)."""
    problems = []
    for use in uses:
        where = f"{what}: {line!r}"
        if not use.noun:
            problems.append(f"a form asked of plain text in {where}")
            continue
        lang: Lang = "ru" if use.lang == "ru" else "en"
        want = use.case if use.n is None else after_number(lang, use.case, use.n)[0]
        form = catalog.forms(lang, use.noun).get(want)
        if use.form != want or form is None:
            problems.append(f"{use.noun} asked {use.case!r} (n={use.n}): wrote {use.form!r}, "
                            f"the catalog has {want!r}: {form!r} in {where}")
            continue
        expected = _pattern(form) if use.n is None else rf"{use.n} {_pattern(form)}"
        # A button or a question standing alone starts with a capital.
        shown = use.text in line or use.text[:1].upper() + use.text[1:] in line
        if not re.fullmatch(expected, use.text) or not shown:
            problems.append(f"{use.noun} {want!r} should read {form!r}, wrote {use.text!r} "
                            f"in {where}")
    return problems


class _Played:
    """What random games of one game said: problems found, and the forms asked of each
    family of nouns."""

    def __init__(self) -> None:
        self.problems: list[str] = []
        self.needs: dict[tuple[str, str], set[str]] = defaultdict(set)
        self.lines = 0


@cache
def played(name: str) -> _Played:
    """Random whole games of ``name`` rendered in both languages, every noun watched."""
    entry = manifests()[name]
    catalog = WatchedCatalog.from_yaml_documents(shipped_sources())
    assert isinstance(catalog, WatchedCatalog)
    texts = entry.texts(catalog)
    game = entry.game
    out = _Played()

    def watch(lang: Lang, what: str, render: Callable[..., Any], *args: Any) -> None:
        with recording() as uses:
            catalog.uses = uses
            try:
                text = render(lang, *args)
            finally:
                catalog.uses = None
        if text is None:
            return
        line = to_plain(text)
        out.lines += 1
        out.problems += check_uses(catalog, uses, line, what)
        for use in uses:
            if use.noun:
                family = use.noun.rpartition(".")[0]
                out.needs[(use.lang, family)] |= forms_needed(use.lang, use.case,
                                                               use.n is not None)

    for seed in SEEDS:
        players = game.min_players + seed % (min(game.max_players, 4) - game.min_players + 1)
        rnd = random.Random(seed)
        names = NAMES[:players]
        state = game.new(players, 200 + seed, entry.variant_defaults())
        while prompts := game.pending(state):
            prompt = rnd.choice(prompts)
            for lang in LANGS:
                watch(lang, f"prompt {prompt.label.code}", texts.prompt, prompt.label, names,
                      prompt.seat)
                for option in prompt.options:
                    watch(lang, f"option {option.label.code}", texts.option, option.label)
            events: list[Event] = game.apply(state, prompt.seat, rnd.choice(prompt.keys()))
            for event in events:
                for lang in LANGS:
                    watch(lang, f"event {event.code}", texts.event, event, names)
    out.problems += catalog.problems
    return out


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.usefixtures("hosted_game")
def test_every_noun_of_every_line_is_in_the_form_its_sentence_asks(name: str) -> None:
    result = played(name)
    assert result.lines > 100
    assert result.problems == [], "\n".join(result.problems[:20])


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.usefixtures("hosted_game")
def test_every_noun_has_every_form_its_sentences_ask(name: str) -> None:
    """Each family of nouns the games wrote, in each language: every noun of it has
    every form any of them was asked for."""
    catalog = Catalog.from_yaml_documents(shipped_sources())
    needs = played(name).needs
    assert needs
    missing = []
    for (lang, family), forms in sorted(needs.items()):
        language: Lang = "ru" if lang == "ru" else "en"
        members = [e for e in catalog.entries(language) if e.rpartition(".")[0] == family]
        assert members, (lang, family)
        for noun in members:
            lacks = forms - set(catalog.forms(language, noun))
            if lacks:
                missing.append(f"{lang} {noun}: no {sorted(lacks)}")
    assert missing == []


def test_the_checks_can_fail() -> None:
    """A nominative written where the accusative was asked, a count in the wrong form,
    a noun missing from the line and plain text asked a form are all reported."""
    catalog = Catalog.from_yaml_documents(shipped_sources())
    line = "Anna кладёт каверна D1 и платит 1 руда"
    uses = [
        Use("cav.tile.cavern", "ru", "acc", "nom", None, "каверна", True),
        Use("cav.noun.ore", "ru", "acc", "nom", 1, "1 руда", True),
        Use("cav.noun.ore", "ru", "acc", "acc", 1, "1 руду", True),
        Use("", "", "", "", None, "{bill:acc}", False),
    ]
    assert len(check_uses(catalog, uses, line, "test")) == 4
    good = [Use("cav.tile.cavern", "ru", "acc", "acc", None, "каверну", True),
            Use("sa.loc.card", "ru", "to", "to", None, "на карту 3", True)]
    assert check_uses(catalog, good, "Anna кладёт каверну D1 на карту 3", "test") == []
    watched = WatchedCatalog.from_yaml_documents(shipped_sources())
    assert isinstance(watched, WatchedCatalog)
    with recording() as uses:
        watched.uses = uses
        watched.t("ru", "cav.event.paid", name="Anna", bill="")
    assert watched.problems == ["ru cav.event.paid: asks 'acc', nothing was written in it"]
