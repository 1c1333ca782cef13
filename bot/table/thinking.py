"""Where an AI decides: beside the event loop, so that the bot keeps answering every
other table while an AI thinks.

``Thinker.decide`` hands the decision to a process pool (``concurrent.futures
.ProcessPoolExecutor``, started on first use, its size and the budget per decision
settings of the deployment) and awaits it. Only what pickles small crosses over: the
game's name, the state as JSON, the deciding seat, the level, a seed and the budget;
the worker rebuilds the state and the prompt itself (``decide``). A pool whose process
died (killed, out of memory) is replaced and the decision asked again once. A decision
asked again while this process is still thinking it out (a ``/status`` that repairs the
table meanwhile) waits for the same thought instead of thinking twice.

With no worker processes (``workers=0``) the decision is made in the caller, on the
event loop: for tests, and for a machine that wants no second process.
"""

from __future__ import annotations

import asyncio
import json
import logging
import multiprocessing
import os
import random
import threading
import time
from collections.abc import Callable, Mapping
from concurrent.futures import Executor, Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from bot.table.autopilot import choose
from engine.registry import get_game

log = logging.getLogger(__name__)
DEFAULT_BUDGET_S = 2.0
DEFAULT_WORKERS = 1
# A pool that broke is replaced and the decision asked again this many times.
RETRIES = 1
# How often a worker process looks whether the bot that started it is still there.
PARENT_CHECK_S = 1.0

# What runs in the worker: (game, state JSON, seat, level, seed, budget) -> option key.
Decide = Callable[[str, str, int, str, str, float], str]


def decide(game_name: str, state_json: str, seat: int, level: str, seed: str,
           budget_s: float) -> str:
    """The option key an AI at ``level`` plays for ``seat``, from the state as JSON (run
    in a worker process: everything it needs is rebuilt here)."""
    game = get_game(game_name)
    state = game.load(state_json)
    prompt = next(p for p in game.pending(state) if p.seat == seat)
    return choose(game, state, prompt, level, random.Random(seed), budget_s=budget_s)


def end_with_parent(parent: int, every_s: float = PARENT_CHECK_S) -> None:
    """In a worker process: end it once the bot that started it is gone. A bot killed
    outright (SIGKILL, out of memory) cannot shut its pool down, and its worker would
    otherwise wait for work for ever; a new bot starts its own."""
    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(every_s)
        os._exit(0)

    threading.Thread(target=watch, name="end-with-parent", daemon=True).start()


class InlineExecutor(Executor):
    """An executor that runs each call at once in the caller (``workers=0``)."""

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        """Run ``fn`` now; its outcome as a finished future."""
        done: Future[Any] = Future()
        try:
            done.set_result(fn(*args, **kwargs))
        except BaseException as exc:  # the future carries it to whoever awaits
            done.set_exception(exc)
        return done


class Thinker:
    """The AI's place to think: a pool of ``workers`` processes (none: in the caller),
    each decision given ``budget_s`` seconds."""

    def __init__(self, workers: int = DEFAULT_WORKERS, budget_s: float = DEFAULT_BUDGET_S,
                 *, work: Decide = decide) -> None:
        """``work`` is what a worker runs (a module-level function: it is pickled by
        name; tests pass a slow one)."""
        self.workers = workers
        self.budget_s = budget_s
        self.work = work
        self._pool: Executor | None = None
        self._thinking: dict[tuple[str, int, str, str], asyncio.Future[str]] = {}

    def _executor(self) -> Executor:
        if self._pool is None:
            # Spawned, not forked: a fork of the bot would copy its event loop, its
            # connections and the threads of its libraries into the worker.
            self._pool = InlineExecutor() if self.workers == 0 else ProcessPoolExecutor(
                max_workers=self.workers, mp_context=multiprocessing.get_context("spawn"),
                initializer=end_with_parent, initargs=(os.getpid(),))
        return self._pool

    async def decide(self, game: str, state: Mapping[str, Any], seat: int, level: str,
                     seed: str) -> str:
        """The option key ``seat`` plays at ``level`` in ``state`` (a stored record's),
        decided off the event loop. ``seed`` names the decision: the same seed, the same
        state (a table's id and version)."""
        key = (game, seat, level, seed)
        thought = self._thinking.get(key)
        if thought is None:
            thought = asyncio.ensure_future(self._decide(game, json.dumps(state), seat, level,
                                                         seed))
            self._thinking[key] = thought
            thought.add_done_callback(lambda _: self._thinking.pop(key, None))
        # Shielded: one caller giving up (its request cancelled) leaves it to the others.
        return await asyncio.shield(thought)

    async def _decide(self, game: str, as_json: str, seat: int, level: str, seed: str) -> str:
        loop = asyncio.get_running_loop()
        for attempt in range(RETRIES + 1):
            pool = self._executor()
            try:
                key: str = await loop.run_in_executor(pool, self.work, game, as_json, seat,
                                                      level, seed, self.budget_s)
                return key
            except BrokenProcessPool:
                log.warning("the AI's worker process died; starting another")
                self._discard(pool)
                if attempt == RETRIES:
                    raise
        raise AssertionError("unreachable")

    def _discard(self, pool: Executor) -> None:
        if self._pool is pool:
            self._pool = None
        pool.shutdown(wait=False, cancel_futures=True)

    def close(self) -> None:
        """Stop the worker processes (a decision under way is abandoned: it is owed, and
        made again by whoever carries out what the table owes)."""
        if self._pool is not None:
            self._discard(self._pool)
