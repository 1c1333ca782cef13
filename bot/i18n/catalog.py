"""The message catalog: texts by language and code, loaded from YAML files.

Files are ``bot/i18n/data/<part>.<lang>.yaml`` and each game's
``bot/games/<game>/texts.<lang>.yaml``; nested mappings flatten to dotted codes
(``lobby: {joined: ...}`` → ``lobby.joined``). A missing text falls back to English,
then to the code itself, so a gap shows up as a visible code rather than a crash.

A noun is an entry whose forms a template may ask for (see :mod:`bot.i18n.grammar`):
a scalar is its only form, a mapping names its forms (``cav.tile.cavern.acc``).

Message texts are a small HTML subset (``<b>``, ``<i>``, ``<code>``) that every adapter
knows how to show, and ``<cmd>name</cmd>``: a command as the reader types it on their
platform (``bot.ui.markup.Command``; the catalog adds the text's language). Argument
values are escaped when they are filled in unless they are ``Markup`` (text this module
already produced), so a user name can never inject markup.
``plain`` gives unmarked text for buttons.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from importlib import resources as importlib_resources
from typing import Any, Literal

from bot.i18n.grammar import Noun, Phrase, fill
from bot.i18n.markup import Markup, command, escape, to_plain
from engine.core.data import load_yaml

__all__ = ["FALLBACK", "LANGS", "Catalog", "Lang", "Markup", "command", "escape",
           "normalize_lang", "to_plain"]

Lang = Literal["ru", "en"]
LANGS: tuple[Lang, ...] = ("ru", "en")
FALLBACK: Lang = "en"


def normalize_lang(value: str | None, default: Lang = "ru") -> Lang:
    """Map a platform language code (``ru-RU``, ``en_GB``, ``uk``) to a catalog language."""
    if not value:
        return default
    head = value.replace("_", "-").split("-")[0].lower()
    if head == "en":
        return "en"
    if head in ("ru", "uk", "be", "kk"):
        return "ru"
    return default


def _flatten(prefix: str, node: Any, out: dict[str, str]) -> None:
    if isinstance(node, Mapping):
        for key, value in node.items():
            _flatten(f"{prefix}.{key}" if prefix else str(key), value, out)
    else:
        out[prefix] = str(node)


class Catalog:
    """Texts by language and code."""

    def __init__(self, texts: Mapping[str, Mapping[str, str]]) -> None:
        # A command in a text (``<cmd>vote</cmd>``) is typed as its readers' language
        # has it: each text's commands carry the text's language.
        self._texts = {lang: {code: text.replace("<cmd>", f'<cmd lang="{lang}">')
                              for code, text in texts.get(lang, {}).items()}
                       for lang in LANGS}
        self._forms: dict[Lang, dict[str, dict[str, str]]] = {}

    @classmethod
    def from_yaml_documents(cls, docs: Mapping[str, list[str]]) -> Catalog:
        """Build from YAML source texts grouped by language."""
        texts: dict[str, dict[str, str]] = {}
        for lang, sources in docs.items():
            flat: dict[str, str] = {}
            for source in sources:
                _flatten("", load_yaml(source) or {}, flat)
            texts[lang] = flat
        return cls(texts)

    def has(self, lang: Lang, code: str) -> bool:
        """Is there a text for ``code`` in exactly this language?"""
        return code in self._texts[lang]

    def codes(self, lang: Lang) -> set[str]:
        """Every code with a text in ``lang``."""
        return set(self._texts[lang])

    def entries(self, lang: Lang) -> set[str]:
        """Every entry of ``lang``: its codes, with a noun's forms (``x.nom``, ``x.acc``…)
        as the one entry ``x`` — languages differ in the forms a noun needs."""
        codes = self._texts[lang]
        out = set()
        for code in codes:
            parent = code.rpartition(".")[0]
            out.add(parent if f"{parent}.nom" in codes else code)
        return out

    def raw(self, lang: Lang, code: str) -> str | None:
        """The unformatted text, with the English fallback, or None."""
        text = self._texts[lang].get(code)
        if text is None:
            text = self._texts[FALLBACK].get(code)
        return text

    def t(self, lang: Lang, code: str, **args: Any) -> Markup:
        """The message text for ``code`` in ``lang``, arguments filled in: nouns in the
        forms the text names, other values escaped (``bot.i18n.grammar.fill``)."""
        text = self.raw(lang, code)
        if text is None:
            return escape(code)
        return fill(text, args)

    def forms(self, lang: Lang, code: str) -> dict[str, str]:
        """The forms of the noun ``code`` in exactly ``lang`` (plain text, by form
        name): ``{"nom": text}`` for a scalar entry, its mapping's entries otherwise,
        empty when ``lang`` has neither."""
        if lang not in self._forms:
            groups: dict[str, dict[str, str]] = {}
            for full, entry in self._texts[lang].items():
                parent, _, form = full.rpartition(".")
                groups.setdefault(parent, {})[form] = to_plain(entry)
            self._forms[lang] = groups
        scalar = self._texts[lang].get(code)
        if scalar is not None:
            return {"nom": to_plain(scalar)}
        return dict(self._forms[lang].get(code, {}))

    def has_noun(self, lang: Lang, code: str) -> bool:
        """Has ``lang`` any form of the noun ``code``?"""
        return bool(self.forms(lang, code))

    def noun(self, lang: Lang, code: str, **args: Any) -> Noun:
        """The noun ``code`` with its forms in ``lang`` (English's when ``lang`` has
        none, else the code itself), ``args`` filled into every form (``Карта {n}``)."""
        forms = self.forms(lang, code) or self.forms(FALLBACK, code) or {"nom": code}
        if args:
            safe = {k: v if isinstance(v, (int, float)) else str(v) for k, v in args.items()}
            forms = {k: v.format_map(safe) for k, v in forms.items()}
        return Noun(code, lang, forms)

    def phrase(self, lang: Lang, code: str, **args: Any) -> Phrase:
        """The text ``code`` as a phrase: its nouns take the form a sentence asks of it."""
        return Phrase(self.raw(lang, code) or code, args)

    def plain(self, lang: Lang, code: str, **args: Any) -> str:
        """The text as plain characters (for buttons and terminals)."""
        return to_plain(self.t(lang, code, **args))


def shipped_sources() -> dict[str, list[str]]:
    """The YAML texts of the shipped catalog by language: the bot's own
    (``bot/i18n/data/<part>.<lang>.yaml``) and each game's
    (``texts.<lang>.yaml`` in the folder of every hosted game's manifest)."""
    docs: dict[str, list[str]] = {lang: [] for lang in LANGS}
    root = importlib_resources.files("bot.i18n").joinpath("data")
    for entry in sorted(root.iterdir(), key=lambda e: e.name):
        parts = entry.name.split(".")
        if len(parts) == 3 and parts[2] == "yaml" and parts[1] in docs:
            docs[parts[1]].append(entry.read_text(encoding="utf-8"))
    from bot.games import manifests  # the games' folders are where their manifests say

    for game in manifests().values():
        for lang in LANGS:
            entry = game.texts_file(lang)
            if entry.is_file():
                docs[lang].append(entry.read_text(encoding="utf-8"))
    return docs


@cache
def default_catalog() -> Catalog:
    """The shipped catalog (read once; it never changes)."""
    return Catalog.from_yaml_documents(shipped_sources())
