"""Running the Telegram bot: PTB application, sender, reminders, polling or webhook."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass

from aiohttp import web
from telegram import (
    BotCommand,
    BotCommandScopeAllGroupChats,
    BotCommandScopeAllPrivateChats,
    Update,
)
from telegram.error import InvalidToken, TelegramError
from telegram.ext import Application, ApplicationBuilder, TypeHandler

from adapters.runtime import make_services, token_secret, tune_gc
from adapters.store import StoreSettings, open_storage
from adapters.telegram.delivery import Delivery
from adapters.telegram.http import AiohttpRequest
from adapters.telegram.inbound import Inbound
from adapters.telegram.logging_setup import redact_everywhere
from adapters.telegram.outbox import Outbox
from adapters.telegram.sender import Sender, telegram_limits
from adapters.telegram.settings import TelegramSettings
from bot.app import Campfire
from bot.commands import COMMANDS
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


async def register_commands(application: Application, app: Campfire) -> None:  # type: ignore[type-arg]
    """Command menus in Russian and English, for groups and private chats."""
    catalog = app.sv.catalog
    for lang in LANGS:
        commands = [BotCommand(c, catalog.plain(lang, f"help.{c}")[:256]) for c in COMMANDS]
        for scope in (BotCommandScopeAllGroupChats(), BotCommandScopeAllPrivateChats()):
            await application.bot.set_my_commands(commands, scope=scope, language_code=lang)
    english = [BotCommand(c, catalog.plain("en", f"help.{c}")[:256]) for c in COMMANDS]
    await application.bot.set_my_commands(english)


async def _due_loop(app: Campfire, inbound: Inbound, every_s: float, stop: asyncio.Event) -> None:
    while not stop.is_set():
        try:
            await app.on_due(emit=inbound.queue)
        except Exception:  # keep reminding even if one round failed
            log.exception("due jobs failed")
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), every_s)


def webhook_app(application: Application, secret: str, path: str) -> web.Application:  # type: ignore[type-arg]
    """An aiohttp app that accepts Telegram's webhook posts carrying the secret."""
    async def receive(request: web.Request) -> web.Response:
        if request.headers.get(SECRET_HEADER) != secret:
            return web.Response(status=403)
        try:
            data = await request.json()
        except ValueError:
            return web.Response(status=400)
        update = Update.de_json(data, application.bot)
        await application.process_update(update)
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
) -> AsyncIterator[RunningTelegram]:
    """Start everything; stop it all on exit. Usable from tests and from ``serve``."""
    redact_everywhere(settings.token)
    # PTB's documented opt-in to the coming behaviour: time periods such as
    # ``RetryAfter.retry_after`` as timedeltas, without a deprecation warning per read.
    os.environ.setdefault("PTB_TIMEDELTA", "1")
    store_settings = store_settings or StoreSettings.from_env()
    async with open_storage(store_settings) as storage:
        secret = await token_secret(storage, store_settings.key_prefix)
        requests = (AiohttpRequest(), AiohttpRequest(pool_size=1))
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
            username = application.bot.username
            app = Campfire(make_services(storage, secret, now=clock, pictures=pictures,
                                         bot_name=username))
            outbox = Outbox(storage.redis, store_settings.key_prefix,
                            limits=telegram_limits(settings),
                            global_per_second=settings.global_per_second)
            inbound = Inbound(application.bot, app, outbox, storage.once)
            delivery = Delivery(application.bot)
            sender = Sender(outbox, delivery, settings, inbound.unreachable, clock,
                            moved=inbound.chat_moved)
            application.add_handler(TypeHandler(Update, inbound.handle))
            tune_gc()
            await register_commands(application, app)
            stop = asyncio.Event()
            tasks = [asyncio.create_task(sender.run(stop)),
                     asyncio.create_task(_due_loop(app, inbound, settings.due_every_s, stop))]
            runner: web.AppRunner | None = None
            port: int | None = None
            if settings.webhook_url:
                from urllib.parse import urlparse

                path = urlparse(settings.webhook_url).path or "/"
                runner = web.AppRunner(webhook_app(application, settings.webhook_secret or "",
                                                   path))
                await runner.setup()
                site = web.TCPSite(runner, settings.listen, settings.port)
                await site.start()
                port = settings.port
                await application.bot.set_webhook(settings.webhook_url,
                                                  secret_token=settings.webhook_secret,
                                                  allowed_updates=["message", "callback_query"])
            else:
                await application.bot.delete_webhook()
                assert application.updater is not None
                await application.updater.start_polling(
                    allowed_updates=["message", "callback_query"], poll_interval=0.0,
                    timeout=10)
            await application.start()
            try:
                yield RunningTelegram(application, app, outbox, inbound, sender, port)
            finally:
                stop.set()
                if application.updater is not None and application.updater.running:
                    await application.updater.stop()
                await application.stop()
                if runner is not None:
                    await runner.cleanup()
                for task in tasks:
                    task.cancel()
                    with contextlib.suppress(asyncio.CancelledError):
                        await task


async def serve(settings: TelegramSettings) -> None:
    """Run until interrupted."""
    async with running_telegram(settings):
        await asyncio.Event().wait()


def main_telegram() -> int:
    """Entry point used by ``campfire`` when ``TELEGRAM_TOKEN`` is set."""
    settings = TelegramSettings.from_env()
    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(serve(settings))
    return 0
