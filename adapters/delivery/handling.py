"""The update sequence every platform runs, in one place: ``handle_press`` for a
button press, ``hand_over`` for the reply to a typed command (its messages are its
answer).

1. The core is called with the update's *guard* when the platform claimed the update
   lazily (``UpdateLedger.unclaimed``, for a move: ``Campfire.is_move``): the move's
   commit then claims it in the same write. ``UpdateTaken`` from there means another
   worker has it: done (nothing more to do) or held (``HeldElsewhere``: the platform
   waits for that worker, like for any claimed update).
2. The reply's messages are handed over — queued in the outbox and the update marked
   done in one write, which also settles the table the reply follows up when the store
   lets it (``settle_part``) — *before* the platform is answered: the move is saved, so
   its messages must not depend on the answer call succeeding (a slow or lost answer
   only leaves a spinner).
3. The platform is answered (the button's notice, the interaction's response), and the
   core told its messages were handed over (``Campfire.acknowledge``) unless the table
   was settled in step 2. When the answer is a call of its own, both run side by side:
   the presser waits for neither on account of the other.
4. The core hears that the reply is out (``Campfire.handed_over``): a job it owes at
   once — an AI's move — wakes the due loop. The AI thinks after the presser has been
   answered, never while they wait.

Every press is answered exactly once, whatever fails: a bug in the core is answered
"internal error" on the button and the update is left unfinished (a redelivery is
handled afresh); a store that fails after the move was saved is answered "saved, not
shown" (what it owes is repaired by the core). A platform implements ``PressEdge``,
which only translates: what the reply means on that platform, how it is answered.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Protocol

from adapters.delivery.updates import UpdateClaim
from bot.app import Campfire
from bot.i18n import Lang
from bot.identity import Chat, User
from bot.storage import Owed, StoreUnavailable, UpdateTaken
from bot.storage.ports import ScriptPart
from bot.ui.message import Reply

log = logging.getLogger(__name__)

#: How a platform settles a table in the write that queues its messages
#: (``GameStore.settle_part``, on the outbox's Redis).
SettlePart = Callable[[Owed], ScriptPart]
#: How a platform hands a reply's messages over, with a table's settling in the same
#: write where it can (see ``PressEdge.deliver``).
Deliver = Callable[[Reply, ScriptPart | None], Awaitable[bool]]


def settle_of(reply: Reply, settle_part: SettlePart | None) -> ScriptPart | None:
    """How the write that queues ``reply``'s messages also settles the table they
    follow up, when there is one and the store lets it; None: the reply is
    acknowledged after the queuing (``Campfire.acknowledge``)."""
    if settle_part is None or len(reply.owed) != 1:
        return None
    return settle_part(reply.owed[0])


def _owes(reply: Reply, queued: bool, settle: ScriptPart | None) -> bool:
    """Must the core still be told ``reply`` was handed over? When its messages were
    queued here and their table was not settled in that write."""
    return queued and bool(reply.owed) and settle is None


async def hand_over(app: Campfire, reply: Reply, deliver: Deliver, *,
                    settle_part: SettlePart | None = None) -> bool:
    """Hand over the reply to a typed command (steps 2 and 3: its messages are its
    answer), then acknowledge it unless its table was settled in the same write. False
    when another worker had finished the update (nothing was handed over here)."""
    settle = settle_of(reply, settle_part)
    queued = await deliver(reply, settle)
    if _owes(reply, queued, settle):
        await app.acknowledge(reply)
    if queued:
        app.handed_over(reply)
    return queued


class HeldElsewhere(Exception):
    """An update whose claim was left to its first write turned out to be held by
    another worker: the platform waits for it like for any claimed update."""


class PressEdge(Protocol):
    """What one platform does in the sequence, for one press: translation only."""

    #: The language of notices the platform gives itself (internal error, saved).
    lang: Lang
    #: Is answering a call of its own (then it runs beside ``Campfire.acknowledge``)?
    answer_is_call: bool

    async def call(self, work: Awaitable[Reply]) -> Reply:
        """Wait for the core's reply (a platform with a deadline defers meanwhile)."""
        ...

    async def deliver(self, reply: Reply, settle: ScriptPart | None) -> bool:
        """Hand the reply's messages over, with ``settle`` and the update's done flag
        in the same write where there are; False when another worker had finished
        the update (nothing was handed over here, and that worker answered).
        ``HeldElsewhere`` when the update, not claimed yet, is another worker's."""
        ...

    async def answer(self, reply: Reply) -> None:
        """Answer the press on the platform (a failure is the platform's to log)."""
        ...


async def handle_press(app: Campfire, edge: PressEdge, chat: Chat, user: User, token: str,
                       *, claim: UpdateClaim | None = None,
                       settle_part: SettlePart | None = None) -> bool:
    """Run one press through the sequence (see the module); True once the update is
    finished (its messages handed over, here or by another worker). A store outage
    before anything was saved propagates, after the press was answered plainly."""
    answered = False
    try:
        guard = claim.guard if claim is not None and not claim.taken else None
        try:
            reply = await edge.call(app.on_press(chat, user, token, guard))
        except StoreUnavailable:
            raise
        except UpdateTaken as taken:
            # The move's commit found the update handled, or another worker's: that
            # worker answers it.
            answered = True
            if taken.done:
                return True
            raise HeldElsewhere from None
        except Exception:  # a bug: say so on the button itself, log with context
            log.exception("press %r failed (chat %s, user %s)", token, chat.id, user.id)
            answered = True
            await edge.answer(Reply(answer=app.sv.t(edge.lang, "err.internal"), alert=True))
            return False
        finished = queued = False
        settle = None
        try:
            settle = settle_of(reply, settle_part)
            queued = await edge.deliver(reply, settle)
            finished = True
        except StoreUnavailable:
            if not reply.out:
                raise
            # Whatever the press changed is saved: say that, not "nothing changed".
            reply = Reply(answer=app.sv.t(edge.lang, "press.saved_not_shown"), alert=True)
        answered = True
        if finished and not queued:
            return True  # another worker finished the update, and answered it
        owes = _owes(reply, queued, settle)
        if owes and edge.answer_is_call:
            await asyncio.gather(edge.answer(reply), app.acknowledge(reply))
        else:
            await edge.answer(reply)
            if owes:
                await app.acknowledge(reply)
        if queued:
            app.handed_over(reply)
        return finished
    except HeldElsewhere:
        answered = True  # by the worker that holds the update
        raise
    finally:
        if not answered:
            await edge.answer(Reply())  # no button is left spinning
