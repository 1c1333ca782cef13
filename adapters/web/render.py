"""The core's markup tree as HTML for the page: every literal escaped, styles as their
tags, links opened in a new tab, mentions and commands as their words."""

from __future__ import annotations

import html

from bot.ui.markup import Link, Node, Rich, Span, Style, walk

_TAGS: dict[Style, str] = {
    "bold": "b", "italic": "i", "underline": "u", "strike": "s", "code": "code", "pre": "pre",
}


def page_html(value: Rich) -> str:
    """``value`` as HTML (line breaks kept: the page shows text with ``white-space:
    pre-line``)."""
    def wrap(node: Node, inner: str) -> str:
        if isinstance(node, Span):
            tag = _TAGS[node.style]
            return f"<{tag}>{inner}</{tag}>"
        if isinstance(node, Link):
            url = html.escape(node.url, quote=True)
            return f'<a href="{url}" target="_blank" rel="noopener">{inner}</a>'
        return inner
    return walk(value.nodes, lambda s: html.escape(s, quote=False), wrap)
