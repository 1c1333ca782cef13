"""The Discord client: interactions in, the core's replies out, within Discord's deadline.

Every interaction gets its first response within Discord's 3 seconds. The core usually
answers in milliseconds, and then the answer *is* the first response (an ephemeral
notice, the pressed message edited, the command's reply); when it has not answered
after ``defer_after_s`` the interaction is deferred and the answer follows as an edit or
a follow-up. A member's private view — refusals, notices on their presses, their own
board (``Reply.private``) — is ephemeral, and ``Reply.update`` edits the pressed message.

Everything else — table messages, turns and reminders by DM, final scores — is queued
in the shared outbox (``adapters.delivery``, Discord's side in ``delivery``) and sent by
the sender loop of any worker on the same Redis; the core's owed effects are
acknowledged only after queuing, so a crash delays messages and never drops them.
Slash commands come from the command schema (``commands``); admin rights are the core's
question (``admins``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

import discord
from discord import app_commands

from adapters.delivery import Courier, Outbox, PlatformLimits, into, platform_windows
from adapters.delivery import Sender as DeliverySender
from adapters.delivery.handling import hand_over, handle_press
from adapters.discord.admins import DiscordAdmins, moderates
from adapters.discord.commands import Invocation, completion_kind, invoked, typed
from adapters.discord.commands_sync import sync_once
from adapters.discord.components import BUTTON_PREFIX, DYNAMIC_ITEMS, SELECT_PREFIX
from adapters.discord.delivery import LIMITS, DiscordPlatform
from adapters.discord.ids import chat_key, parse_id, user_key
from adapters.discord.render import Rendered, build_view, markdown, render
from adapters.discord.texts import say
from bot.app import Campfire
from bot.games import manifests
from bot.i18n import Lang, normalize_lang
from bot.identity import Chat, User
from bot.storage import StoreUnavailable
from bot.storage.ports import ScriptPart
from bot.ui.markup import Mention, Rich, Text, text
from bot.ui.message import Message, Outgoing, Reply, ToChat, ToUser

log = logging.getLogger(__name__)
AUTOCOMPLETE_MAX = 25
Choices = list[app_commands.Choice[str]]
NO_DM_ASKED_FOR = timedelta(days=60)


@dataclass(frozen=True)
class DiscordOptions:
    """How the client behaves (tests shorten nothing here: the deadline is Discord's)."""

    # Defer an interaction the core has not answered after this long (Discord allows 3 s
    # for the first response, and the network takes its share).
    defer_after_s: float = 1.5
    # Sync the command tree when its hash changed since the last sync (once per deploy).
    sync_commands: bool = True
    # The delivery layer's patience (``adapters.delivery.sender.Policy``).
    hold_chat_s: float = 30.0
    picture_attempts: int = 3
    picture_retry_s: float = 2.0
    picture_pause_s: float = 60.0
    # Run this client's sender loop (a worker that only answers interactions may not).
    run_sender: bool = True
    # Discord's rate windows (tests lift them: the simulator keeps none).
    limits: PlatformLimits = LIMITS


def intents() -> discord.Intents:
    """Only what the bot needs: guilds (channels, threads) and DMs; nothing privileged
    (no message content, no member list): everything comes as interactions."""
    wanted = discord.Intents.none()
    wanted.guilds = True
    wanted.dm_messages = True
    return wanted


def chat_of(interaction: discord.Interaction[Any]) -> Chat:
    """The Campfire chat of an interaction: its channel (a thread is a channel)."""
    channel = interaction.channel
    title = getattr(channel, "name", "") or ""
    return Chat(id=chat_key(interaction.channel_id or 0), private=interaction.guild_id is None,
                title=str(title))


def user_of(interaction: discord.Interaction[Any]) -> User:
    """The Campfire user of an interaction, with the rights its channel permissions
    report (``admins``: Manage Messages, or the server's administrators); the core
    cleans the name."""
    member = interaction.user
    admin = interaction.guild_id is not None and moderates(interaction.permissions)
    return User(id=user_key(member.id),
                name=member.display_name,
                lang=str(interaction.locale), is_admin=bool(admin))


def lang_of(interaction: discord.Interaction[Any]) -> Lang:
    """The catalog language of the member's client."""
    return normalize_lang(str(interaction.locale), default="en")


class CampfireClient(discord.AutoShardedClient):
    """The bot on Discord: one per process, any number of shards and workers."""

    def __init__(self, app: Campfire, redis: Any, key_prefix: str,
                 options: DiscordOptions | None = None, **kwargs: Any) -> None:
        """Wire the core and Redis (kept messages, the command tree's hash)."""
        kwargs.setdefault("intents", intents())
        # Nobody is pinged by the bot's messages except where it says so (a closed DM).
        kwargs.setdefault("allowed_mentions", discord.AllowedMentions.none())
        super().__init__(**kwargs)
        self.app = app
        self.options = options or DiscordOptions()
        self.redis = redis
        self.key_prefix = key_prefix
        # Rights are the core's question (``AdminPort``); other platforms' chats keep theirs.
        previous = app.sv.admins
        app.sv.admins = DiscordAdmins(self, previous.fallback if isinstance(
            previous, DiscordAdmins) else previous)
        self.platform = DiscordPlatform(self, redis, key_prefix, self.options.limits,
                                        metrics=app.sv.metrics)
        self.outbox = Outbox(redis, key_prefix, platform=self.platform.name,
                             limits=platform_windows(self.platform),
                             global_per_second=self.platform.limits.global_per_second)
        self.sender = DeliverySender(self.outbox, Courier(self.platform), self.platform,
                                     self.options, unreachable=self.unreachable,
                                     clock=time.time, reach=self.app,
                                     metrics=app.sv.metrics)
        self._stop = asyncio.Event()
        self._sending: asyncio.Task[None] | None = None
        self.synced: bool | None = None

    async def setup_hook(self) -> None:
        """Register the buttons' and selects' templates (they work after any restart),
        and sync the commands when they changed."""
        self.add_dynamic_items(*DYNAMIC_ITEMS)
        if self.options.run_sender:
            self._sending = asyncio.create_task(self.sender.run(self._stop), name="dc sender")
        if self.options.sync_commands and self.application_id is not None:
            self.synced = await sync_once(self.http, self.application_id, self.redis,
                                          self.key_prefix)

    # ------------------------------------------------------------------ presses

    async def on_token(self, interaction: discord.Interaction[Any], token: str) -> None:
        """A button or select carrying ``token`` (``adapters.delivery.handling``)."""
        await handle_press(self.app, _PressOnDiscord(self, interaction), chat_of(interaction),
                           user_of(interaction), token)

    async def on_interaction(self, interaction: discord.Interaction[Any]) -> None:
        """A component interaction carrying our prefix whose message does not show that
        component (a client showing an outdated message, or a tampered one): discord.py
        drops those, so it is handed to the core here, which judges its token like any
        other. Everything the message does show goes through the dynamic items. Slash
        commands and their autocomplete are read from the schema's payload here too."""
        if interaction.type in (discord.InteractionType.application_command,
                                discord.InteractionType.autocomplete):
            await self._on_slash(interaction)
            return
        if interaction.type is not discord.InteractionType.component:
            return
        data: Any = interaction.data or {}
        custom_id = str(data.get("custom_id", ""))
        if not custom_id.startswith((BUTTON_PREFIX, SELECT_PREFIX)):
            return
        if interaction.message is not None and _shows(interaction.message, custom_id):
            return
        values = data.get("values") or [""]
        token = (custom_id.removeprefix(BUTTON_PREFIX) if custom_id.startswith(BUTTON_PREFIX)
                 else str(values[0]))
        await self.on_token(interaction, token)

    async def _wait_or_defer(self, interaction: discord.Interaction[Any],
                             work: asyncio.Future[Reply], *, thinking: bool = False) -> bool:
        """Wait for the core up to ``defer_after_s``; then defer. True when deferred."""
        done, _ = await asyncio.wait({work}, timeout=self.options.defer_after_s)
        if done:
            return False
        if thinking:
            await interaction.response.defer(thinking=True)
        else:
            await interaction.response.defer()
        return True

    async def _answer_press(self, interaction: discord.Interaction[Any], reply: Reply,
                            deferred: bool) -> None:
        """The press's answer: the pressed message updated (a page turned) or a notice
        for the presser alone (every other message was queued before: ``_PressOnDiscord``)."""
        if reply.update is not None and interaction.message is not None \
                and not interaction.response.is_done():
            await _edit_pressed(interaction)(render(reply.update))
        notice = _notice(reply)
        if notice is not None:
            await self._ephemeral(interaction, notice, build_view(reply.answer_choices))
        if reply.private is not None:
            await self._ephemeral_message(interaction, reply.private.message)
        if not interaction.response.is_done():
            await interaction.response.defer()  # the table message is edited by the sender
        del deferred

    async def queue(self, items: list[Outgoing]) -> None:
        """Hand messages to the outbox (every worker's sender may deliver them)."""
        if items:
            await self.outbox.put_many(items)

    @staticmethod
    async def _ephemeral(interaction: discord.Interaction[Any], content: str,
                         view: discord.ui.View | None = None, **kwargs: Any) -> None:
        """Something only the member who acted sees."""
        if view is not None:
            kwargs["view"] = view
        if interaction.response.is_done():
            await interaction.followup.send(content, ephemeral=True, **kwargs)
        else:
            await interaction.response.send_message(content, ephemeral=True, **kwargs)

    async def _ephemeral_message(self, interaction: discord.Interaction[Any],
                                 message: Message) -> None:
        kwargs = render(message).send_kwargs()
        content = kwargs.pop("content") or "\u200b"
        await self._ephemeral(interaction, content, **kwargs)

    # ------------------------------------------------------------------ commands

    async def _on_slash(self, interaction: discord.Interaction[Any]) -> None:
        """A slash command or an autocomplete request, read from the schema's payload."""
        found = invoked(dict(interaction.data or {}))
        if interaction.type is discord.InteractionType.autocomplete:
            choices = await self.complete(interaction, found) if found else []
            await interaction.response.autocomplete(choices)
            return
        if found is None:
            await interaction.response.send_message(
                self.app.sv.t(lang_of(interaction), "err.internal"), ephemeral=True)
            return
        await self.on_command(interaction, found)

    async def complete(self, interaction: discord.Interaction[Any],
                       found: Invocation) -> Choices:
        """The choices for the option being typed."""
        kind = completion_kind(found)
        if kind == "game":
            return await self.complete_games(interaction, found.typed)
        if kind == "table":
            return await self.complete_tables(interaction, found.typed)
        if kind == "topic":
            game = found.args.get("game")
            return await self.complete_topics(interaction, found.typed,
                                              game if isinstance(game, str) else None)
        return []

    async def on_command(self, interaction: discord.Interaction[Any],
                         found: Invocation) -> None:
        """A slash command, handed to the core as its typed command."""
        chat, user = chat_of(interaction), user_of(interaction)
        opened_in: discord.Thread | None = None
        if found.extra.get("thread") and not chat.private:
            opened_in = await self._open_thread(interaction, str(found.args.get("game", "")))
            if opened_in is not None:
                chat = Chat(id=chat_key(opened_in.id), title=opened_in.name)
        sent_at = interaction.created_at.timestamp()
        work = asyncio.ensure_future(self.app.on_command(chat, user, found.command, found.args,
                                                         sent_at=sent_at))
        deferred = interaction.response.is_done() or await self._wait_or_defer(
            interaction, work, thinking=True)
        try:
            reply = await work
        except Exception:
            log.exception("command %r failed (channel %s, user %s)", found.command, chat.id,
                          user.id)
            reply = Reply(answer=self.app.sv.t(lang_of(interaction), "err.internal"), alert=True)

        async def answer(done: Reply, settle: ScriptPart | None) -> bool:
            del settle  # Discord acknowledges instead
            await self._answer_command(interaction, done, chat, user, deferred, opened_in)
            return True

        await hand_over(self.app, reply, answer)

    async def _open_thread(self, interaction: discord.Interaction[Any],
                           game: str) -> discord.Thread | None:
        channel = interaction.channel
        lang = lang_of(interaction)
        title = self.app.sv.presenter.game_title(lang, game) if game in manifests() else game or "?"
        if not isinstance(channel, discord.TextChannel):
            return None
        await interaction.response.defer(thinking=True)
        try:
            return await channel.create_thread(
                name=say(lang, "thread_name", game=title)[:100],
                type=discord.ChannelType.public_thread)
        except discord.HTTPException as exc:
            log.warning("opening a thread in %s failed (HTTP %s)", channel.id, exc.status)
            await interaction.followup.send(say(lang, "no_thread"), ephemeral=True)
            return None

    async def _answer_command(self, interaction: discord.Interaction[Any], reply: Reply,
                              chat: Chat, user: User, deferred: bool,
                              opened_in: discord.Thread | None) -> None:
        """The command's answer: its reply in the channel (a refusal, or anything in a
        DM, only to the member), the member's private part ephemeral, then the rest."""
        items = list(reply.out)
        # What is the member's alone (their board, their decision) the core hands over
        # as the private part: ephemeral here, where the command was typed.
        private = [reply.private.message] if reply.private is not None else []
        answered = False
        if opened_in is not None:
            text = say(lang_of(interaction), "thread_opened", thread=opened_in.mention)
            await interaction.followup.send(text)
            answered = True
        notice = _notice(reply)
        if notice is not None:
            await self._respond(interaction, notice, view=build_view(reply.answer_choices),
                                ephemeral=reply.alert or chat.private, deferred=deferred)
            answered = True
        for message in private:
            await self._ephemeral_message(interaction, message)
            answered = True
        if not answered and items and _here(items[0], chat) and items[0].message.slot is None:
            # A one-off answer (a rules topic, a listing) is the command's response; a
            # table's message goes through the outbox, which keeps where it is.
            first = items.pop(0)
            await self._respond_rendered(interaction, render(first.message))
            answered = True
        await self.queue(items)
        if not answered:
            await self._respond(interaction, "✓", ephemeral=True, deferred=deferred)

    async def _respond(self, interaction: discord.Interaction[Any], content: str, *,
                       ephemeral: bool, deferred: bool, **kwargs: Any) -> None:
        kwargs = {k: v for k, v in kwargs.items() if v is not None}
        if not interaction.response.is_done():
            await interaction.response.send_message(content, ephemeral=ephemeral, **kwargs)
            return
        if deferred and not ephemeral and not getattr(interaction, "_cf_used", False):
            interaction._cf_used = True  # type: ignore[attr-defined]
            await interaction.edit_original_response(content=content, **_edit_args(kwargs))
            return
        await interaction.followup.send(content, ephemeral=ephemeral, **kwargs)

    @staticmethod
    async def _respond_rendered(interaction: discord.Interaction[Any],
                                rendered: Rendered) -> discord.Message:
        kwargs = rendered.send_kwargs()
        if not interaction.response.is_done():
            await interaction.response.send_message(**kwargs)
            return await interaction.original_response()
        return await interaction.followup.send(wait=True, **kwargs)

    # ------------------------------------------------------------------ autocomplete

    async def complete_games(self, interaction: discord.Interaction[Any],
                             current: str) -> Choices:
        """Hosted games whose name or title starts with (or contains) what is typed."""
        lang = lang_of(interaction)
        typed = current.strip().lower()
        out = []
        for name in manifests():
            title = self.app.sv.presenter.game_title(lang, name)
            if not typed or typed in name.lower() or typed in title.lower():
                out.append(app_commands.Choice(name=title[:100], value=name))
        return out[:AUTOCOMPLETE_MAX]

    async def complete_tables(self, interaction: discord.Interaction[Any],
                              current: str) -> Choices:
        """Tables of this channel and the member's own, not over."""
        lang = lang_of(interaction)
        chat, user = chat_of(interaction), user_of(interaction)
        try:
            found = {t.table_id: t for t in await self.app.sv.store.tables_of_user(user.id)}
            if not chat.private:
                found.update({t.table_id: t for t in
                              await self.app.sv.store.tables_in_chat(chat.id)})
        except StoreUnavailable:
            return []
        typed = current.strip().lstrip("#").lower()
        out = []
        for table in found.values():
            if table.status.is_over or (typed and typed not in table.table_id):
                continue
            title = self.app.sv.presenter.game_title(lang, table.game)
            status = self.app.sv.catalog.plain(lang, f"status.{table.status.value}")
            out.append(app_commands.Choice(name=f"#{table.table_id} {title} ({status})"[:100],
                                           value=table.table_id))
        return out[:AUTOCOMPLETE_MAX]

    async def complete_topics(self, interaction: discord.Interaction[Any],
                              current: str, named: str | None = None) -> Choices:
        """Rules topics of the game ``named`` (or played here) that match what is typed."""
        lang = lang_of(interaction)
        games: list[str] = [named] if isinstance(named, str) and named in manifests() else []
        if not games:
            try:
                here = await self.app.sv.store.tables_in_chat(chat_of(interaction).id)
            except StoreUnavailable:
                here = []
            games = sorted({t.game for t in here if not t.status.is_over}) or list(manifests())
        out: Choices = []
        for game in games:
            for hit in self.app.sv.rules.lookup(game, current, lang, limit=AUTOCOMPLETE_MAX):
                out.append(app_commands.Choice(name=hit.title[:100], value=hit.title[:100]))
        return out[:AUTOCOMPLETE_MAX]

    # ------------------------------------------------------------------ due jobs

    async def run_due(self) -> None:
        """Reminders and time-outs due now, queued in the outbox as they come."""
        await self.app.on_due(emit=into(self.outbox))

    async def unreachable(self, item: Outgoing) -> Outgoing | None:
        """A member's DMs are closed: one mention in the table's channel asks them to
        open them, once per member and table."""
        if not isinstance(item.to, ToUser) or item.table is None:
            return None
        log.info("DMs closed for %s", item.to.user_id)
        if not await self.app.sv.once.first(f"dc:nodm:{item.to.user_id}:{item.table}",
                                            NO_DM_ASKED_FOR):
            return None
        try:
            record = await self.app.sv.store.get(item.table)
        except Exception:  # the table is gone: nobody to ask
            return None
        lang = self.app.sv.table_lang(record)
        before, _, after = say(lang, "open_dm", mention="\x00",
                               turn=typed("turn", lang)).partition("\x00")
        nodes = (*text(before).nodes, Mention(item.to.user_id, (Text("@"),)),
                 *text(after).nodes)
        return Outgoing(ToChat(record.chat_id), Message(Rich(nodes)), table=item.table)

    async def close(self) -> None:
        """Stop the sender (what it holds goes back to the outbox), then disconnect."""
        self._stop.set()
        if self._sending is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._sending, 5.0)
        await super().close()


