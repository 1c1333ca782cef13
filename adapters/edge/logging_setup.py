"""Logging that never shows the bot token (request URLs hold it, and HTTP libraries log
them or quote them in errors), as lines for people or, for a log collector, one JSON
object a line (``CAMPFIRE_LOG_FORMAT=json``)."""

from __future__ import annotations

import json
import logging
from datetime import UTC, datetime
from typing import Literal

TEXT_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"


class RedactToken(logging.Filter):
    """Replaces the token in every record's message and arguments."""

    def __init__(self, token: str) -> None:
        """Hide ``token`` (and the ``bot<token>`` URL form)."""
        super().__init__()
        self.token = token

    def filter(self, record: logging.LogRecord) -> bool:
        """Rewrite the record in place; never drops it."""
        if not self.token:
            return True
        message = record.getMessage()
        if self.token in message:
            record.msg = message.replace(self.token, "<token>")
            record.args = None
        if record.exc_info and not record.exc_text:
            # Handlers format the traceback from exc_text when it is set: set it redacted
            # (an exception's message or a chained one may quote a URL with the token).
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text and self.token in record.exc_text:
            record.exc_text = record.exc_text.replace(self.token, "<token>")
        if record.stack_info and self.token in record.stack_info:
            record.stack_info = record.stack_info.replace(self.token, "<token>")
        return True


def redact_everywhere(token: str) -> RedactToken:
    """Install the filter on every handler of the root logger (and return it)."""
    flt = RedactToken(token)
    root = logging.getLogger()
    if not root.handlers:
        configure_logging("text")
    for handler in root.handlers:
        handler.addFilter(flt)
    # httpx logs every request URL at INFO. It is PTB's default transport, not ours (see
    # http.py), but stays quiet should anything in the process still use it.
    logging.getLogger("httpx").setLevel(logging.WARNING)
    return flt


class JsonLines(logging.Formatter):
    """One JSON object a record, on one line: ``time`` (UTC, ISO 8601), ``level``,
    ``logger``, ``message`` and, when there is one, ``exc`` (the traceback). The
    traceback is the one ``RedactToken`` left in ``exc_text``, never formatted anew
    from the exception (which may quote the token)."""

    def format(self, record: logging.LogRecord) -> str:
        """The record as one line of JSON."""
        entry: dict[str, str] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(
                timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        if record.exc_info and not record.exc_text:
            record.exc_text = self.formatException(record.exc_info)
        if record.exc_text:
            entry["exc"] = record.exc_text
        if record.stack_info:
            entry["stack"] = self.formatStack(record.stack_info)
        # json.dumps escapes line breaks inside strings: a traceback stays on its line.
        return json.dumps(entry, ensure_ascii=False)


def configure_logging(fmt: Literal["text", "json"], level: int = logging.INFO) -> None:
    """The root logger writes to stderr as ``fmt`` says, replacing its handlers; the
    token filter (``redact_everywhere``) then goes on that handler."""
    handler = logging.StreamHandler()
    handler.setFormatter(JsonLines() if fmt == "json" else logging.Formatter(TEXT_FORMAT))
    logging.basicConfig(level=level, handlers=[handler], force=True)
