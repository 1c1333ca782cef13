"""Message markup: what is safe to show passes, everything else is escaped."""

from __future__ import annotations

from bot.i18n.markup import Markup, escape, to_plain


def test_escape_leaves_markup_and_escapes_everything_else() -> None:
    safe = Markup("<b>x</b>")
    assert escape(safe) is safe
    assert escape("<b>&") == "&lt;b&gt;&amp;" and isinstance(escape("<b>&"), Markup)
    assert escape(3) == "3"


def test_to_plain_drops_the_known_tags_and_unescapes() -> None:
    assert to_plain("<b>A</b> &lt;i&gt; <code>c</code> &amp;") == "A <i> c &"
