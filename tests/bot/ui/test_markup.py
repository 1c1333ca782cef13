"""The markup tree: parsed from the catalog's HTML, rendered and escaped per platform."""

from __future__ import annotations

from adapters.discord.render import render_markdown
from adapters.telegram.render import render_html
from bot.ui.markup import (
    Break,
    Link,
    Mention,
    Rich,
    Span,
    Text,
    fit_rich,
    render_plain,
    rich,
    rich_lines,
    text,
)
from bot.ui.message import Message, Reply


def test_catalog_html_becomes_a_tree() -> None:
    tree = rich('<b>Anna</b> &lt;x&gt; &amp; co\nsee <a href="https://t.me/b?start=t1">here</a>')
    assert tree.nodes == (
        Span("bold", (Text("Anna"),)), Text(" <x> & co"), Break(), Text("see "),
        Link("https://t.me/b?start=t1", (Text("here"),)),
    )


def test_lines_parsed_one_by_one_make_the_tree_of_the_whole() -> None:
    lines = ["<b>Stone Age</b> · table <code>ab12</code>", "Anna 12 · Boris 9",
             "two lines\nin <i>one</i> entry", "", "&lt;3 <a href=\"https://t.me/x\">go</a>",
             "<b>Anna</b>, your turn"]
    assert rich_lines(lines) == rich("\n".join(lines))
    rich.cache_clear()
    rich_lines(lines)
    rich_lines([*lines[1:], "<b>Boris</b>, your turn"])  # the next message: one line new
    assert rich.cache_info().misses == len(lines) + 1


def test_unknown_or_stray_tags_stay_literal_and_open_ones_close() -> None:
    assert rich("a </b> b").plain() == "a </b> b"
    assert rich("<blink>x</blink>").plain() == "<blink>x</blink>"
    assert rich("<b>open").nodes == (Span("bold", (Text("open"),)),)


def test_a_name_full_of_markup_is_escaped_on_every_platform() -> None:
    name = "<b>*_Eve_*</b> [x](y) `z` & <@1>"
    tree = Rich((Span("bold", (Text(name),)),))
    html = render_html(tree)
    assert html == ("<b>&lt;b&gt;*_Eve_*&lt;/b&gt; [x](y) `z` &amp; &lt;@1&gt;</b>")
    md = render_markdown(tree)
    assert md.startswith("**") and md.endswith("**")
    inner = md[2:-2]
    for ch in "*_`[]<":
        assert all(inner[i - 1] == "\\" for i, c in enumerate(inner) if c == ch), ch
    assert render_plain(tree) == name


def test_mentions_and_links_per_platform() -> None:
    tree = Rich((Mention("tg:5", (Text("Anna"),)), Text(" "), Link("https://x.y/?a=1&b=2",
                                                                    (Text("go"),))))
    assert render_html(tree, lambda uid: "tg://user?id=5") == (
        '<a href="tg://user?id=5">Anna</a> <a href="https://x.y/?a=1&amp;b=2">go</a>')
    assert render_markdown(tree, lambda uid: "<@5>") == "<@5> [go](<https://x.y/?a=1&b=2>)"
    assert render_plain(tree) == "Anna go (https://x.y/?a=1&b=2)"
    assert render_html(tree) .startswith("Anna ")  # no link known: the name alone


def test_code_keeps_its_characters_in_markdown() -> None:
    tree = Rich((Span("code", (Text("a*b`c"),)),))
    assert render_markdown(tree) == "`a*bˋc`"
    assert render_html(tree) == "<code>a*b`c</code>"


def test_fitting_drops_old_lines_first_and_keeps_markup_whole() -> None:
    lines = [f"<b>line {i}</b>" for i in range(50)]
    tree = rich("\n".join(lines))
    fitted = fit_rich(tree, 120, render_html)
    html = render_html(fitted)
    assert len(html) <= 120
    assert html.startswith("<b>line 0</b>\n<b>line 1</b>\n") and html.endswith("line 49</b>")
    assert html.count("<b>") == html.count("</b>")
    one_long = text("x" * 500)
    assert render_html(fit_rich(one_long, 50, render_html)) == "x" * 49 + "…"


def test_messages_and_replies_parse_catalog_strings_at_the_boundary() -> None:
    message = Message("<b>Hi</b>")
    assert message.text == Rich((Span("bold", (Text("Hi"),)),))
    assert Reply(answer="a &lt; b").answer == text("a < b")
    assert Reply().answer is None and Message(text("x")).choices is None
