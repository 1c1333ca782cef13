"""The message catalog: lookup, fallback, formatting and completeness."""

from __future__ import annotations

from bot.i18n import LANGS, escape, normalize_lang, to_plain
from bot.i18n.catalog import Catalog, default_catalog


def _catalog() -> Catalog:
    return Catalog.from_yaml_documents({
        "en": ["a: '{x}'\nnest:\n  b: plain\nonly_en: E"],
        "ru": ["a: '{x} (ru)'\nnest:\n  b: ровно"],
    })


def test_lookup_flattens_and_formats() -> None:
    """Nested keys flatten to dotted codes and arguments are filled in."""
    c = _catalog()
    assert c.t("en", "a", x=5) == "5"
    assert c.t("ru", "a", x=5) == "5 (ru)"
    assert c.t("ru", "nest.b") == "ровно"


def test_fallback_to_english_then_code() -> None:
    """A text missing in Russian falls back to English, an unknown code shows itself."""
    c = _catalog()
    assert c.t("ru", "only_en") == "E"
    assert c.t("ru", "no.such.code") == "no.such.code"


def test_missing_argument_does_not_crash() -> None:
    """A placeholder without a value is left visible instead of raising."""
    assert _catalog().t("en", "a") == "{x}"


def test_format_specs_and_missing_names_with_them() -> None:
    """Placeholders take Python format specs; a missing one still shows itself, and
    numbers are inserted as numbers (not escaped text)."""
    c = Catalog.from_yaml_documents(
        {"en": ["f: '{n:02d}|{x:.1f}|{who:>5}|{gone}|{twice}{twice}'"], "ru": [""]})
    assert c.t("en", "f", n=5, x=2.25, who="Ann", twice="&") == "05|2.2|  Ann|{gone}|&amp;&amp;"


def test_user_text_is_not_interpreted() -> None:
    """Braces inside argument values are kept as they are."""
    assert _catalog().t("en", "a", x="{evil} {0}") == "{evil} {0}"


def test_user_text_is_escaped_but_markup_is_not() -> None:
    """A name with HTML is escaped; text the catalog produced is inserted as is."""
    c = Catalog.from_yaml_documents({"en": ["hi: '<b>{name}</b> & {more}'"], "ru": [""]})
    inner = c.t("en", "hi", name="x", more="y")
    out = c.t("en", "hi", name="<script>&", more=inner)
    assert out == "<b>&lt;script&gt;&amp;</b> & <b>x</b> & y"
    assert c.plain("en", "hi", name="<i>A&B</i>", more="1") == "<i>A&B</i> & 1"
    assert to_plain(escape("a < b")) == "a < b"


def test_normalize_lang() -> None:
    """Platform language codes map to the two catalog languages."""
    assert normalize_lang("en-GB") == "en"
    assert normalize_lang("ru_RU") == "ru"
    assert normalize_lang("uk") == "ru"
    assert normalize_lang(None) == "ru"
    assert normalize_lang("de", default="en") == "en"


def test_shipped_catalog_has_same_codes_in_both_languages() -> None:
    """Russian and English are complete: every entry exists in both (a noun's forms are
    one entry: the languages differ in the forms a noun needs)."""
    c = default_catalog()
    ru, en = c.entries("ru"), c.entries("en")
    assert ru == en, f"only ru: {sorted(ru - en)[:10]}, only en: {sorted(en - ru)[:10]}"
    assert set(LANGS) == {"ru", "en"}
    assert c.t("ru", "reason.not_your_turn") != c.t("en", "reason.not_your_turn")


def test_shipped_texts_use_only_known_tags() -> None:
    """Every text is valid in the markup subset: only b/i/u/s/code/pre tags and commands
    (tagged with the text's language by the catalog) that the schema knows, no stray '<'."""
    import re

    from bot.input.command_schema import canonical_names

    c = default_catalog()
    allowed = re.compile(r"</?(?:b|i|u|s|code|pre)>")
    for lang in LANGS:
        for code in c.codes(lang):
            text = c.raw(lang, code) or ""
            commands = re.findall(r'<cmd lang="(\w+)">(\w+)</cmd>', text)
            assert all(tagged == lang and name in canonical_names()
                       for tagged, name in commands), f"{lang} {code}: {text!r}"
            leftover = allowed.sub("", re.sub(r'<cmd lang="\w+">\w+</cmd>', "", text))
            assert "<" not in leftover and ">" not in leftover, f"{lang} {code}: {text!r}"
