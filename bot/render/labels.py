"""Looking up a picture's words: a ``{key: (ru, en)}`` table turned into a lookup.

Each game keeps its own table beside its renderer; this is the one lookup they share.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Literal

Lang = Literal["ru", "en"]
LANGS: tuple[Lang, ...] = ("ru", "en")
DEFAULT_LANG: Lang = "ru"


class LabelTable:
    """The words of one picture in both languages."""

    def __init__(self, table: Mapping[str, tuple[str, str]]) -> None:
        """``table`` maps each key to its (Russian, English) text."""
        self.labels: Mapping[str, Mapping[Lang, str]] = MappingProxyType({
            key: MappingProxyType({"ru": ru, "en": en}) for key, (ru, en) in table.items()
        })

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
