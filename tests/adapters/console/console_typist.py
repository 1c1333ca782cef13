"""A console chat in this process: type lines, read what each printed.

Shared by the console tests (imported by module name, like ``console_harness``); the
``typist`` fixture in ``conftest.py`` makes one on a fresh embedded Redis.
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from pathlib import Path

from adapters.console.chat import ConsoleChat
from bot.app import Campfire


@dataclass
class Typist:
    """Types lines into a ``ConsoleChat`` and returns what each printed."""

    app: Campfire
    chat: ConsoleChat
    pictures_dir: Path

    async def say(self, line: str) -> str:
        """Type ``line``; returns what was printed in answer."""
        out = self.chat.out
        assert isinstance(out, io.StringIO)
        seen = len(out.getvalue())
        await self.chat.handle_line(line)
        return out.getvalue()[seen:]

    def restarted(self) -> Typist:
        """A fresh console on the same bot and picture folder, as after a restart."""
        chat = ConsoleChat(self.app, self.chat.buttons, io.StringIO(), self.pictures_dir, lang="ru")
        return Typist(self.app, chat, self.pictures_dir)
