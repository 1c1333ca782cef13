"""Text safety for user-supplied names: only drawable characters, fitted, in order."""

from __future__ import annotations

from bot.render.text import ELLIPSIS, drawable, fit_text, font, safe_text, visual_order


def test_vendored_font_draws_cyrillic_and_symbols() -> None:
    # Pillow's own scalable font has no Cyrillic; the vendored DejaVu Sans must.
    for ch in "ЖжЁё×→…–★½ßÅ":
        assert drawable(ch), ch


def test_undrawable_characters_are_dropped() -> None:
    assert safe_text("Анна 🔥🦣") == "Анна"
    assert safe_text("a\u200db\u202ec\x00d") == "abcd"
    assert safe_text("  many   \n spaces\t") == "many spaces"
    assert safe_text("李") == ""


def test_long_text_is_cut_to_width_with_an_ellipsis() -> None:
    fnt = font(28, True)
    out = fit_text("Мария-Антуанетта Длиннофамильная" * 20, fnt, 300)
    assert out.endswith(ELLIPSIS)
    assert fnt.getlength(out) <= 300
    assert fit_text("Bob", fnt, 300) == "Bob"


def test_right_to_left_runs_are_put_in_visual_order() -> None:
    assert visual_order("Bob") == "Bob"
    assert visual_order("שלום") == "םולש"
    # An RTL name with a Latin part: the Latin word keeps its order, on the left.
    assert visual_order("שלום Bob") == "Bob םולש"
    assert visual_order("Bob (שלום)") == "Bob (םולש)"
