"""Running the console chat interactively or from a piped script."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path
from typing import TextIO

from adapters.console.chat import ConsoleChat
from adapters.runtime import running_bot
from adapters.store import StoreSettings

BANNER = """Campfire console chat. Type lines as `name: text`, e.g.
  anna: /new stone_age
  boris: /join
  anna: /start
Press a button by typing its number: `anna: 3`. Private chat: `anna dm: /mygames`.
Ctrl-D quits; games are kept in ./data and continue next time."""
DUE_EVERY_S = 5.0


async def run_console(
    stream: TextIO, out: TextIO, *, settings: StoreSettings | None = None,
    picture_dir: Path = Path("out/console"), lang: str | None = "ru",
) -> None:
    """Read lines until the end of ``stream``; reminders run between lines."""
    interactive = stream.isatty()
    async with running_bot(settings) as app:
        chat = ConsoleChat(app, out, picture_dir, lang)
        if interactive:
            chat.print(BANNER)

        async def due_loop() -> None:
            while True:
                await asyncio.sleep(DUE_EVERY_S)
                await chat.run_due()

        ticker = asyncio.create_task(due_loop()) if interactive else None
        try:
            while True:
                line = await asyncio.to_thread(stream.readline) if interactive \
                    else stream.readline()
                if not line:
                    break
                await chat.handle_line(line)
        finally:
            if ticker is not None:
                ticker.cancel()


def main_console() -> int:
    """Entry point used by ``campfire`` when no platform token is set."""
    asyncio.run(run_console(sys.stdin, sys.stdout))
    return 0
