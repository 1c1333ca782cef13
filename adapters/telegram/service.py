"""Running the Telegram bot: PTB application, sender, reminders, polling or webhook.

The outbox, the sender and the due loop are the shared delivery layer's
(``adapters.delivery``), wired here to Telegram's platform (``delivery``) and settings.

Start-up calls that only make the bot nicer to use (the command menus) are best
effort: one that fails is logged once and the bot serves anyway. ``campfire`` serves it
through the platform registry (``adapters.edge``), which on SIGTERM or SIGINT stops it
gracefully (``telegram_on``'s exit): no more updates are taken
(polling stops, the webhook answers 503 so that Telegram tries again later), the
updates under way finish or are handed back for the next start, the sender and the due
loop finish their step, and the storage closes, stopping the embedded redis-server
cleanly (its data flushed, no process left behind).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from functools import partial
from typing import Any

from aiohttp import web
from telegram import (
    BotCommand,
    BotCommandScopeAllGroupChats,
    BotCommandScopeAllPrivateChats,
    Update,
)
from telegram.error import BadRequest, InvalidToken, TelegramError
from telegram.ext import Application, ApplicationBuilder, TypeHandler

from adapters.delivery import Courier, Outbox, Sender, due_loop, platform_windows
from adapters.delivery.platform import FailedCall
from adapters.edge.logging_setup import redact_everywhere
from adapters.edge.settings import WebEnv
from adapters.runtime import Core, running_core, tune_gc
from adapters.store import StoreSettings
from adapters.telegram.delivery import TelegramPlatform, failed_call, named
from adapters.telegram.http import AiohttpRequest, PollingRequest
from adapters.telegram.ids import parse_chat
from adapters.telegram.inbound import WEBHOOK_ANSWER, Inbound, WebhookAnswer
from adapters.telegram.menus import telegram_menus
from adapters.telegram.page_buttons import PageButtons
from adapters.telegram.pruning import prune_update
from adapters.telegram.settings import TelegramSettings
from bot.app import Campfire
from bot.i18n import LANGS

log = logging.getLogger(__name__)
SECRET_HEADER = "X-Telegram-Bot-Api-Secret-Token"


@dataclass
class RunningTelegram:
    """A started bot: what tests and the CLI may look at."""

    application: Application  # type: ignore[type-arg]
    app: Campfire
    outbox: Outbox
    inbound: Inbound
    sender: Sender
    webhook_port: int | None = None


def starter() -> Callable[[Core], contextlib.AbstractAsyncContextManager[RunningTelegram]]:
    """How the platform registry (``adapters.edge``) starts Telegram: the settings are
    read now (a bad one stops ``campfire`` before anything starts), the rest on a core."""
    settings = TelegramSettings.from_env()
    web = WebEnv.read()
    pages = PageButtons(web.url, web.mini_app) if web.url else None
    return lambda core: telegram_on(core, settings, pages)


def build_application(
    settings: TelegramSettings, requests: tuple[AiohttpRequest, AiohttpRequest]
) -> Application:  # type: ignore[type-arg]
    """The PTB application on ``requests`` (for calls, for getUpdates); without an
    updater in webhook mode (our server feeds it)."""
    calls, updates = requests
    builder = (
        ApplicationBuilder().token(settings.token).concurrent_updates(True)
        .request(calls).get_updates_request(updates)
    )
    if settings.base_url:
        builder = builder.base_url(settings.base_url)
    if settings.base_file_url:
        builder = builder.base_file_url(settings.base_file_url)
    if settings.webhook_url:
        builder = builder.updater(None)
    return builder.build()


async def register_commands(application: Application, app: Campfire) -> bool:  # type: ignore[type-arg]
    """Command menus in Russian and English, for groups and private chats: best effort.

    A menu Telegram refuses (a 400) does not stop the others; server or network trouble
    stops at the first failure (the rest would fail alike, each after its timeout). One
    warning names the method and the status; the bot serves without the menus. True
    when every menu was set.
    """
    # The menus come from the one command schema (bot.input.command_schema).
    menus = {lang: [BotCommand(c, about) for c, about in menu]
             for lang, menu in telegram_menus().items()}
    calls: list[tuple[list[BotCommand], dict[str, Any]]] = []
    for lang in LANGS:
        for scope in (BotCommandScopeAllGroupChats(), BotCommandScopeAllPrivateChats()):
            calls.append((menus[lang], {"scope": scope, "language_code": lang}))
    calls.append((menus["en"], {}))
    done = 0
    failed: FailedCall | None = None
    for commands, where in calls:
        try:
            await named("setMyCommands", application.bot.set_my_commands(commands, **where))
            done += 1
        except TelegramError as exc:
            failed = failed or failed_call(exc)
            if not isinstance(exc, BadRequest):
                break
    if failed is not None:
        log.warning("setMyCommands failed (%s): %s of %s command menus not set; serving "
                    "without them", failed, len(calls) - done, len(calls))
    return failed is None


async def best_effort(method: str, call: Awaitable[Any], consequence: str) -> bool:
    """A start-up call the bot can serve without: a failure is one warning."""
    try:
        await named(method, call)
    except TelegramError as exc:
        log.warning("%s failed (%s); %s", method, failed_call(exc), consequence)
        return False
    return True


class Intake:
    """Whether the webhook still takes updates (not once shutting down)."""

    def __init__(self) -> None:
        """Open."""
        self.open = True


def webhook_app(application: Application, secret: str, path: str,  # type: ignore[type-arg]
                intake: Intake | None = None) -> web.Application:
    """An aiohttp app that accepts Telegram's webhook posts carrying the secret; once
    ``intake`` is closed it answers 503, and Telegram tries again later (behind a load
    balancer: another worker). A callback query is answered in the response
    (``inbound.WebhookAnswer``)."""
    async def receive(request: web.Request) -> web.Response:
        if request.headers.get(SECRET_HEADER) != secret:
            return web.Response(status=403)
        if intake is not None and not intake.open:
            return web.Response(status=503, headers={"Retry-After": "5"})
        try:
            data = await request.json()
        except ValueError:
            return web.Response(status=400)
        update = Update.de_json(prune_update(data), application.bot)
        # A callback query's answer rides back in this response: one call fewer a press.
        answer = WebhookAnswer()
        token = WEBHOOK_ANSWER.set(answer)
        try:
            await application.process_update(update)
        finally:
            WEBHOOK_ANSWER.reset(token)
        if answer.body is not None:
            return web.json_response(answer.body)
        return web.Response(text="ok")

    server = web.Application()
    server.router.add_post(path, receive)
    return server


@contextlib.asynccontextmanager
async def running_telegram(
    settings: TelegramSettings,
    store_settings: StoreSettings | None = None,
    *,
    clock: Callable[[], float] = time.time,
    pictures: bool = True,
    web: WebEnv | None = None,
) -> AsyncIterator[RunningTelegram]:
    """Open the storage and start Telegram alone on it; stop it all, gracefully, on
    exit. Usable from tests and benchmarks (``campfire`` starts ``telegram_on`` through
    the platform registry, ``adapters.edge``). ``web``: where the tables' pages are
    (else none, whatever the environment says)."""
    web = web or WebEnv()
    pages = PageButtons(web.url, web.mini_app) if web.url else None
    async with running_core(store_settings, now=clock, pictures=pictures, web=web) as core, \
            telegram_on(core, settings, pages) as running:
        tune_gc()
        yield running


@contextlib.asynccontextmanager
async def telegram_on(core: Core, settings: TelegramSettings,
                      pages: PageButtons | None = None) -> AsyncIterator[RunningTelegram]:
    """Serve Telegram for ``core`` (whose clock the sender keeps too); stop it
    gracefully on exit (see the module). ``pages``: how a table's page opens from a
    button, when the pages are served."""
    redact_everywhere(settings.token)
    # PTB's documented opt-in to the coming behaviour: time periods such as
    # ``RetryAfter.retry_after`` as timedeltas, without a deprecation warning per read.
    os.environ.setdefault("PTB_TIMEDELTA", "1")
    app, storage, clock = core.app, core.storage, core.app.sv.now
    requests = (AiohttpRequest(), PollingRequest(pool_size=1))
    application = build_application(settings, requests)
    failure: str | None = None
    try:
        await application.initialize()
    except InvalidToken:
        failure = "Telegram rejected TELEGRAM_TOKEN"
    except TelegramError as exc:
        failure = f"could not reach the Bot API ({type(exc).__name__}); check " \
                  "TELEGRAM_BASE_URL and the network"
    if failure is not None:
        for request in requests:  # PTB leaves them open when initialising fails
            await request.shutdown()
        # Raised outside the handler: PTB's messages may quote the token, and an error
        # raised inside would carry it along as its context.
        raise RuntimeError(failure)
    async with application:
        # Commands typed as ``/new@<bot>`` are this bot's (like the admin port, the
        # platform tells the core what only it knows).
        app.sv.bot_name = application.bot.username
        platform = TelegramPlatform.from_settings(application.bot, settings, pages,
                                                  app.sv.metrics)
        outbox = Outbox(storage.redis, core.key_prefix, platform=platform.name,
                        limits=platform_windows(platform),
                        global_per_second=platform.limits.global_per_second)
        inbound = Inbound(application.bot, app, outbox, storage.once,
                          settle_part=storage.games.settle_part)

        async def moved(old: str, new: str) -> None:
            await inbound.chat_moved(parse_chat(old)[0], parse_chat(new)[0])

        sender = Sender(outbox, Courier(platform), platform, settings, inbound.unreachable,
                        clock, moved=moved, reach=app, metrics=app.sv.metrics)
        application.add_handler(TypeHandler(Update, inbound.handle))
        await register_commands(application, app)
        stop = asyncio.Event()
        intake = Intake()
        tasks = [asyncio.create_task(sender.run(stop), name="sender"),
                 asyncio.create_task(
                     due_loop(lambda: app.on_due(emit=inbound.queue),
                              settings.due_every_s, stop, app.due_soon,
                              partial(app.sv.metrics.beat, f"{platform.name} due loop")),
                     name="due loop")]
        runner: web.AppRunner | None = None
        port: int | None = None
        try:
            if settings.webhook_url:
                from urllib.parse import urlparse

                path = urlparse(settings.webhook_url).path or "/"
                runner = web.AppRunner(
                    webhook_app(application, settings.webhook_secret or "", path, intake),
                    shutdown_timeout=settings.shutdown_grace_s)
                await runner.setup()
                site = web.TCPSite(runner, settings.listen, settings.port)
                await site.start()
                port = settings.port
                await application.bot.set_webhook(
                    settings.webhook_url, secret_token=settings.webhook_secret,
                    max_connections=settings.webhook_connections,
                    allowed_updates=["message", "callback_query"])
            else:
                await best_effort("deleteWebhook", application.bot.delete_webhook(),
                                  "polling anyway")
                assert application.updater is not None
                await application.updater.start_polling(
                    allowed_updates=["message", "callback_query"], poll_interval=0.0,
                    timeout=10)
            await application.start()
            handed = await inbound.handed_back()
            if handed:
                log.info("handling %s updates the last shutdown handed back",
                         len(handed))
            for update in handed:
                await application.update_queue.put(update)
            yield RunningTelegram(application, app, outbox, inbound, sender, port)
        finally:
            await _shut_down(application, inbound, intake, runner, stop, tasks,
                             settings.shutdown_grace_s)


async def _shut_down(
    application: Application, inbound: Inbound, intake: Intake,  # type: ignore[type-arg]
    runner: web.AppRunner | None, stop: asyncio.Event, tasks: list[asyncio.Task[None]],
    grace_s: float,
) -> None:
    """Stop gracefully: take no more updates, let those under way finish or hand them
    back, let the sender and the due loop finish their step, then stop PTB."""
    # 1. No more updates: polling stops (what it fetched is confirmed to Telegram and
    #    handled here), the webhook answers 503.
    intake.open = False
    if application.updater is not None and application.updater.running:
        await application.updater.stop()
    # 2. The updates fetched or under way finish within the grace, or are handed back.
    #    One grace for steps 2 and 3 together: a container's stop timeout bounds both.
    deadline = time.monotonic() + grace_s
    await inbound.wind_down(grace_s, lambda: not application.update_queue.empty())
    # 3. The sender and the due loop finish the step they are in (their work lives in
    #    Redis: whatever was not sent goes after the next start).
    stop.set()
    _, late = await asyncio.wait(tasks, timeout=max(deadline - time.monotonic(), 0.1))
    for task in late:
        log.warning("%s did not stop within %g s; cancelled", task.get_name(), grace_s)
        task.cancel()
    for task in tasks:
        try:
            await task
        except asyncio.CancelledError:
            pass
        except Exception:  # stopping goes on: the storage must still close cleanly
            log.exception("%s failed", task.get_name())
    # 4. PTB (anything still queued there is handed back by ``inbound``) and the webhook.
    if application.running:
        await application.stop()
    if runner is not None:
        await runner.cleanup()
