"""The message catalog: texts by language and code, loaded from YAML files.

Files are ``bot/i18n/data/<part>.<lang>.yaml`` and each game's
``bot/games/<game>/texts.<lang>.yaml``; nested mappings flatten to dotted codes
(``lobby: {joined: ...}`` → ``lobby.joined``). A missing text falls back to English,
then to the code itself, so a gap shows up as a visible code rather than a crash.

Message texts are a small HTML subset (``<b>``, ``<i>``, ``<code>``) that every adapter
knows how to show, and ``<cmd>name</cmd>``: a command as the reader types it on their
platform (``bot.ui.markup.Command``; the catalog adds the text's language). Argument
values are escaped when they are filled in unless they are ``Markup`` (text this module
already produced), so a user name can never inject markup.
``plain`` gives unmarked text for buttons.
"""

from __future__ import annotations

import html
import re
from collections.abc import Mapping
from functools import cache
from importlib import resources as importlib_resources
from typing import Any, Literal

from bot.ui.markup import COMMAND, Rich
from engine.core.data import load_yaml

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


class Markup(str):
    """Text that is already safe markup: inserted into other texts without escaping."""

    __slots__ = ()


def escape(value: Any) -> Markup:
    """Escape any value for insertion into a message text (Markup passes through)."""
    if isinstance(value, Markup):
        return value
    return Markup(html.escape(str(value), quote=False))


_TAG = re.compile(r"</?(?:b|i|u|s|code|pre)>")


def to_plain(text: str | Rich) -> str:
    """Markup (catalog markup or a markup tree) to plain text."""
    if isinstance(text, Rich):
        return text.plain()
    return html.unescape(_TAG.sub("", COMMAND.sub(r"/\1", text)))


def command(name: str, lang: Lang) -> Markup:
    """The command ``name`` (the schema's canonical name) in catalog markup, as a reader
    of ``lang`` types it on their platform (``bot.ui.markup.Command``)."""
    return Markup(f'<cmd lang="{lang}">{name}</cmd>')


class _Blank(dict[str, Any]):
    """Formatting arguments where a missing name renders as ``{name}`` instead of failing."""

    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


class Catalog:
    """Texts by language and code."""

    def __init__(self, texts: Mapping[str, Mapping[str, str]]) -> None:
        # A command in a text (``<cmd>vote</cmd>``) is typed as its readers' language
        # has it: each text's commands carry the text's language.
        self._texts = {lang: {code: text.replace("<cmd>", f'<cmd lang="{lang}">')
                              for code, text in texts.get(lang, {}).items()}
                       for lang in LANGS}

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

    def raw(self, lang: Lang, code: str) -> str | None:
        """The unformatted text, with the English fallback, or None."""
        text = self._texts[lang].get(code)
        if text is None:
            text = self._texts[FALLBACK].get(code)
        return text

    def t(self, lang: Lang, code: str, **args: Any) -> Markup:
        """The message text for ``code`` in ``lang``, arguments escaped and filled in."""
        text = self.raw(lang, code)
        if text is None:
            return escape(code)
        safe = {k: v if isinstance(v, (int, float)) else escape(v) for k, v in args.items()}
        # str.format_map does what string.Formatter().vformat does (the same field
        # syntax, a missing name through ``_Blank.__missing__``) in C, several times
        # faster; a press fills in dozens of texts.
        return Markup(text.format_map(_Blank(safe)))

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
