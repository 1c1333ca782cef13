"""A catalog that notes every code looked up without a text in the asked language."""

from __future__ import annotations

from importlib import resources
from typing import Any

import pytest

from bot.i18n.catalog import LANGS, Catalog, Lang, Markup
from bot.texts.stone_age import StoneAgeTexts


class RecordingCatalog(Catalog):
    """The shipped texts; ``missing`` collects (lang, code) pairs that had no text."""

    def __init__(self, texts: Any) -> None:
        super().__init__(texts)
        self.missing: set[tuple[str, str]] = set()

    def t(self, lang: Lang, code: str, **args: Any) -> Markup:
        if not self.has(lang, code):
            self.missing.add((lang, code))
        return super().t(lang, code, **args)


def shipped_catalog() -> RecordingCatalog:
    """Read ``bot/i18n/data`` the same way ``default_catalog`` does."""
    root = resources.files("bot.i18n").joinpath("data")
    docs: dict[str, list[str]] = {lang: [] for lang in LANGS}
    for entry in sorted(root.iterdir(), key=lambda e: e.name):
        parts = entry.name.split(".")
        if len(parts) == 3 and parts[2] == "yaml" and parts[1] in docs:
            docs[parts[1]].append(entry.read_text(encoding="utf-8"))
    catalog = RecordingCatalog.from_yaml_documents(docs)
    assert isinstance(catalog, RecordingCatalog)
    return catalog


@pytest.fixture
def catalog() -> RecordingCatalog:
    return shipped_catalog()


@pytest.fixture
def texts(catalog: RecordingCatalog) -> StoneAgeTexts:
    return StoneAgeTexts(catalog)
