"""Discord's side of the delivery port: REST calls through discord.py, and their errors.

The shared layer (``adapters.delivery``) queues, orders, rate-limits, coalesces and
retries; ``DiscordPlatform`` makes the calls it asks for and says what Discord's errors
mean. A sent message's id, as the layer keeps it, is ``<channel>/<message>``: Discord
needs both to find a message again, and a DM channel need not be looked up to edit.
Members are pinged only by a one-off message that mentions them (the closed-DM hint);
a table message naming players pings nobody.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any

import aiohttp
import discord
from redis.asyncio import Redis

from adapters.delivery.platform import FailedCall, Failure, FailureKind, PlatformLimits
from adapters.discord.ids import parse_id
from adapters.discord.render import CONTENT_LIMIT, markdown, render
from bot import metrics as figures
from bot.metrics import Metrics, NoMetrics
from bot.ui.markup import Mention, Rich
from bot.ui.message import Message, Outgoing, ToChat, ToUser

CLOSED_DM = 50007
UNKNOWN_MESSAGE = 10008
PICTURE_METHODS = frozenset({"send picture", "edit picture"})
# Discord's documented windows: about 5 messages per 5 s in a channel, 50 calls a second
# for a bot as a whole.
LIMITS = PlatformLimits(private_per_window=5, private_window_s=5.0, group_per_window=5,
                        group_window_s=5.0, global_per_second=50, text_chars=CONTENT_LIMIT,
                        caption_chars=CONTENT_LIMIT)


def _name(exc: BaseException, method: str, picture: bool) -> None:
    """Record on ``exc`` which call it ended."""
    if isinstance(exc, discord.HTTPException):
        status, detail = str(exc.status), f"code {exc.code} {exc.text[:160]}".strip()
    elif isinstance(exc, TimeoutError | asyncio.TimeoutError):
        status, detail = "timeout", ""
    else:
        status, detail = "network error", type(exc).__name__
    exc.failed_call = FailedCall(method, status, detail, picture=picture)  # type: ignore[attr-defined]


def _call_of(exc: BaseException) -> FailedCall:
    found = getattr(exc, "failed_call", None)
    if isinstance(found, FailedCall):
        return found
    return FailedCall("delivery", type(exc).__name__, str(exc)[:200])


def split_id(message_id: str) -> tuple[int, int]:
    """(channel, message) of a kept id."""
    channel, _, message = message_id.partition("/")
    return int(channel), int(message)


@dataclass
class DiscordPlatform:
    """The ``adapters.delivery.Platform`` of Discord, through ``client``'s REST."""

    client: discord.Client
    redis: Redis
    prefix: str
    limits: PlatformLimits = LIMITS
    name: str = "dc"
    # Hears of every call that delivered, by method (the sender counts the failures).
    metrics: Metrics = field(default_factory=NoMetrics)

    def rate_key(self, item: Outgoing) -> tuple[str, bool]:
        """A channel's window (a DM's by the user's id)."""
        if isinstance(item.to, ToUser):
            return f"dm:{item.to.user_id}", True
        return f"ch:{item.to.chat_id}", False

    def classify(self, exc: BaseException, item: Outgoing) -> Failure | None:
        """Discord's errors by what helps (None: not Discord's)."""
        call = _call_of(exc)
        if isinstance(exc, discord.RateLimited):
            return Failure(FailureKind.RETRY_AFTER, call, retry_after_s=exc.retry_after)
        if isinstance(exc, discord.HTTPException):
            if exc.status == 429:
                retry = float(getattr(exc, "retry_after", 0) or 1.0)
                return Failure(FailureKind.RETRY_AFTER, call, retry_after_s=retry)
            if exc.status == 403 and (exc.code == CLOSED_DM or isinstance(item.to, ToUser)):
                return Failure(FailureKind.UNREACHABLE, call)
            if exc.status == 404 and exc.code == UNKNOWN_MESSAGE:
                return Failure(FailureKind.GONE, call)
            if exc.status >= 500:
                return Failure(FailureKind.TRANSIENT, call)
            return Failure(FailureKind.PERMANENT, call)
        if isinstance(exc, aiohttp.ClientError | TimeoutError | asyncio.TimeoutError | OSError):
            return Failure(FailureKind.TRANSIENT, call)
        return None

    async def channel_of(self, item: Outgoing) -> int:
        """The Discord channel an item goes to (opening the DM channel once, kept in
        Redis for every worker)."""
        if isinstance(item.to, ToChat):
            found = parse_id(item.to.chat_id)
            if found is None:
                raise ValueError(f"not a Discord channel: {item.to.chat_id}")
            return found
        user_id = parse_id(item.to.user_id)
        if user_id is None:
            raise ValueError(f"not a Discord user: {item.to.user_id}")
        key = f"{self.prefix}dc:dm:{user_id}"
        cached = await self.redis.get(key)
        if cached:
            return int(cached)
        user = self.client.get_user(user_id) or await self.client.fetch_user(user_id)
        channel = await user.create_dm()
        await self.redis.set(key, channel.id)
        return channel.id

    async def _named(self, method: str, picture: bool, call: Any) -> Any:
        try:
            result = await call
        except (discord.HTTPException, aiohttp.ClientError, TimeoutError, OSError) as exc:
            _name(exc, method, picture)
            raise
        self.metrics.count(figures.DELIVERIES, {"platform": self.name, "method": method})
        return result

    async def send(self, item: Outgoing, message: Message, *, quiet: bool) -> str:
        """A new message; its ``channel/message`` id. ``quiet`` (a message that may have
        arrived already, a picture following its text) goes as Discord's silent message
        (no push, no sound) and pings nobody."""
        channel_id = await self._named("open DM", False, self.channel_of(item))
        kwargs = render(message).send_kwargs()
        if quiet:
            kwargs["silent"] = True
        else:
            kwargs["allowed_mentions"] = _pings(item, message)
        channel = self.client.get_partial_messageable(channel_id)
        picture = message.picture is not None
        sent = await self._named("send picture" if picture else "send", picture,
                                 channel.send(**kwargs))
        return f"{channel_id}/{sent.id}"

    async def edit(self, item: Outgoing, message_id: str, message: Message, *,
                   was_picture: bool, new_picture: bool) -> None:
        """Replace the text and buttons; the picture only when it changed."""
        channel_id, mid = split_id(message_id)
        kwargs = render(message).edit_kwargs()
        if was_picture and not new_picture and message.picture is not None:
            del kwargs["attachments"]  # the attached picture stays as it is
        target = self.client.get_partial_messageable(channel_id).get_partial_message(mid)
        picture = "attachments" in kwargs and bool(kwargs["attachments"])
        await self._named("edit picture" if picture else "edit", picture,
                          target.edit(**kwargs))

    async def send_picture(self, item: Outgoing, message: Message, *, quiet: bool) -> None:
        """The picture alone, with the text's first line."""
        file = render(message).file()
        if file is None:
            return
        channel_id = await self._named("open DM", False, self.channel_of(item))
        first = markdown(message.text.lines()[0]) if message.text else ""
        channel = self.client.get_partial_messageable(channel_id)
        await self._named("send picture", True, channel.send(first or None, file=file,
                                                             silent=quiet))

    async def strip_buttons(self, item: Outgoing, message_id: str) -> None:
        """Take an old message's buttons away."""
        channel_id, mid = split_id(message_id)
        target = self.client.get_partial_messageable(channel_id).get_partial_message(mid)
        await self._named("strip buttons", False, target.edit(view=None))


def _pings(item: Outgoing, message: Message) -> discord.AllowedMentions:
    """Who a message may ping: the members a one-off channel message mentions."""
    if message.slot is not None or message.choices is not None or isinstance(item.to, ToUser):
        return discord.AllowedMentions.none()
    users = [discord.Object(found) for uid in _mentioned(message.text)
             if (found := parse_id(uid)) is not None]
    return discord.AllowedMentions(users=users) if users else discord.AllowedMentions.none()


def _mentioned(text: Rich) -> list[str]:
    return [node.user_id for node in text.nodes if isinstance(node, Mention)]
