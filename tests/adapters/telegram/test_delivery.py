"""Fitting texts into Telegram's limits, keyboards as Bot API JSON, and what a failed
call is said to be (adapters/telegram/delivery.py)."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Callable

import pytest
from telegram.error import (
    BadRequest,
    Forbidden,
    NetworkError,
    RetryAfter,
    TelegramError,
    TimedOut,
)

from adapters.telegram.delivery import failed_call, fit, keyboard, named
from adapters.telegram.http import LAST_STATUS
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


# --------------------------------------------------------------------------- failed calls


async def raising(exc: TelegramError, status: int | None) -> None:
    """A Bot API call that got ``status`` (None: no answer) and raised ``exc``."""
    LAST_STATUS.set(status)
    raise exc


@pytest.mark.filterwarnings("ignore::telegram.warnings.PTBDeprecationWarning")
@pytest.mark.parametrize(("make", "status", "said", "permanent"), [
    (lambda: NetworkError("Internal Server Error"), 500, "500", False),
    (lambda: NetworkError("Bad Gateway"), 502, "502", False),
    (lambda: BadRequest("PHOTO_INVALID_DIMENSIONS"), 400, "400", True),
    (lambda: Forbidden("bot was kicked"), 403, "403", True),
    (lambda: RetryAfter(3), 429, "429", False),
    (lambda: NetworkError("aiohttp.ServerDisconnectedError talking to x"), None,
     "network error", False),
    (lambda: TimedOut(), None, "timeout", False),
], ids=["500", "502", "400", "403", "429", "dropped", "timeout"])
async def test_a_failed_call_names_its_method_and_the_status_of_the_answer(
    make: Callable[[], TelegramError], status: int | None, said: str, permanent: bool
) -> None:
    """PTB says "Internal Server Error" for a 500: the status comes from the answer
    itself (``http.LAST_STATUS``), or from the error's type when none came."""
    with pytest.raises(TelegramError) as caught:
        await asyncio.create_task(named("sendPhoto", raising(make(), status)))
    call = failed_call(caught.value)
    assert (call.method, call.status, call.permanent, call.picture) == (
        "sendPhoto", said, permanent, True)
    assert str(call).startswith(said)


def test_an_error_from_elsewhere_is_a_failed_delivery() -> None:
    call = failed_call(ValueError("bug"))
    assert (call.method, call.status, str(call)) == ("delivery", "ValueError", "ValueError bug")
    assert not call.picture and not call.permanent
