"""The button that opens a table's page, as Telegram can make it.

In a private chat a ``web_app`` button opens the page inside Telegram as a Mini App,
and the client hands the page init data that proves the user. Groups take no
``web_app`` buttons; there the button is the Mini App's direct link
(``https://t.me/<bot>/<app>?startapp=<table>``), which opens the same Mini App with the
table as its start parameter — once the Mini App is registered with BotFather
(``/newapp``, its address the page server's ``/app``; see the README). Without a
direct link the group button is an ordinary one: the bot answers its press with the
presser's own signed link, privately.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bot.ui.choices import Choice


@dataclass(frozen=True, slots=True)
class PageButtons:
    """Where the pages are (``CAMPFIRE_WEB_URL``) and the Mini App's direct link."""

    url: str
    mini_app: str | None = None

    def button(self, choice: Choice, private: bool) -> dict[str, Any] | None:
        """The Bot API button that opens ``choice``'s table, or None where Telegram
        has none (then it is pressed like any button)."""
        if choice.table is None:
            return None
        if private and self.url.startswith("https://"):
            # Telegram opens Mini Apps from HTTPS addresses only; elsewhere the button
            # is pressed like any, and answered with a link.
            return {"text": choice.label,
                    "web_app": {"url": f"{self.url.rstrip('/')}/t/{choice.table}"}}
        if self.mini_app:
            return {"text": choice.label, "url": f"{self.mini_app}?startapp={choice.table}"}
        return None
