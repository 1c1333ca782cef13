"""Logging that never shows the bot token (HTTP libraries log request URLs with it)."""

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
    # httpx logs every request URL at INFO; keep it to warnings.
    logging.getLogger("httpx").setLevel(logging.WARNING)
    return flt
