"""What every game's texts share: the catalog, a memo of rendered lines, and the small
helpers for words, nouns, counts and player names.

A game's texts subclass ``CatalogTexts``, set ``prefix`` (their catalog namespace, e.g.
``sa``) and write ``_option`` and ``_event``; buttons and log lines repeat all game long,
so ``option`` and ``event`` render each distinct one once.

A noun goes into a sentence as a ``Noun`` or ``Count`` (``_noun``, ``_count``), never as
text: the sentence names the form it needs (see :mod:`bot.i18n.grammar`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

from bot.i18n.catalog import Catalog, Lang, Markup, default_catalog
from bot.i18n.grammar import Count, Noun, Phrase
from bot.ui.choices import Group
from engine.core.prompts import Event, Label, Option

MEMO_SIZE = 20_000


class CatalogTexts:
    """The shared half of a game's texts."""

    prefix: ClassVar[str]

    def __init__(self, catalog: Catalog | None = None) -> None:
        """Use ``catalog`` (the shipped one unless given)."""
        self._cat = catalog if catalog is not None else default_catalog()
        self._memo: dict[str, Any] = {}

    def _remember(self, key: str, make: Callable[[], Any]) -> Any:
        if key not in self._memo:
            if len(self._memo) >= MEMO_SIZE:
                self._memo.clear()
            self._memo[key] = make()
        return self._memo[key]

    def _word(self, lang: Lang, code: str, **args: Any) -> str:
        return self._cat.plain(lang, code, **args)

    def _phrase(self, lang: Lang, code: str, **args: Any) -> Phrase:
        """The text ``code`` as a phrase: filled where it is used, its nouns in the form
        the sentence it goes into asks (a description made ahead costs nothing unused)."""
        return self._cat.phrase(lang, code, **args)

    def _noun(self, lang: Lang, code: str, **args: Any) -> Noun:
        """The catalog noun ``code`` (a full code) with its forms."""
        return self._cat.noun(lang, code, **args)

    def _count(self, lang: Lang, noun: str, n: int) -> Count:
        """``n`` of the noun ``<prefix>.noun.<noun>`` (``3 жителя``; its form follows
        the number and the case the sentence asks)."""
        return Count(n, self._noun(lang, f"{self.prefix}.noun.{noun}"))

    def _name(self, lang: Lang, names: list[str], seat: int | None) -> str:
        if seat is not None and 0 <= seat < len(names):
            return names[seat]
        return self._word(lang, f"{self.prefix}.player", n=(seat or 0) + 1)

    def option(self, lang: Lang, label: Label) -> str:
        """The button text (plain)."""
        # The engine builds equal arguments in the same order, so repr is a fine key.
        key = f"o|{lang}|{label.code}|{label.args!r}"
        text: str = self._remember(key, lambda: self._option(lang, label))
        return text

    def option_short(self, lang: Lang, label: Label) -> str | None:
        """A short button text that still tells the option from every other of its
        prompt (``🌲3``), for narrow rows (``bot.ui.layout``): the catalog's
        ``<code>_short`` filled like the full label, or None when there is none."""
        key = f"s|{lang}|{label.code}|{label.args!r}"
        text: str | None = self._remember(key, lambda: self._short(lang, label))
        return text

    def _short(self, lang: Lang, label: Label) -> str | None:
        return None

    def option_group(self, lang: Lang, option: Option) -> Group | None:
        """The group an option is shown in (e.g. a furnishing's colour), or None: an
        engine names it as the label's ``group`` argument, worded by the catalog code
        ``<prefix>.group.<key>``."""
        key = option.label.args.get("group")
        if not isinstance(key, str) or not key:
            return None
        return Group(key, self._word(lang, f"{self.prefix}.group.{key}"))

    def event(self, lang: Lang, event: Event, names: list[str]) -> Markup | None:
        """The chat-log line, or None for events not worth one."""
        key = f"e|{lang}|{event.code}|{event.seat}|{names!r}|{event.args!r}"
        line: Markup | None = self._remember(key, lambda: self._event(lang, event, names))
        return line

    def score_part(self, lang: Lang, key: str, points: int) -> Markup:
        """``<prefix>.score.<key>``: one part of a final score in words."""
        return self._cat.t(lang, f"{self.prefix}.score.{key}", points=points)

    def _option(self, lang: Lang, label: Label) -> str:
        raise NotImplementedError

    def _event(self, lang: Lang, event: Event, names: list[str]) -> Markup | None:
        raise NotImplementedError
