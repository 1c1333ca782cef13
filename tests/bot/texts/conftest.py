"""A catalog that notes every code looked up without a text in the asked language."""

from __future__ import annotations

from typing import Any

from bot.i18n.catalog import Catalog, Lang, Markup, shipped_sources


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
    """The shipped texts, read the same way ``default_catalog`` does."""
    catalog = RecordingCatalog.from_yaml_documents(shipped_sources())
    assert isinstance(catalog, RecordingCatalog)
    return catalog
