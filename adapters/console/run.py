"""Running the console chat interactively or from a piped script."""

from __future__ import annotations

import asyncio
import contextlib
import io
import signal
import sys
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TextIO

from adapters.console.chat import ID_SPACE, ConsoleChat
from adapters.edge.settings import WebEnv
from adapters.runtime import Core, clock_from_env, running_core, seed_from_env
from adapters.store import DataDirInUse, StoreSettings, VolatileRedis
from adapters.store.embedded import DataDirLocked
from adapters.web.links import LinkSigner, SignedLinks
from adapters.web.press import Outlet
from adapters.web.service import page_server, serving_pages
from bot.storage.ports import ScriptPart
from bot.ui.message import Outgoing

BANNER = """Campfire console chat. Type lines as `name: text`, e.g.
  anna: /new stone_age
  boris: /join
  anna: /start
Press a button by typing its number: `anna: 3` (of the newest message with buttons)
or `anna: 12.3` (button 3 of message #12). Private chat: `anna dm: /mygames`.
Ctrl-D quits; games are kept in ./data and continue next time."""
DUE_EVERY_S = 5.0


async def run_console(
    stream: TextIO, out: TextIO, *, settings: StoreSettings | None = None,
    picture_dir: Path = Path("out/console"), lang: str | None = "ru",
    seed: int | None = None, pictures: bool = True, pages: WebEnv | None = None,
) -> bool:
    """Read lines until the end of ``stream``; reminders run between lines.

    ``seed`` makes seat orders and game seeds reproducible; ``pictures=False`` renders
    no pictures (faster, for scripted runs). With ``pages`` the tables' pages are
    served on ``http://localhost:<port>`` (``adapters.web``); a table's button then
    prints a player's own link to it.

    Ctrl-C lets the line being handled finish, then stops (the bot shuts its Redis
    down on the way out); a second Ctrl-C does not wait. Returns True when stopped
    by Ctrl-C.
    """
    interactive = stream.isatty()
    stop = asyncio.Event()  # no more lines: the input ended, or Ctrl-C
    interrupted = False

    def on_ctrl_c() -> None:
        nonlocal interrupted
        if interrupted:
            raise KeyboardInterrupt  # pressed again: stop without waiting
        interrupted = True
        stop.set()

    async with running_core(settings, seed=seed, pictures=pictures,
                            now=clock_from_env()) as core:
        chat = ConsoleChat.on(core, out, picture_dir, lang)

        async def due_loop() -> None:
            while not stop.is_set():
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(stop.wait(), DUE_EVERY_S)
                if not stop.is_set():
                    await chat.run_due()

        served = contextlib.AsyncExitStack()
        with _on_sigint(on_ctrl_c):
            # Told only now: a Ctrl-C after the banner is ours to handle, never
            # asyncio's (whose cancel a Redis call may swallow while pages start).
            if interactive:
                chat.print(BANNER)
            ticker = asyncio.create_task(due_loop()) if interactive else None
            typed = _read_in_background(stream) if interactive else None
            try:
                if pages is not None:
                    url = await _serve_pages(core, chat, pages, served)
                    chat.print(f"Tables' pages: {url} (a table's 🌐 button gives each "
                               "player their own link)" if url else
                               f"The tables' pages could not be served on port {pages.port}.")
                while not stop.is_set():
                    line = await _next_line(typed, stop) if typed is not None \
                        else stream.readline()
                    if not line:
                        break
                    await chat.handle_line(line)
            finally:
                # The ticker ends by itself rather than by a cancel: on Python 3.11 a
                # cancel landing inside a Redis call can be swallowed (asyncio.wait_for)
                # and the task would go on.
                stop.set()
                if ticker is not None:
                    await ticker
                await served.aclose()
    return interrupted


