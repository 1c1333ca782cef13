"""The delivery layer every chat platform shares.

The core hands adapters ``bot.ui.message.Outgoing`` items; this package gets them to a platform
reliably: an outbox in Redis (``outbox``) sending one message at a time per chat, in
the order queued, with no chat ever waiting for another and a failing message holding
back only the messages about its own table (its *lane*), rate windows per chat and overall
(``rates``), coalescing of a kept message's edits (``coalesce``), bounded retries and
the text fallback of a failing picture (``sender``), the records of kept messages
(``records``), the claims that make an update's effects queue once (``updates``) and
the loop that runs the core's due jobs (``due``). Messages are stored as JSON by one
codec (``codec``).

How a platform plugs in
-----------------------

1. Implement the ``platform.Platform`` port in the platform's adapter:

   - ``name``: a short, stable name; it names the Redis keys (``<prefix><name>out:``,
     ``<prefix><name>slots``). Telegram's is ``tg``; Discord's would be ``dc``.
   - ``limits``: a ``PlatformLimits`` — messages per window in private chats and in
     groups, per second overall, the longest text and caption.
   - ``rate_key(item)``: the window an item counts in (its chat, threads sharing their
     group's) and whether that chat is private.
   - the calls: ``send`` (returns the new message's id as a string), ``edit``,
     ``send_picture`` (a picture on its own, following its text), ``strip_buttons``.
     Render the neutral ``bot.ui.message.Message`` (markup tree, choice block) inside them. The
     id is all the layer keeps of a sent message (``records.SentRecord``): a platform
     that needs more to find it again (Discord: channel and message) puts both in it.
   - ``classify(exc, item)``: what an error of those calls means, as a ``Failure`` of
     a ``FailureKind`` with a ``FailedCall`` (method, status, detail, whether the call
     carried a picture): RETRY_AFTER (with seconds), UNREACHABLE (the user blocked the
     bot / closed their DMs), MOVED (with the new Campfire chat id), PERMANENT,
     TRANSIENT, GONE (an edited message no longer exists: it is sent anew) or
     UNCHANGED (an edit that changes nothing); None for an error that is not the
     platform's (a bug: retried a bounded number of times).

2. Wire it (see ``adapters/telegram/service.py``)::

       platform = MyPlatform(client, settings)
       outbox = Outbox(redis, prefix, platform=platform.name,
                       limits=platform_windows(platform),
                       global_per_second=platform.limits.global_per_second)
       sender = Sender(outbox, Courier(platform), platform, policy,
                       unreachable=ask_in_the_table_chat, moved=tables_moved,
                       metrics=app.sv.metrics)
       tasks = [sender.run(stop),
                due_loop(lambda: app.on_due(emit=into(outbox)), every_s, stop, app.due_soon,
                         partial(app.sv.metrics.beat, f"{platform.name} due loop"))]

   The sender counts failed calls by method and kind and reports its heartbeat to
   ``metrics`` (``/readyz`` watches it, as it watches the due loop's ``beat``); the
   platform counts the calls that delivered, by its own method names
   (``bot.metrics.DELIVERIES``).

   ``policy`` gives the sender's patience (``hold_chat_s``, ``picture_attempts``,
   ``picture_retry_s``, ``picture_pause_s``), usually the platform's settings.

3. Inbound: claim each update (``UpdateLedger(redis, prefix, platform=name)``), hand
   it to the core, and queue the reply's messages with ``Outbox.finish_update`` — the
   update is marked done in the same step, so a redelivery after a crash is handled
   again, never lost, and never answered twice. A press the core says is a move
   (``Campfire.is_move``) may skip the claim's round trip: ``UpdateLedger.unclaimed``
   gives a claim that the move's commit takes (``on_press``'s guard) or, for a refusal,
   the queuing of its answer; ``UpdateTaken`` or ``Finish.HELD`` says another worker
   holds it, and it is then claimed and waited for as usual. A button press runs this
   sequence through ``handling.handle_press``: the platform implements
   ``handling.PressEdge`` (how to wait for the core, deliver, answer) and nothing more.

An answer a platform must give synchronously (a Discord interaction's first response)
is the platform's own business; everything else should go through the outbox.
"""

from adapters.delivery.courier import Courier
from adapters.delivery.due import due_loop, into
from adapters.delivery.outbox import LEASE_S, Outbox, Taken
from adapters.delivery.platform import (
    FailedCall,
    Failure,
    FailureKind,
    Platform,
    PlatformLimits,
)
from adapters.delivery.rates import Limits, no_limits, platform_windows
from adapters.delivery.records import SentRecord, parse_record
from adapters.delivery.sender import Sender
from adapters.delivery.updates import ClaimState, UpdateClaim, UpdateLedger

__all__ = [
    "LEASE_S", "ClaimState", "Courier", "FailedCall", "Failure", "FailureKind", "Limits",
    "Outbox", "Platform", "PlatformLimits", "Sender", "SentRecord", "Taken", "UpdateClaim",
    "UpdateLedger", "due_loop", "into", "no_limits", "parse_record", "platform_windows",
]
