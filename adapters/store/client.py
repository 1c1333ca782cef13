"""The redis.asyncio client the store uses, and the translation of outages into StoreUnavailable."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from redis import exceptions as redis_errors
from redis.asyncio import BlockingConnectionPool, Redis
from redis.asyncio.retry import Retry
from redis.backoff import ExponentialBackoff

from adapters.store.packing import hiredis_packing
from bot.storage.errors import StoreUnavailable

# Error replies meaning "the server is there but cannot take writes right now"
# (disk full/AOF write failing, replica after failover, out of memory): for the
# player that is the same as an outage.
_UNAVAILABLE_REPLIES = ("MISCONF", "NOREPLICAS")
_UNAVAILABLE_CLASSES: tuple[type[Exception], ...] = (
    redis_errors.ConnectionError,  # includes BusyLoadingError and authentication failures
    redis_errors.TimeoutError,
    redis_errors.ReadOnlyError,
    redis_errors.OutOfMemoryError,
    redis_errors.TryAgainError,
    redis_errors.ClusterDownError,
    OSError,
    TimeoutError,
)


def connect(
    url: str,
    *,
    socket_timeout: float = 5.0,
    connect_timeout: float = 2.0,
    retries: int = 2,
    max_connections: int = 50,
) -> Redis:
    """Create an asyncio client for ``url`` (``redis://``, ``rediss://`` or ``unix://``).

    Retries are few and short on purpose: during an outage the player should hear
    "storage is unavailable" within a second, not after redis-py's default backoff.
    Retrying a commit is safe because every commit carries an id the script
    recognises (see ``GameStore.commit``).

    The pool blocks (up to ``connect_timeout + socket_timeout``) when all
    ``max_connections`` are busy: a burst of button presses then waits its turn
    instead of failing with "too many connections".
    """
    pool = BlockingConnectionPool.from_url(
        url,
        max_connections=max_connections,
        timeout=connect_timeout + socket_timeout,
        decode_responses=True,
        socket_timeout=socket_timeout,
        socket_connect_timeout=connect_timeout,
        retry=Retry(ExponentialBackoff(cap=0.25, base=0.02), retries),
        # Replaces connections that died while idle (server restart) before use.
        health_check_interval=30,
    )
    # The class the URL's scheme chose (TCP, TLS or a Unix socket), packing in C.
    pool.connection_class = hiredis_packing(pool.connection_class)
    return Redis.from_pool(pool)


@contextmanager
def unavailable_on_outage(what: str) -> Iterator[None]:
    """Re-raise connection trouble inside the block as ``StoreUnavailable``.

    Every other Redis error (a bug in a script, a wrong key type) propagates as is:
    hiding it behind "unavailable" would make it look transient when it is not.
    """
    try:
        yield
    except _UNAVAILABLE_CLASSES as exc:
        raise StoreUnavailable(f"{what}: storage is unavailable ({exc})") from exc
    except redis_errors.ResponseError as exc:
        if str(exc).startswith(_UNAVAILABLE_REPLIES):
            raise StoreUnavailable(f"{what}: storage refuses writes ({exc})") from exc
        raise
