"""Grammar from data: nouns carry their forms, templates name the form they need.

A noun's forms are catalog data. A scalar entry is a noun with one form (``nom``); a
mapping names each form some template asks of it::

    ore: {nom: руда, acc: руду, gen: руды, gen_pl: руды}    # ru
    ore: {nom: ore, pl: ore}                                 # en

A template names the form a placeholder needs after a colon — ``платит {bill:acc}``,
``{loc:to}`` — and asks ``nom`` when it names none. The values that know their forms
are strings holding their nominative text (so code that shows a name alone has plain
text) and answer ``format(value, form)``, which is what filling a template calls:

- ``Noun``: one catalog noun;
- ``Count``: a number and a noun that agrees with it (``1 руду``, ``3 руды``, ``5 руд``);
  ``COUNT_FORMS`` says which form follows one, few or many in each case asked;
- ``Series``: parts joined (a list of goods), each in the form asked of the whole;
- ``Phrase``: a catalog template whose nouns without a form of their own take the form
  asked of the phrase (``кладёт {placement:acc}`` puts both halves of a twin tile in
  the accusative).

``fill`` fills a template: the one place a value becomes part of a sentence.
``recording()`` notes every form asked while it is open, for the tests that check that
every noun of a line is in the form its template names.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any, Final

from bot.i18n.markup import Markup, escape, to_plain

NOM: Final = "nom"
ANY_CASE: Final = "*"

# Which form of a noun follows a number, by the case a template asks: one row per case,
# one form per number category (``category``). English nouns after a number differ only
# by number, whatever the sentence.
COUNT_FORMS: Final[Mapping[str, Mapping[str, tuple[str, ...]]]] = {
    "ru": {
        "nom": ("nom", "gen", "gen_pl"),
        "acc": ("acc", "gen", "gen_pl"),
        "gen": ("gen", "gen_pl", "gen_pl"),
        "dat": ("dat", "dat_pl", "dat_pl"),
        "ins": ("ins", "ins_pl", "ins_pl"),
        "prep": ("prep", "prep_pl", "prep_pl"),
        # After «по»: по 1 очку, по 2 очка, по 5 очков.
        "each": ("dat", "gen", "gen_pl"),
    },
    "en": {ANY_CASE: ("nom", "pl")},
}


def category(lang: str, n: int) -> int:
    """The number category of ``n``: Russian 0 (1, 21, 101), 1 (2–4, 22–24) or 2 (0,
    5–20, 25…; 11–14 always); English 0 for exactly one, else 1."""
    n = abs(n)
    if lang != "ru":
        return 0 if n == 1 else 1
    last, last_two = n % 10, n % 100
    if last == 1 and last_two != 11:
        return 0
    if 2 <= last <= 4 and not 12 <= last_two <= 14:
        return 1
    return 2


def count_form(lang: str, case: str, n: int) -> str | None:
    """The form of a noun after the number ``n`` in a sentence asking ``case``, or None
    when the language has no rule for that case."""
    table = COUNT_FORMS.get(lang, COUNT_FORMS["en"])
    row = table.get(case) or table.get(ANY_CASE)
    return row[category(lang, n)] if row else None


# --- what the tests watch ---------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Use:
    """One noun written into a sentence: which, in which form, and what it became."""

    noun: str  # the catalog code ("" for plain text asked a form)
    lang: str
    case: str  # the form the template asked
    form: str  # the noun's form written
    n: int | None  # the number before it, for a count
    text: str  # what was written, plain
    found: bool  # False when the noun lacks that form (its nominative stood in)


_USES: ContextVar[list[Use] | None] = ContextVar("grammar_uses", default=None)


@contextmanager
def recording() -> Iterator[list[Use]]:
    """Note every noun written into a sentence while open (for tests)."""
    uses: list[Use] = []
    token = _USES.set(uses)
    try:
        yield uses
    finally:
        _USES.reset(token)


@contextmanager
def _quiet() -> Iterator[None]:
    """Nothing written here is noted: a value's own nominative text, made once."""
    token = _USES.set(None)
    try:
        yield
    finally:
        _USES.reset(token)


def _note(use: Use) -> None:
    uses = _USES.get()
    if uses is not None:
        uses.append(use)


# --- values that know their forms ---------------------------------------------------


class Inflected(str):
    """Text in its nominative form that can be written in another form."""

    def form(self, case: str) -> str:
        """The plain text in the form ``case`` asks."""
        raise NotImplementedError

    def __format__(self, spec: str) -> str:
        return escape(self.form(spec or NOM))