async def _serve_pages(core: Core, chat: ConsoleChat, settings: WebEnv,
                       served: contextlib.AsyncExitStack) -> str | None:
    """Serve the pages of the console's tables on localhost; their address, or None
    when the port is taken (the console plays on without pages)."""
    async def show(items: list[Outgoing], settle: ScriptPart | None) -> bool:
        del settle  # printed at once: acknowledged after (``Outlet``)
        await chat.show(items)
        return True

    server = page_server(core, {ID_SPACE: Outlet(show)})
    try:
        port = await served.enter_async_context(serving_pages(server, settings))
    except OSError:
        return None
    url = f"http://localhost:{port}"
    core.app.sv.serve_pages(SignedLinks(LinkSigner(core.secret), url, settings.link_days,
                                        core.app.sv.now))
    return url


@contextlib.contextmanager
def _on_sigint(callback: Callable[[], None]) -> Iterator[None]:
    """Call ``callback`` on SIGINT within the block (where the loop can: Unix, main thread)."""
    loop = asyncio.get_running_loop()
    try:
        loop.add_signal_handler(signal.SIGINT, callback)
    except (NotImplementedError, RuntimeError, ValueError):
        yield  # asyncio.run's own handling applies
        return
    try:
        yield
    finally:
        loop.remove_signal_handler(signal.SIGINT)


async def _next_line(lines: asyncio.Queue[str], stop: asyncio.Event) -> str:
    """The next typed line, or ``""`` once ``stop`` is set."""
    if not lines.empty():
        return lines.get_nowait()
    line = asyncio.ensure_future(lines.get())
    stopped = asyncio.ensure_future(stop.wait())
    await asyncio.wait((line, stopped), return_when=asyncio.FIRST_COMPLETED)
    stopped.cancel()
    if line.done():
        return line.result()
    line.cancel()
    return ""


def _read_in_background(stream: TextIO) -> asyncio.Queue[str]:
    """Lines of ``stream`` as a daemon thread reads them; ``""`` at the end.

    Not ``asyncio.to_thread``: a read blocked in the default executor would keep
    ``asyncio.run`` from returning after Ctrl-C until Enter was pressed.
    """
    loop = asyncio.get_running_loop()
    lines: asyncio.Queue[str] = asyncio.Queue()

    def put(line: str) -> None:
        with contextlib.suppress(RuntimeError):  # the loop is closed: nobody listens
            loop.call_soon_threadsafe(lines.put_nowait, line)

    def pump() -> None:
        try:
            for line in iter(stream.readline, ""):
                put(line)
        except (OSError, ValueError):
            pass  # stdin closed under us: the same as its end
        finally:
            put("")

    threading.Thread(target=pump, name="console-input", daemon=True).start()
    return lines


def shown_dir(path: Path) -> str:
    """A data dir as the user would type it: ``./data`` for the relative ``data``."""
    text = str(path)
    return text if path.is_absolute() or text.startswith((".", "~")) else f"./{text}"


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


def main_console(seed: int | None = None, *, pictures: bool = True) -> int:
    """Entry point used by ``campfire`` when no platform token is set.

    ``seed`` (else ``CAMPFIRE_SEED``) seeds the lobbies. Returns 1 with one line on
    stderr when another process runs on the same data dir, 2 when the settings are
    wrong or ``REDIS_URL``'s server keeps nothing on disk.
    """
    try:
        settings = StoreSettings.from_env()
        web = WebEnv.read()  # a wrong page setting stops the console before it starts
        if seed is None:
            seed = seed_from_env()
    except ValueError as err:
        print(f"Campfire: {err}", file=sys.stderr)
        return 2
    _tolerant_streams()
    try:
        interrupted = asyncio.run(run_console(
            sys.stdin, sys.stdout, settings=settings, seed=seed, pictures=pictures,
            pages=web if sys.stdin.isatty() else None))
    except DataDirInUse as err:
        print(already_running(settings, err), file=sys.stderr)
        return 1
    except VolatileRedis as err:
        print(str(err), file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        # Ctrl-C while starting, or twice: no traceback. A Redis left running is
        # shut down at exit (EmbeddedRedis registers that) or by the next start.
        return 130
    return 130 if interrupted else 0
