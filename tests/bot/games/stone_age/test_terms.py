"""Russian words follow the official Russian edition of Stone Age (Hobby World), as
the rulebook in ../shared/seeds/stone_age_rules_ru.txt uses them: every Russian text of
the game — chat catalog, picture labels, rules book titles and bodies — is checked
against the edition's terms. Keywords of the rules book are what players type, so
they may keep other words."""

from __future__ import annotations

import re
from importlib import resources
from typing import Any

import pytest
import yaml

from bot.games.stone_age.picture import WORDS

FOLDER = resources.files("bot.games.stone_age")


def _strings(data: Any, path: str = "") -> list[tuple[str, str]]:
    if isinstance(data, dict):
        return [item for k, v in data.items() for item in _strings(v, f"{path}.{k}")]
    if isinstance(data, list):
        return [item for v in data for item in _strings(v, path)]
    return [(path, data)] if isinstance(data, str) else []


def russian_texts() -> list[tuple[str, str]]:
    """(where, text) for every Russian text the game shows."""
    out = _strings(yaml.safe_load(FOLDER.joinpath("texts.ru.yaml").read_text("utf-8")))
    out += [(f"picture {key}", entry["ru"]) for key, entry in WORDS.labels.items()]
    book = yaml.safe_load(FOLDER.joinpath("rules.yaml").read_text("utf-8"))
    for topic in book["topics"]:
        out += [(f"rules {topic['id']} title", topic["title"]["ru"]),
                (f"rules {topic['id']} body", " ".join(topic["body"]["ru"].split()))]
    return out


# (pattern that must not occur, the edition's word for it)
FORBIDDEN: list[tuple[str, str]] = [
    (r"\bдерев(?!н)", "древесина"),  # «деревня» (the village) is a word of the edition
    (r"расстановк", "выставление"),
    (r"кормлени", "прокорм племени"),
    (r"(?<!одно)разов", "одноразовый"),
    (r"мастерск\w*\b(?! ремесленника)", "мастерская ремесленника"),
    (r"\b\d видов\b", "двух/трёх/четырёх разных видов"),
    (r"2 любых", "2 ресурса по выбору игрока"),
    (r"ресурсы за кубики|кубики для всех|ресурса на выбор|дополнительн\w+ карт",
     "official card names"),
    (r"урожай", "еда по счётчику земледелия"),
    (r"кончил", "опустела (стопка) / не хватило (карт)"),
]


def test_the_scan_sees_every_kind_of_text() -> None:
    places = {where.split(" ")[0].split(".")[0] for where, _ in russian_texts()}
    assert {"", "picture", "rules"} <= places
    assert len(russian_texts()) > 250


@pytest.mark.parametrize(("pattern", "term"), FORBIDDEN)
def test_russian_texts_use_the_official_terms(pattern: str, term: str) -> None:
    found = [(where, text) for where, text in russian_texts()
             if re.search(pattern, text, re.IGNORECASE)]
    assert found == [], f"use «{term}»"


def test_the_official_names_are_there() -> None:
    everything = "\n".join(text for _, text in russian_texts())
    for term in ("древесина", "Охотничьи угодья", "Мастерская ремесленника", "выставление",
                 "прокорм племени", "Бонусная карта", "Одноразовый инструмент",
                 "Ресурсы за бросок кубиков", "Предметы за бросок кубика",
                 "2 ресурса по выбору игрока", "двух разных видов", "уровень развития"):
        assert term.lower() in everything.lower(), term
