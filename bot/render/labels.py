"""Looking up a picture's words: the ``<prefix>.picture.<key>`` texts of a game's catalog.

A game's picture words live in its ``texts.<lang>.yaml`` under ``picture`` like every
other text it shows; this is the one lookup every game's picture uses.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from bot.i18n.catalog import LANGS, Lang, default_catalog

__all__ = ["DEFAULT_LANG", "LANGS", "Lang", "PictureWords"]

# The language of a picture asked for in a language it has no words in.
DEFAULT_LANG: Lang = "ru"


class PictureWords:
    """The words of one game's picture in both languages, read from the shipped
    catalog on first use (the catalog reads every game's manifest, which names the
    picture: reading it while the picture's modules are imported would go in circles)."""

    def __init__(self, prefix: str) -> None:
        """``prefix`` is the game's catalog namespace (``sa``: ``sa.picture.round``)."""
        self._head = f"{prefix}.picture."
        self._labels: Mapping[str, Mapping[Lang, str]] | None = None

    @property
    def labels(self) -> Mapping[str, Mapping[Lang, str]]:
        """Every picture word by key (without the prefix), in each language."""
        if self._labels is None:
            catalog = default_catalog()
            codes = sorted(c for lang in LANGS for c in catalog.codes(lang)
                           if c.startswith(self._head))
            self._labels = MappingProxyType({
                code.removeprefix(self._head): MappingProxyType(
                    {lang: catalog.raw(lang, code) or code for lang in LANGS})
                for code in codes
            })
        return self._labels

    def label(self, key: str, lang: str, n: int | str | None = None) -> str:
        """The text for ``key`` in ``lang`` (unknown languages fall back to Russian).

        An unknown key is shown as itself rather than raising: a missing word must not
        cost a player the picture of their game. ``{n}`` is replaced by ``n``.
        """
        entry = self.labels.get(key)
        if entry is None:
            return key
        code: Lang = "en" if lang == "en" else DEFAULT_LANG
        text = entry[code]
        return text.replace("{n}", str(n)) if n is not None else text
