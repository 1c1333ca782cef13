"""Delivering the core's messages to Discord.

A message with a ``slot`` is kept: the first one is sent, later ones edit it in place (the
table's own message with its picture, a player's private prompt); ``renew`` sends it
anew and takes the buttons off the old one, so only one set stays live. What each slot
shows is remembered in Redis (channel, message, version, digest): every worker edits the
same message, an older version never overwrites a newer one, and an edit that would
change nothing is not made.

Private messages go by DM. A member whose DMs are closed (Discord's 403, code 50007) is
asked once per table, with a mention in the table's channel, to open them.

Messages to one channel leave in order (one lock per channel in this process). A failed
call is logged once with the method, the channel and the status, and never holds up
the other channels.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections import defaultdict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

import discord
from redis.asyncio import Redis

from adapters.discord.ids import parse_id
from adapters.discord.render import Rendered, render
from adapters.discord.texts import say
from bot.app import Campfire
from bot.ui import Outgoing, ToChat, ToUser

log = logging.getLogger(__name__)
CLOSED_DM = 50007
KEEP_FOR = timedelta(days=60)


@dataclass(frozen=True, slots=True)
class Kept:
    """Where a slot's message is and what it shows."""

    channel: int
    message: int
    version: int
    digest: str


# Answers an interaction by editing the message it was pressed on: returns the message id
# edited, or None when it did not (the interaction was answered some other way already).
EditPressed = Callable[[Rendered], Awaitable[int | None]]


@dataclass(frozen=True, slots=True)
class Pressed:
    """The message a component interaction came from, and how to edit it in the answer."""

    channel: int
    message: int
    edit: EditPressed


def describe(exc: discord.HTTPException) -> str:
    """``status code`` of a failed call, for one log line."""
    return f"HTTP {exc.status}, code {exc.code}"


