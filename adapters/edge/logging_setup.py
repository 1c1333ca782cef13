"""Logging that never shows the bot token (request URLs hold it, and HTTP libraries log
them or quote them in errors)."""

from __future__ import annotations

import logging


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
        logging.basicConfig(level=logging.INFO,
                            format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    for handler in root.handlers:
        handler.addFilter(flt)
    # httpx logs every request URL at INFO. It is PTB's default transport, not ours (see
    # http.py), but stays quiet should anything in the process still use it.
    logging.getLogger("httpx").setLevel(logging.WARNING)
    return flt
