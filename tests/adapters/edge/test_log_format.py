"""``CAMPFIRE_LOG_FORMAT=json``: one JSON object a line — time, level, logger, message
and the traceback when there is one — with the bot token hidden as in text logs."""

from __future__ import annotations

import io
import json
import logging
from collections.abc import Iterator

import pytest

from adapters.edge.logging_setup import configure_logging, redact_everywhere
from adapters.edge.settings import LogEnv

TOKEN = "123456:ABCdefGhIJKlmNoPQRstuVWXyz-0123456789"


@pytest.fixture
def root_stream() -> Iterator[io.StringIO]:
    """The root logger configured as the bot does it, writing into a buffer; restored
    afterwards (pytest's own capture handlers included)."""
    root = logging.getLogger()
    saved, level = root.handlers[:], root.level
    stream = io.StringIO()
    try:
        yield stream
    finally:
        root.handlers[:] = saved
        root.setLevel(level)


def into(stream: io.StringIO) -> None:
    """The handler ``configure_logging`` installed writes into ``stream``."""
    [handler] = logging.getLogger().handlers
    assert isinstance(handler, logging.StreamHandler)
    handler.setStream(stream)


def lines_of(stream: io.StringIO) -> list[dict[str, str]]:
    return [json.loads(line) for line in stream.getvalue().splitlines()]


def test_json_logs_are_one_object_a_line_with_the_token_hidden(
    root_stream: io.StringIO
) -> None:
    configure_logging("json")
    into(root_stream)
    redact_everywhere(TOKEN)
    log = logging.getLogger("adapters.test")
    log.info("calling https://api.telegram.org/bot%s/getMe", TOKEN)
    try:
        raise RuntimeError(f"failed: https://api.telegram.org/bot{TOKEN}/sendMessage\nsecond")
    except RuntimeError:
        log.exception("a call failed")
    text = root_stream.getvalue()
    assert TOKEN not in text
    entries = lines_of(root_stream)
    assert len(entries) == len(text.splitlines()) == 2
    first, second = entries
    assert set(first) == {"time", "level", "logger", "message"}
    assert first["level"] == "INFO" and first["logger"] == "adapters.test"
    assert first["message"] == "calling https://api.telegram.org/bot<token>/getMe"
    assert first["time"].endswith("+00:00")
    assert second["level"] == "ERROR" and second["message"] == "a call failed"
    assert "Traceback" in second["exc"] and "bot<token>/sendMessage" in second["exc"]


def test_text_logs_stay_lines_for_people(root_stream: io.StringIO) -> None:
    configure_logging("text")
    into(root_stream)
    logging.getLogger("adapters.test").warning("plain %s", "words")
    assert root_stream.getvalue().rstrip().endswith("WARNING adapters.test: plain words")


def test_the_format_is_a_setting() -> None:
    assert LogEnv.read({}).format == "text"
    assert LogEnv.read({"CAMPFIRE_LOG_FORMAT": "json"}).format == "json"
    with pytest.raises(ValueError, match="CAMPFIRE_LOG_FORMAT"):
        LogEnv.read({"CAMPFIRE_LOG_FORMAT": "xml"})
