"""The composition root: storage, secret, texts and pictures wired into one bot."""

from __future__ import annotations

import gc
import os
import random
import secrets
import time
from collections.abc import AsyncIterator, Callable, Mapping
from contextlib import asynccontextmanager
from dataclasses import dataclass

from adapters.edge.registry import platform_names
from adapters.edge.settings import AiEnv, WebEnv
from adapters.ops.metrics import PrometheusMetrics
from adapters.store import Storage, StoreSettings, open_storage
from adapters.web.links import LinkSigner, SignedLinks
from bot.app import Campfire
from bot.i18n.catalog import default_catalog
from bot.metrics import Metrics, NoMetrics
from bot.rules import RulesLibrary
from bot.services import Services
from bot.storage.pref_cache import CachedPrefs
from bot.table.thinking import Thinker
from bot.ui.present import Presenter
from bot.ui.tokens import TokenSigner

# Generation-0 collections every 100k allocations instead of 700: a press allocates
# thousands of small objects, and with the default thresholds full collections over
# the long-lived heap stalled presses for 100-300 ms (bench.bot_core measured p99
# 200 ms at 500 presses/s before, 14 ms after).
GC_THRESHOLDS = (100_000, 50, 1000)
SEED_ENV = "CAMPFIRE_SEED"


def seed_from_env(environ: Mapping[str, str] | None = None) -> int | None:
    """``CAMPFIRE_SEED`` as an integer, or None when unset or empty (ValueError if not a number)."""
    value = (os.environ if environ is None else environ).get(SEED_ENV, "").strip()
    if not value:
        return None
    try:
        return int(value)
    except ValueError:
        raise ValueError(f"{SEED_ENV} must be an integer, not {value!r}") from None


CLOCK_ENV = "CAMPFIRE_CLOCK_FILE"


def clock_from_env(environ: Mapping[str, str] | None = None) -> Callable[[], float]:
    """The bot's clock: the system's, unless ``CAMPFIRE_CLOCK_FILE`` names a file holding
    the time in unix seconds — tests of real processes move time by writing it, instead
    of sleeping (a missing or unreadable file reads as the system's time)."""
    path = (os.environ if environ is None else environ).get(CLOCK_ENV, "").strip()
    if not path:
        return time.time

    def from_file() -> float:
        try:
            with open(path, encoding="ascii") as handle:
                return float(handle.read().strip())
        except (OSError, ValueError):
            return time.time()

    return from_file


def bot_rng(seed: int | None) -> random.Random:
    """The randomness of lobbies (seat order, game seeds): seeded for reproducible runs,
    else the system's."""
    return random.SystemRandom() if seed is None else random.Random(seed)


def tune_gc() -> None:
    """Move everything alive at start-up out of the collector's way and collect less often."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)


async def token_secret(storage: Storage, prefix: str) -> bytes:
    """``CAMPFIRE_SECRET``, or one secret shared through Redis by every worker."""
    configured = os.environ.get("CAMPFIRE_SECRET")
    if configured:
        return configured.encode()
    key = prefix + "secret"
    await storage.redis.set(key, secrets.token_hex(32), nx=True)
    value = await storage.redis.get(key)
    return str(value).encode()


def make_services(
    storage: Storage,
    secret: bytes,
    *,
    now: Callable[[], float] = time.time,
    pictures: bool = True,
    worker_id: str | None = None,
    bot_name: str | None = None,
    seed: int | None = None,
    thinker: Thinker | None = None,
    metrics: Metrics | None = None,
) -> Services:
    """Services over an open storage; ``seed`` makes seat orders and game seeds
    reproducible (the same seed, the same lobbies: for tests and bug reports);
    ``thinker`` is where AI players decide (by default a pool of one process, started
    when an AI first decides); ``metrics`` where the operator's figures go (the
    presenter's picture times too; by default nowhere)."""
    catalog = default_catalog()
    signer = TokenSigner(secret)
    metrics = metrics or NoMetrics()
    return Services(
        store=storage.games,
        jobs=storage.jobs,
        once=storage.once,
        prefs=CachedPrefs(storage.prefs, now),
        stats=storage.stats,
        signer=signer,
        catalog=catalog,
        presenter=Presenter(catalog, signer, metrics=metrics),
        rules=RulesLibrary(),
        now=now,
        pictures=pictures,
        worker_id=worker_id or f"w{os.getpid()}-{secrets.token_hex(3)}",
        bot_name=bot_name,
        rng=bot_rng(seed),
        thinker=thinker or Thinker(),
        metrics=metrics,
    )


@dataclass(frozen=True)
class Core:
    """The bot every platform of one process serves: its storage and the app on it."""

    app: Campfire
    storage: Storage
    key_prefix: str
    # The deployment's one secret (``token_secret``): each use derives its own key.
    secret: bytes
    # The operator's figures, in a registry of this bot's own (``adapters.ops``).
    metrics: PrometheusMetrics


@asynccontextmanager
async def running_core(
    settings: StoreSettings | None = None,
    *,
    now: Callable[[], float] = time.time,
    pictures: bool = True,
    bot_name: str | None = None,
    seed: int | None = None,
    ai: AiEnv | None = None,
    web: WebEnv | None = None,
) -> AsyncIterator[Core]:
    """Open storage (embedded Redis unless ``REDIS_URL``) and yield the bot on it, for
    any number of platforms to serve; ``seed`` seeds its lobbies (see ``make_services``),
    ``ai`` says how AI players think (else ``CAMPFIRE_AI_*``) and their processes stop
    with the bot, ``web`` where the tables' pages are (else ``CAMPFIRE_WEB_*``; with no
    address, no pages). The collector is not tuned here: whoever starts the platforms does,
    once they are all up (``tune_gc``)."""
    settings = settings or StoreSettings.from_env()
    thinker = (ai or AiEnv.read()).thinker()
    try:
        async with open_storage(settings) as storage:
            secret = await token_secret(storage, settings.key_prefix)
            metrics = PrometheusMetrics(platforms=platform_names())
            app = Campfire(make_services(storage, secret, now=now, pictures=pictures,
                                         bot_name=bot_name, seed=seed, thinker=thinker,
                                         metrics=metrics))
            pages = web or WebEnv.read()
            if pages.url:
                app.sv.serve_pages(SignedLinks(LinkSigner(secret), pages.url,
                                               pages.link_days, now))
            yield Core(app, storage, settings.key_prefix, secret, metrics)
    finally:
        thinker.close()
