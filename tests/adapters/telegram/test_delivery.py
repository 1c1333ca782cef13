"""Fitting texts into Telegram's limits, and keyboards as Bot API JSON
(adapters/telegram/delivery.py)."""

from __future__ import annotations

import re

from adapters.telegram.delivery import fit, keyboard
from bot.i18n import Markup, to_plain
from bot.ui import Button, Message

TAG = re.compile(r"</?([a-z]+)>")


def balanced(text: str) -> bool:
    """Every tag closed in order."""
    stack: list[str] = []
    for m in TAG.finditer(text):
        if m.group(0).startswith("</"):
            if not stack or stack.pop() != m.group(1):
                return False
        else:
            stack.append(m.group(1))
    return not stack


def test_a_text_within_the_limit_is_unchanged() -> None:
    text = "<b>Stone Age</b> #a1\nscores\nline"
    assert fit(text, 100) == text


def test_old_log_lines_go_first_and_header_and_scores_stay() -> None:
    lines = ["<b>Stone Age</b> #a1", "Anna: 3 · Boris: 5"]
    lines += [f"<b>Anna</b> took {i} wood" for i in range(50)]
    lines.append("➡️ <b>Boris</b>, place your people")
    out = fit("\n".join(lines), 300)
    kept = out.split("\n")
    assert len(out) <= 300 and balanced(out)
    assert kept[:2] == lines[:2] and kept[-1] == lines[-1]
    assert kept[2:-1] == lines[-1 - len(kept[2:-1]):-1]  # the newest log lines survive


def test_one_huge_line_is_cut_as_plain_escaped_text() -> None:
    text = "<b>" + "x &amp; y " * 500 + "</b>"
    out = fit(text, 120)
    assert len(out) <= 120 and out.endswith("…")
    assert "<b>" not in out and balanced(out)
    assert "&amp;" in out and "&amp" not in out.replace("&amp;", "")  # no entity cut
    assert to_plain(out).startswith("x & y x & y")


def test_keyboard_is_bot_api_json_in_rows() -> None:
    message = Message(Markup("m"), buttons=((Button("A", "t1"), Button("B", "t2")),
                                            (Button("C", "t3"),)))
    assert keyboard(message) == {"inline_keyboard": [
        [{"text": "A", "callback_data": "t1"}, {"text": "B", "callback_data": "t2"}],
        [{"text": "C", "callback_data": "t3"}]]}
    assert keyboard(Message(Markup("m"))) is None