class Sender:
    """Sends and edits messages for the core."""

    def __init__(self, client: discord.Client, app: Campfire, redis: Redis, prefix: str) -> None:
        """Wire the client, the core (for the table a closed DM is about) and Redis."""
        self.client = client
        self.app = app
        self.r = redis
        self.p = prefix + "dc:"
        self._locks: defaultdict[int, asyncio.Lock] = defaultdict(asyncio.Lock)
        self._dm: dict[int, int] = {}

    # ------------------------------------------------------------------ kept slots

    def _kept_key(self, item: Outgoing) -> str | None:
        if item.message.slot is None:
            return None
        where = ("c:" + item.to.chat_id) if isinstance(item.to, ToChat) else \
            ("u:" + item.to.user_id)
        return f"{self.p}kept:{where}:{item.message.slot}"

    async def kept(self, item: Outgoing) -> Kept | None:
        """What the item's slot shows now, if anything."""
        key = self._kept_key(item)
        raw = await self.r.get(key) if key else None
        return Kept(**json.loads(raw)) if raw else None

    async def _keep(self, item: Outgoing, kept: Kept) -> None:
        key = self._kept_key(item)
        if key is not None:
            await self.r.set(key, json.dumps(kept_json(kept)), ex=KEEP_FOR)

    async def goes_new(self, item: Outgoing) -> bool:
        """Whether ``item`` would be sent as a new message (not an edit of a kept one)."""
        if item.message.renew or item.message.slot is None:
            return True
        return await self.kept(item) is None

    async def adopt(self, item: Outgoing, message: discord.Message) -> None:
        """``item`` went out as ``message`` some other way (an interaction's response):
        its slot now points there, and an older copy loses its buttons."""
        old = await self.kept(item)
        await self._keep(item, Kept(message.channel.id, message.id, item.version,
                                    render(item.message).digest))
        if old is not None and old.message != message.id:
            await self._strip(old)

    # ------------------------------------------------------------------ channels

    async def channel_of(self, item: Outgoing) -> int | None:
        """The Discord channel an item goes to (opening the DM channel if need be)."""
        if isinstance(item.to, ToChat):
            return parse_id(item.to.chat_id)
        user_id = parse_id(item.to.user_id)
        if user_id is None:
            return None
        if user_id not in self._dm:
            cached = await self.r.get(f"{self.p}dm:{user_id}")
            if cached:
                self._dm[user_id] = int(cached)
            else:
                user = self.client.get_user(user_id) or await self.client.fetch_user(user_id)
                channel = await user.create_dm()
                self._dm[user_id] = channel.id
                await self.r.set(f"{self.p}dm:{user_id}", channel.id)
        return self._dm[user_id]

    # ------------------------------------------------------------------ delivering

    async def deliver(self, items: list[Outgoing], pressed: Pressed | None = None) -> None:
        """Send or edit every item, in order per channel; the pressed message (if an item
        updates it) is edited through the interaction's answer."""
        for item in items:
            try:
                await self.deliver_one(item, pressed)
            except discord.HTTPException as exc:
                log.warning("delivering to %s failed (%s)", _where(item), describe(exc))
            except Exception:  # one bad item must not stop the rest
                log.exception("delivering to %s failed", _where(item))

    async def deliver_one(self, item: Outgoing, pressed: Pressed | None = None) -> None:
        """Send or edit one item (see the module)."""
        channel_id = await self.channel_of(item)
        if channel_id is None:
            return
        async with self._locks[channel_id]:
            try:
                await self._deliver(item, channel_id, pressed)
            except discord.Forbidden as exc:
                if exc.code == CLOSED_DM and isinstance(item.to, ToUser):
                    await self._closed_dm(item)
                    return
                raise

    async def _deliver(self, item: Outgoing, channel_id: int, pressed: Pressed | None) -> None:
        rendered = render(item.message)
        kept = await self.kept(item)
        if kept is not None and item.version and kept.version > item.version:
            return  # a newer version is shown already
        channel = self.client.get_partial_messageable(channel_id)
        if kept is not None and not item.message.renew and kept.channel == channel_id:
            if kept.digest == rendered.digest:
                await self._keep(item, Kept(kept.channel, kept.message,
                                            max(kept.version, item.version), kept.digest))
                return
            edited: int | None = None
            if pressed is not None and pressed.message == kept.message:
                edited = await pressed.edit(rendered)
            if edited is None:
                try:
                    await channel.get_partial_message(kept.message).edit(
                        **rendered.edit_kwargs())
                except discord.NotFound:
                    edited = None  # deleted by someone: send it anew below
                else:
                    edited = kept.message
            if edited is not None:
                await self._keep(item, Kept(channel_id, edited, item.version, rendered.digest))
                return
        sent = await channel.send(**rendered.send_kwargs())
        await self._keep(item, Kept(channel_id, sent.id, item.version, rendered.digest))
        if kept is not None and kept.message != sent.id:
            await self._strip(kept)

    async def _strip(self, old: Kept) -> None:
        """The old copy of a slot loses its buttons: one live set per slot."""
        try:
            await self.client.get_partial_messageable(old.channel).get_partial_message(
                old.message).edit(view=None)
        except discord.HTTPException as exc:
            log.info("taking the buttons off an old message failed (%s)", describe(exc))

    async def _closed_dm(self, item: Outgoing) -> None:
        """A member's DMs are closed: ask them in the table's channel, once per table."""
        assert isinstance(item.to, ToUser)
        log.info("DMs closed for %s", item.to.user_id)
        if item.table is None or not await self.app.sv.once.first(
                f"dc:nodm:{item.to.user_id}:{item.table}", KEEP_FOR):
            return
        try:
            record = await self.app.sv.store.get(item.table)
        except Exception:  # the table is gone: nobody to ask
            return
        channel_id = parse_id(record.chat_id)
        user_id = parse_id(item.to.user_id)
        if channel_id is None or user_id is None:
            return
        text = say(self.app.sv.table_lang(record), "open_dm", mention=f"<@{user_id}>")
        await self.client.get_partial_messageable(channel_id).send(
            text, allowed_mentions=discord.AllowedMentions(users=[discord.Object(user_id)]))


def _where(item: Outgoing) -> str:
    return item.to.chat_id if isinstance(item.to, ToChat) else item.to.user_id


def kept_json(kept: Kept) -> dict[str, Any]:
    """A kept record as JSON data."""
    return {"channel": kept.channel, "message": kept.message, "version": kept.version,
            "digest": kept.digest}