class _PressOnDiscord:
    """An interaction in the press sequence (``adapters.delivery.handling``): deferred
    when the core is slow, its messages queued in the outbox, its answer the
    interaction's response (then acknowledged, in that order)."""

    answer_is_call = False

    def __init__(self, client: CampfireClient, interaction: discord.Interaction[Any]) -> None:
        """The interaction ``client`` received."""
        self.client, self.interaction = client, interaction
        self.lang: Lang = lang_of(interaction)
        self.deferred = False

    async def call(self, work: Awaitable[Reply]) -> Reply:
        """The core's reply; the interaction is deferred if it takes long (Discord
        wants a first response within 3 seconds)."""
        future = asyncio.ensure_future(work)
        self.deferred = await self.client._wait_or_defer(self.interaction, future)
        return await future

    async def deliver(self, reply: Reply, settle: ScriptPart | None) -> bool:
        """Queue the reply's messages (interactions come once: no update to mark)."""
        del settle  # Discord acknowledges instead
        await self.client.queue(reply.out)
        return True

    async def answer(self, reply: Reply) -> None:
        """Respond to the interaction."""
        await self.client._answer_press(self.interaction, reply, self.deferred)


def _shows(message: discord.Message, custom_id: str) -> bool:
    for row in message.components:
        for child in getattr(row, "children", ()):
            if getattr(child, "custom_id", None) == custom_id:
                return True
    return False


def _notice(reply: Reply) -> str | None:
    if reply.answer is None or not reply.answer.plain().strip():
        return None
    return markdown(reply.answer)


def _here(item: Outgoing, chat: Chat) -> bool:
    return isinstance(item.to, ToChat) and item.to.chat_id == chat.id


def _edit_args(kwargs: dict[str, Any]) -> dict[str, Any]:
    out = dict(kwargs)
    if "file" in out:
        out["attachments"] = [out.pop("file")]
    return out


def _edit_pressed(interaction: discord.Interaction[Any]) -> Any:
    async def edit(rendered: Rendered) -> int | None:
        if interaction.response.is_done() or interaction.message is None:
            return None
        await interaction.response.edit_message(**rendered.edit_kwargs())
        return interaction.message.id
    return edit


__all__ = ["CampfireClient", "DiscordOptions", "intents", "parse_id"]
