"""Plural forms of nouns after a number, for Russian and English.

Russian picks one of three forms by the last digits: 1 житель, 2 жителя, 5 жителей
(and 11–14 always take the third). English needs two: 1 person, 2 people. The forms
themselves live in the catalog as ``"one|few|many"`` (ru) or ``"one|other"`` (en).
"""

from __future__ import annotations


def plural_ru(n: int, one: str, few: str, many: str) -> str:
    """The Russian form of a noun after the number ``n``."""
    n = abs(n)
    last, last_two = n % 10, n % 100
    if last == 1 and last_two != 11:
        return one
    if 2 <= last <= 4 and not 12 <= last_two <= 14:
        return few
    return many


def plural_en(n: int, one: str, other: str) -> str:
    """The English form of a noun after the number ``n``."""
    return one if abs(n) == 1 else other


def plural(lang: str, n: int, forms: str) -> str:
    """Choose from ``"one|few|many"`` (Russian) or ``"one|other"`` (English).

    Missing forms repeat the last one given, so a word with a single form still works.
    """
    parts = [p.strip() for p in forms.split("|")]
    if lang == "ru":
        one, few, many = [*parts, parts[-1], parts[-1]][:3]
        return plural_ru(n, one, few, many)
    one, other = [*parts, parts[-1]][:2]
    return plural_en(n, one, other)


def count_of(lang: str, n: int, forms: str) -> str:
    """The number followed by the right form: ``3 жителя``, ``1 person``."""
    return f"{n} {plural(lang, n, forms)}"
