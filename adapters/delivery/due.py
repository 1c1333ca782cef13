"""The due loop: runs the core's due jobs (reminders, clocks, AI moves, repairs) every few
seconds, and at once when the core owes one now.

The jobs themselves live in Redis (``bot/table/due.py`` claims each under a lease, so several
workers may run this loop at once and a job still fires once); the loop only asks, on
a steady beat, until it is told to stop. What a round produces is handed to ``emit``
the platform wires in (an outbox's queue, a direct sender).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

from adapters.delivery.outbox import Outbox
from bot.table.due import Emit
from bot.ui.message import Outgoing

log = logging.getLogger(__name__)

#: One round of due jobs (``lambda: app.on_due(emit=...)``).
Round = Callable[[], Awaitable[object]]


async def due_loop(round_: Round, every_s: float, stop: asyncio.Event,
                   soon: asyncio.Event, beat: Callable[[], None] = lambda: None) -> None:
    """Run ``round_`` every ``every_s`` seconds until ``stop`` is set, and at once
    whenever ``soon`` is set (``Campfire.due_soon``: a job due now, like an AI's
    move); a round that fails is logged and the next one runs on time (reminders
    must keep coming). ``beat`` is called at every turn: the loop's heartbeat
    (``Metrics.beat``), which ``/readyz`` watches."""
    while not stop.is_set():
        beat()
        soon.clear()  # what is owed from now on wakes the next round
        try:
            await round_()
        except Exception:  # keep reminding even if one round failed
            log.exception("due jobs failed")
        await _first(stop, soon, every_s)


async def _first(stop: asyncio.Event, woken: asyncio.Event, timeout: float) -> None:
    """Wait until either event is set, or ``timeout`` seconds."""
    waits = [asyncio.ensure_future(stop.wait()), asyncio.ensure_future(woken.wait())]
    try:
        await asyncio.wait(waits, timeout=timeout, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for wait in waits:
            wait.cancel()


def into(outbox: Outbox) -> Emit:
    """The ``emit`` of a due round that queues what it produced in ``outbox``."""
    async def emit(items: list[Outgoing]) -> None:
        await outbox.put_many(items)
    return emit
