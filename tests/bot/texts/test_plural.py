"""Plural forms after numbers."""

from __future__ import annotations

import pytest

from bot.texts.plural import count_of, plural, plural_en, plural_ru

FORMS = ("житель", "жителя", "жителей")


@pytest.mark.parametrize(
    ("n", "expected"),
    [
        (0, "жителей"), (1, "житель"), (2, "жителя"), (3, "жителя"), (4, "жителя"),
        (5, "жителей"), (10, "жителей"), (11, "жителей"), (12, "жителей"), (14, "жителей"),
        (21, "житель"), (22, "жителя"), (25, "жителей"), (101, "житель"), (111, "жителей"),
        (112, "жителей"), (104, "жителя"), (1001, "житель"), (-1, "житель"), (-3, "жителя"),
    ],
)
def test_plural_ru(n: int, expected: str) -> None:
    """One, few and many by the last one or two digits; 11–14 always take 'many'."""
    assert plural_ru(n, *FORMS) == expected


def test_plural_en() -> None:
    """English: singular only for exactly one."""
    assert plural_en(1, "person", "people") == "person"
    assert plural_en(0, "person", "people") == "people"
    assert plural_en(2, "person", "people") == "people"
    assert plural_en(-1, "person", "people") == "person"


def test_plural_from_catalog_forms() -> None:
    """Forms come as 'one|few|many' or 'one|other'; short lists repeat the last form."""
    assert plural("ru", 3, "ресурс|ресурса|ресурсов") == "ресурса"
    assert plural("ru", 7, "ресурс|ресурса|ресурсов") == "ресурсов"
    assert plural("en", 7, "resource|resources") == "resources"
    assert plural("ru", 5, "шт.") == "шт."
    assert plural("en", 1, "sheep") == "sheep"
    assert count_of("ru", 2, "житель|жителя|жителей") == "2 жителя"
    assert count_of("en", 1, "person|people") == "1 person"
