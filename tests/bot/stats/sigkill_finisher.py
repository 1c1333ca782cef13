"""Run by test_sigkill.py in a child process: plays a table to its last move and is
SIGKILLed by its own hand between the final commit and archiving (nothing after the
commit runs: no messages, no archive, no result)."""

from __future__ import annotations

import asyncio
import os
import random
import signal
import sys

from adapters.store.client import connect
from tests.bot.helpers import ANNA, BORIS, Clock, Harness, build_app, storage_on


def die_before_archive(point: str) -> None:
    """The process dies where a table that ended would be archived."""
    if point == "before_archive":
        os.kill(os.getpid(), signal.SIGKILL)


async def finish(url: str, prefix: str) -> None:
    """Open a table, tell the parent its id, and play it until the process dies."""
    clock = Clock()
    h = Harness(build_app(storage_on(connect(url), prefix, clock), clock, worker_id="doomed"),
                clock)
    h.app.sv.fault = die_before_archive
    table_id = await h.started(ANNA, BORIS, game="hunters_gatherers")
    print(table_id, flush=True)
    rnd = random.Random(9)
    while True:
        await h.play_one(table_id, rnd)


if __name__ == "__main__":
    asyncio.run(finish(sys.argv[1], sys.argv[2]))
