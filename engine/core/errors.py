"""Errors the engine raises towards the bot."""

from __future__ import annotations

from typing import Any


class IllegalMove(Exception):
    """A choice the rules refuse.

    ``code`` is a stable reason code (``location_full``, ``not_your_turn`` …) that the
    bot translates; ``args`` fill the translated message. The state is never changed
    when this is raised.
    """

    def __init__(self, code: str, **args: Any) -> None:
        super().__init__(code if not args else f"{code} {args}")
        self.code = code
        self.args_map: dict[str, Any] = dict(args)
