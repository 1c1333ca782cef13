"""Running the console chat interactively or from a piped script."""

from __future__ import annotations

import asyncio
import io
import sys
from pathlib import Path
from typing import TextIO

from adapters.console.chat import ConsoleChat
from adapters.runtime import running_bot
from adapters.store import DataDirInUse, StoreSettings
from adapters.store.embedded import DataDirLocked

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


def shown_dir(path: Path) -> str:
    """A data dir as the user would type it: ``./data`` for the relative ``data``."""
    text = str(path)
    return text if path.is_absolute() or text.startswith(".") else f"./{text}"


def already_running(settings: StoreSettings, err: DataDirInUse) -> str:
    """The one line that says another Campfire owns the data dir."""
    pid = err.pid if isinstance(err, DataDirLocked) else None
    owner = f" (pid {pid})" if pid is not None else ""
    return (f"Campfire is already running on {shown_dir(settings.data_dir)}{owner}; "
            "stop it or set CAMPFIRE_DATA_DIR to use other data.")


def _tolerant_streams() -> None:
    """Bad bytes typed or piped in, or characters the terminal cannot show, must not
    end the session: decode and encode them with replacement characters."""
    for stream in (sys.stdin, sys.stdout):
        if isinstance(stream, io.TextIOWrapper):
            stream.reconfigure(errors="replace")


def main_console() -> int:
    """Entry point used by ``campfire`` when no platform token is set.

    Returns 1 with one line on stderr when another process runs on the same data dir.
    """
    try:
        settings = StoreSettings.from_env()
    except ValueError as err:
        print(f"Campfire: {err}", file=sys.stderr)
        return 2
    _tolerant_streams()
    try:
        asyncio.run(run_console(sys.stdin, sys.stdout, settings=settings))
    except DataDirInUse as err:
        print(already_running(settings, err), file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        # Ctrl-C: the bot has shut its Redis down on the way out; no traceback.
        return 130
    return 0
