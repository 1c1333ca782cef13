"""The token filter: messages, arguments, tracebacks (with chained causes) and stack
information are shown with ``<token>`` in place of the bot token."""

from __future__ import annotations

import io
import logging

from adapters.edge.logging_setup import RedactToken

TOKEN = "7000000001:AAFakeTokenForCampfireTests_0123456789"


def logged(emit: object) -> str:
    """What a handler with the filter writes while ``emit(logger)`` logs."""
    out = io.StringIO()
    handler = logging.StreamHandler(out)
    handler.addFilter(RedactToken(TOKEN))
    logger = logging.getLogger(f"test.redact.{id(out)}")
    logger.propagate = False
    logger.addHandler(handler)
    try:
        emit(logger)  # type: ignore[operator]
    finally:
        logger.removeHandler(handler)
    return out.getvalue()


def test_message_and_arguments_are_redacted() -> None:
    text = logged(lambda log: log.warning("calling %s/getMe", f"http://h/bot{TOKEN}"))
    assert TOKEN not in text and "http://h/bot<token>/getMe" in text


def test_a_traceback_and_its_cause_are_redacted() -> None:
    def emit(log: logging.Logger) -> None:
        try:
            try:
                raise ValueError(f"bad url http://h:8081{TOKEN}/getMe")
            except ValueError as inner:
                raise RuntimeError("could not start") from inner
        except RuntimeError:
            log.exception("startup failed")

    text = logged(emit)
    assert "ValueError: bad url http://h:8081<token>/getMe" in text
    assert "RuntimeError: could not start" in text
    assert TOKEN not in text


def test_stack_info_is_redacted() -> None:
    record = logging.LogRecord("n", logging.WARNING, __file__, 1, "m", None, None,
                               sinfo=f"Stack (most recent call last):\n  url {TOKEN}")
    RedactToken(TOKEN).filter(record)
    assert record.stack_info is not None and TOKEN not in record.stack_info
    assert "url <token>" in record.stack_info
