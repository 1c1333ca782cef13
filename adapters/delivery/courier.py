"""Delivering one item through a platform: send it, or edit the message its slot keeps.

A slot's record (``records.SentRecord``) comes from the outbox with the item, and the
new one goes back to the outbox when the platform accepted the call, so that any
worker can edit the slot's message. A slot message with a picture is a picture message
whose caption is the text; a new picture replaces the old one in place.

A message whose picture cannot go (the sender decides) goes ``as_text``: without the
picture, with its buttons; the picture follows later on its own (``follow``). Errors
of the platform's calls are raised for the sender to classify, except what only this
step can answer: an edit that changes nothing, and a kept message that is gone (it is
sent anew).
"""

from __future__ import annotations

import logging
from dataclasses import replace

from adapters.delivery.codec import destination, picture_digest, shown_digest
from adapters.delivery.platform import FailureKind, Platform, unexpected
from adapters.delivery.records import SentRecord, parse_record
from bot.ui.message import Message, Outgoing

log = logging.getLogger(__name__)


class Courier:
    """Sends items, editing the message a slot keeps; the outbox stores slot records."""

    def __init__(self, platform: Platform) -> None:
        """Deliver through ``platform``."""
        self.platform = platform

    async def deliver(
        self, item: Outgoing, kept: str | None = None, *, quiet: bool = False,
        as_text: bool = False,
    ) -> str | None:
        """Send or edit; returns the slot's new record (JSON) when it changed, and raises
        the platform's errors for the caller to classify.

        ``kept`` is the record of the message the item's slot keeps, as the outbox
        handed it over with the item (no other sender touches that chat meanwhile).
        ``quiet``: this may be the second try of a message the platform already has (the
        first try's answer never made it into the outbox), so a new message is sent
        without a notification; nobody is pinged twice for one message. A fresh slot
        message is still sent anew rather than edited into the slot's recorded (older)
        message: if the first try never arrived, an edit far up the chat would leave the
        player with no new message at all, which is worse than a silent copy at the
        bottom.

        ``as_text``: without the picture. A slot whose message is a picture cannot keep
        its old picture under the new text (a map whose numbers no longer match the
        buttons misleads): a text message takes its place, quietly unless the item is a
        fresh one anyway, and the picture message loses its buttons.
        """
        message = item.message
        if as_text and message.picture is not None:
            message = replace(message, picture=None)
        known = parse_record(kept) if message.slot else None
        picture = picture_digest(message)
        if known is not None and as_text and known.picture and not message.renew:
            await self._retire(item, known)
            known = None
            quiet = True
        if known is not None and message.renew:
            # A new turn or a reminder: a new message (which notifies), and the old one
            # loses its buttons so nobody presses a choice that is gone (a final message:
            # the old one says it too, rather than what it asked before).
            await self._retire(item, known, message if message.final else None)
            known = None
        shown = shown_digest(message)
        if (known is not None and known.digest == shown
                and (picture is None or picture == known.picture_digest)):
            return None  # the kept message already says exactly this: no call at all
        has_buttons = message.choices is not None
        if known is not None:
            try:
                await self.platform.edit(item, known.id, message, was_picture=known.picture,
                                         new_picture=picture is not None
                                         and picture != known.picture_digest)
                return replace(known, picture_digest=picture or known.picture_digest,
                               buttons=has_buttons, digest=shown).dump()
            except Exception as exc:
                failure = self.platform.classify(exc, item)
                if failure is not None and failure.kind is FailureKind.UNCHANGED:
                    # The platform shows this already (a record from before the digest
                    # was kept, say): remembered, so the next such edit makes no call.
                    return replace(known, picture_digest=picture or known.picture_digest,
                                   buttons=has_buttons, digest=shown).dump()
                if failure is None or failure.kind is not FailureKind.GONE:
                    raise
        sent_id = await self.platform.send(item, message, quiet=quiet)
        if known is not None:
            # The kept message could not be edited into this one (a text message cannot
            # become a picture, or it is gone): it stays as a record, without buttons
            # that would mislead.
            await self._retire(item, known)
        if not message.slot:
            return None
        return SentRecord(id=sent_id, picture=message.picture is not None,
                          picture_digest=picture, buttons=has_buttons, digest=shown).dump()

    async def follow(self, item: Outgoing, kept: str | None = None) -> str | None:
        """The picture of an item that went as text, on its own, without a notification.

        A slot's message takes its picture back: a picture message with the slot's text
        and buttons replaces the text message (which loses its buttons); the slot's new
        record is returned. Any other message gets its picture as a message of its own,
        captioned with the text's first line (the rest went with the text).
        """
        message = item.message
        if message.picture is None:
            return None
        if message.slot:
            return await self.deliver(replace(item, message=replace(message, renew=False)),
                                      kept, quiet=True)
        await self.platform.send_picture(item, message, quiet=True)
        return None

    async def _retire(self, item: Outgoing, known: SentRecord,
                      final: Message | None = None) -> None:
        """Take an old message's buttons away, or (``final``) make it say ``final``'s text
        without buttons (its picture, if it had one, stays); best effort: it may be gone
        already."""
        if not known.buttons and final is None:
            return
        try:
            if final is not None:
                # A picture message keeps its picture (the platform is told it is the
                # one it has) under the new caption; a text message gets the new text.
                kept = final.picture if known.picture else None
                await self.platform.edit(item, known.id, Message(final.text, picture=kept),
                                         was_picture=known.picture, new_picture=False)
            else:
                await self.platform.strip_buttons(item, known.id)
        except Exception as exc:
            failure = self.platform.classify(exc, item)
            call = failure.call if failure is not None else unexpected(exc)
            log.info("could not take the buttons off message %s in %s (%s)", known.id,
                     destination(item), call)