class Noun(Inflected):
    """A catalog noun: its code, language and forms (plain text)."""

    code: str
    lang: str
    forms: Mapping[str, str]

    def __new__(cls, code: str, lang: str, forms: Mapping[str, str]) -> Noun:
        """``forms`` by name; the nominative (else the first form) is the text."""
        text = forms.get(NOM) or next(iter(forms.values()), code)
        noun = super().__new__(cls, text)
        noun.code, noun.lang, noun.forms = code, lang, forms
        return noun

    def get(self, form: str) -> tuple[str, bool]:
        """The form's text and whether the noun has it (the nominative stands in)."""
        text = self.forms.get(form)
        return (text, True) if text is not None else (str(self), False)

    def form(self, case: str) -> str:
        """The noun in the form ``case`` names."""
        text, found = self.get(case)
        _note(Use(self.code, self.lang, case, case, None, text, found))
        return text


class Count(Inflected):
    """A number and a noun in the form that follows it."""

    n: int
    noun: Noun

    def __new__(cls, n: int, noun: Noun) -> Count:
        """``n`` of ``noun``: ``3 дерева``."""
        form = count_form(noun.lang, NOM, n) or NOM
        count = super().__new__(cls, f"{n} {noun.get(form)[0]}")
        count.n, count.noun = n, noun
        return count

    def form(self, case: str) -> str:
        """``1 руду`` for ``acc``: the number, then the noun as the case and number ask."""
        form = count_form(self.noun.lang, case, self.n)
        text, found = self.noun.get(form) if form else (str(self.noun), False)
        out = f"{self.n} {text}"
        _note(Use(self.noun.code, self.noun.lang, case, form or NOM, self.n, out, found))
        return out


class Series(Inflected):
    """Parts joined by ``sep`` (plain text), each in the form asked of the whole."""

    parts: tuple[str, ...]
    sep: str

    def __new__(cls, parts: Iterable[str], sep: str = ", ") -> Series:
        """The parts (inflected or plain) in order."""
        items = tuple(parts)
        series = super().__new__(cls, sep.join(items))
        series.parts, series.sep = items, sep
        return series

    def __format__(self, spec: str) -> str:
        return Markup(escape(self.sep).join(
            format(p, spec) if isinstance(p, Inflected) else escape(p) for p in self.parts))

    def form(self, case: str) -> str:
        """The parts in the form ``case``, joined."""
        return to_plain(self.__format__(case))


class Phrase(Inflected):
    """A catalog template with its arguments; the form asked of the phrase goes to every
    inflected argument whose placeholder names no form of its own."""

    template: str
    args: Mapping[str, Any]

    def __new__(cls, template: str, args: Mapping[str, Any]) -> Phrase:
        """``template`` (catalog markup) to be filled with ``args``."""
        with _quiet():
            text = to_plain(fill(template, args))
        phrase = super().__new__(cls, text)
        phrase.template, phrase.args = template, dict(args)
        return phrase

    def __format__(self, spec: str) -> str:
        return fill(self.template, self.args, spec)

    def form(self, case: str) -> str:
        """The phrase with its nouns in the form ``case``."""
        return to_plain(self.__format__(case))


class _Inherit:
    """An argument of a phrase asked a form: the placeholder's own form wins."""

    __slots__ = ("case", "value")

    def __init__(self, value: Inflected, case: str) -> None:
        self.value, self.case = value, case

    def __format__(self, spec: str) -> str:
        return format(self.value, spec or self.case)


class _Blank(dict[str, Any]):
    """Formatting arguments where a missing name renders as ``{name}`` instead of failing."""

    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


_FORM_SPEC = re.compile(r"\{(\w+):[a-z_]+\}")


def fill(template: str, args: Mapping[str, Any], case: str = "") -> Markup:
    """``template`` with ``args`` filled in: inflected values in the form each
    placeholder names (else ``case``, else the nominative), numbers as they are, anything
    else escaped; a missing argument stays visible as ``{name}``."""
    safe: dict[str, Any] = {}
    for key, value in args.items():
        if isinstance(value, Inflected):
            safe[key] = _Inherit(value, case) if case else value
        elif isinstance(value, (int, float)):
            safe[key] = value
        else:
            safe[key] = escape(value)
    # str.format_map does what string.Formatter().vformat does in C, several times
    # faster; a press fills in dozens of texts.
    try:
        return Markup(template.format_map(_Blank(safe)))
    except ValueError:
        # A form asked of plain text: written as it is, and noted for the tests.
        _note(Use("", "", "", "", None, template, False))
        return Markup(_FORM_SPEC.sub(r"{\1}", template).format_map(_Blank(safe)))
