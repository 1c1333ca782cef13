"""Fitting texts into Telegram's limits, keyboards as Bot API JSON, what a failed call
is said to be, and what it means to the shared sender (adapters/telegram/delivery.py,
adapters/telegram/render.py)."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Callable

import pytest
from telegram.error import (
    BadRequest,
    ChatMigrated,
    Forbidden,
    NetworkError,
    RetryAfter,
    TelegramError,
    TimedOut,
)

from adapters.delivery.platform import FailureKind
from adapters.telegram.delivery import TelegramPlatform, failed_call, named
from adapters.telegram.http import LAST_STATUS
from adapters.telegram.render import fit, keyboard
from adapters.telegram.settings import TelegramSettings
from bot.i18n import to_plain
from bot.ui.markup import rich
from bot.ui.message import Button, Message, Outgoing, ToChat, ToUser, block

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
    assert fit(rich(text), 100) == text


def test_old_log_lines_go_first_and_header_and_scores_stay() -> None:
    lines = ["<b>Stone Age</b> #a1", "Anna: 3 · Boris: 5"]
    lines += [f"<b>Anna</b> took {i} wood" for i in range(50)]
    lines.append("➡️ <b>Boris</b>, place your people")
    out = fit(rich("\n".join(lines)), 300)
    kept = out.split("\n")
    assert len(out) <= 300 and balanced(out)
    assert kept[:2] == lines[:2] and kept[-1] == lines[-1]
    assert kept[2:-1] == lines[-1 - len(kept[2:-1]):-1]  # the newest log lines survive


def test_one_huge_line_is_cut_as_plain_escaped_text() -> None:
    text = "<b>" + "x &amp; y " * 500 + "</b>"
    out = fit(rich(text), 120)
    assert len(out) <= 120 and out.endswith("…")
    assert "<b>" not in out and balanced(out)
    assert "&amp;" in out and "&amp" not in out.replace("&amp;", "")  # no entity cut
    assert to_plain(out).startswith("x & y x & y")


def test_keyboard_is_bot_api_json_in_rows() -> None:
    message = Message("m", block([Button("A", "t1"), Button("B", "t2"), Button("C", "t3")]))
    assert keyboard(message) == {"inline_keyboard": [
        [{"text": "A", "callback_data": "t1"}, {"text": "B", "callback_data": "t2"}],
        [{"text": "C", "callback_data": "t3"}]]}
    assert keyboard(Message("m")) is None


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


# --------------------------------------------------------------------------- classification

PLATFORM = TelegramPlatform.from_settings(None, TelegramSettings(token="1:t"))  # type: ignore[arg-type]
GROUP = Outgoing(ToChat("tg:-1001/7"), Message("x"))
PRIVATE = Outgoing(ToUser("tg:42"), Message("x"))


@pytest.mark.filterwarnings("ignore::telegram.warnings.PTBDeprecationWarning")
@pytest.mark.parametrize(("exc", "item", "kind"), [
    (RetryAfter(3), GROUP, FailureKind.RETRY_AFTER),
    (Forbidden("bot was blocked by the user"), PRIVATE, FailureKind.UNREACHABLE),
    (BadRequest("Chat not found"), PRIVATE, FailureKind.UNREACHABLE),
    (BadRequest("Chat not found"), GROUP, FailureKind.GONE),
    (BadRequest("Message is not modified: specified new message content"), GROUP,
     FailureKind.UNCHANGED),
    (BadRequest("Message to edit not found"), GROUP, FailureKind.GONE),
    (BadRequest("Message can't be edited"), GROUP, FailureKind.GONE),
    (BadRequest("PHOTO_INVALID_DIMENSIONS"), GROUP, FailureKind.PERMANENT),
    (NetworkError("Bad Gateway"), GROUP, FailureKind.TRANSIENT),
    (TimedOut(), GROUP, FailureKind.TRANSIENT),
    (TelegramError("Conflict"), GROUP, FailureKind.PERMANENT),
], ids=lambda v: v.name if isinstance(v, FailureKind) else None)
def test_telegram_errors_are_classified_for_the_shared_sender(
    exc: TelegramError, item: Outgoing, kind: FailureKind
) -> None:
    failure = PLATFORM.classify(exc, item)
    assert failure is not None and failure.kind is kind
    if kind is FailureKind.RETRY_AFTER:
        assert failure.retry_after_s == 3.0


def test_a_migrated_group_moves_with_its_topic_and_a_bug_is_not_telegrams() -> None:
    failure = PLATFORM.classify(ChatMigrated(-100999), GROUP)
    assert failure is not None and failure.kind is FailureKind.MOVED
    assert failure.moved_to == "tg:-100999/7"
    assert PLATFORM.classify(ValueError("bug"), GROUP) is None


def test_private_chats_and_groups_are_told_apart_for_their_windows() -> None:
    assert PLATFORM.rate_key(PRIVATE) == ("chat:42", True)
    assert PLATFORM.rate_key(Outgoing(ToChat("tg:42"), Message("x"))) == ("chat:42", True)
    assert PLATFORM.rate_key(GROUP) == ("chat:-1001", False)
