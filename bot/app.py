"""Campfire's application core: what every adapter calls.

Its entry points — a typed text, a command delivered with typed arguments, a button
press, the periodic run of due jobs, and a chat that changed its id — each return
platform-free messages. A storage outage is
answered plainly and leaves everything as it was. Every user, chat and text is cleaned
as it comes in (``bot.identity``): whatever a platform lets through, the core stores
and shows only what it can.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Mapping

from bot.i18n import normalize_lang
from bot.identity import Chat, User, arrived, clean_text
from bot.input.command_schema import BadArgs, command_words
from bot.input.commands import COMMANDS, Command, parse_command
from bot.input.handlers import run_command
from bot.input.presses import press
from bot.input.usage import usage_reply
from bot.reach import close_dm, dm_closed, heard_privately
from bot.services import Ctx, Services
from bot.storage import ScriptPart, StoreUnavailable
from bot.table.chat_moves import move_chat
from bot.table.due import Emit, run_due
from bot.ui.message import Outgoing, Reply
from bot.ui.tokens import TokenKind, kind_of

log = logging.getLogger(__name__)


class Campfire:
    """The bot, independent of any chat platform."""

    def __init__(self, services: Services) -> None:
        """Wrap the services every handler uses."""
        self.sv = services
        self._due_rounds = 0  # due rounds running now (``due_idle``)

    async def _ctx(self, chat: Chat, user: User, sent_at: float | None = None,
                   guard: ScriptPart | None = None) -> Ctx:
        if chat.private:
            await heard_privately(self.sv.prefs, user.id)
        return Ctx(chat=chat, user=user, lang=await self.sv.chat_lang(chat, user),
                   sent_at=sent_at, guard=guard)

    def _unavailable(self, user: User) -> Reply:
        lang = normalize_lang(user.lang)
        return Reply(answer=self.sv.t(lang, "err.store_unavailable"), alert=True)

    async def on_text(
        self, chat: Chat, user: User, text: str, sent_at: float | None = None
    ) -> Reply:
        """A message typed in a chat; only commands get an answer. ``sent_at`` is when
        the platform says it was sent (unix seconds), where it says so."""
        chat, user = arrived(chat, user)
        command = parse_command(clean_text(text), bot_name=self.sv.bot_name, bare=chat.private)
        if command is None:
            return Reply()
        try:
            return await run_command(self.sv, await self._ctx(chat, user, sent_at), command)
        except StoreUnavailable:
            log.warning("storage unavailable while handling %s", command.name)
            return self._unavailable(user)

    async def on_command(
        self, chat: Chat, user: User, name: str, args: Mapping[str, object],
        sent_at: float | None = None,
    ) -> Reply:
        """A command a platform delivered already parsed (a slash command): ``name`` is
        canonical and ``args`` holds typed values by the schema's argument names
        (``bot.input.command_schema``). Values that do not fit are answered with the
        command's usage line, like a mistyped command."""
        chat, user = arrived(chat, user)
        args = {key: clean_text(value) if isinstance(value, str) else value
                for key, value in args.items()}
        try:
            words = command_words(name, args)
        except BadArgs as exc:
            log.info("command %s refused: %s", name, exc)
            ctx = await self._ctx(chat, user, sent_at)
            if name not in COMMANDS:
                return Reply(answer=self.sv.t(ctx.lang, "cmd.unknown", command=name))
            return usage_reply(self.sv, ctx, name)
        command = Command(name=name, args=words, known=True)
        try:
            return await run_command(self.sv, await self._ctx(chat, user, sent_at), command)
        except StoreUnavailable:
            log.warning("storage unavailable while handling %s", name)
            return self._unavailable(user)

    async def on_press(self, chat: Chat, user: User, token: str,
                       guard: ScriptPart | None = None) -> Reply:
        """A button press carrying ``token``. ``guard`` (for a move: ``is_move``) goes
        into the move's commit (``GameStorePort.commit``); ``UpdateTaken`` propagates."""
        chat, user = arrived(chat, user)
        try:
            return await press(self.sv, await self._ctx(chat, user, guard=guard),
                               clean_text(token))
        except StoreUnavailable:
            log.warning("storage unavailable while handling a press")
            return self._unavailable(user)

    @staticmethod
    def is_move(token: str) -> bool:
        """Does a press of ``token`` write nothing before its move's commit? Then the
        commit may claim the press's platform update (``on_press``'s ``guard``) instead
        of a write of its own beforehand: a round trip less per move."""
        return kind_of(token) == TokenKind.MOVE

    async def dm_closed(self, user_id: str) -> bool:
        """Are private messages to ``user_id`` refused (``bot.reach``)? A delivery layer
        then drops what it would send them unasked."""
        return await dm_closed(self.sv.prefs, user_id)

    async def dm_refused(self, user_id: str) -> None:
        """A platform refused a private message to ``user_id`` for good (``bot.reach``)."""
        await close_dm(self.sv.prefs, user_id)

    async def acknowledge(self, reply: Reply) -> None:
        """The adapter has handed ``reply.out`` over: the tables it settles owe nothing
        more, and their reminders and clocks change. Without this call (a crash) a
        worker repairs them once their grace is up."""
        for owed in reply.owed:
            try:
                await self.sv.store.settled(owed.table_id, owed.version, owed.jobs)
            except StoreUnavailable:
                log.warning("table %s: could not clear what it owes; it will be repaired",
                            owed.table_id)

    def handed_over(self, reply: Reply) -> None:
        """``reply`` is out and what it owes is written: if it owes a job due at once
        (the autopilot's next move), wake the due loop (``due_soon``) rather than let
        the move wait for the loop's beat."""
        for owed in reply.owed:
            self.sv.wake_if_due(owed.jobs.schedule)

    @property
    def due_soon(self) -> asyncio.Event:
        """Set when a due job should run now; an adapter's due loop waits on it beside
        its beat, and clears it before each round."""
        return self.sv.due_soon

    async def on_chat_moved(self, old_chat: str, new_chat: str) -> list[Outgoing]:
        """The platform gave a chat a new id: its tables follow (repeating is harmless).

        A storage outage propagates: the caller keeps the notice and tries again.
        """
        return await move_chat(self.sv, old_chat, new_chat)

    async def on_due(self, emit: Emit | None = None) -> list[Outgoing]:
        """Reminders, time-outs and AI moves that are due now (see ``run_due`` for
        ``emit``); a storage outage leaves the jobs not yet done waiting for the store."""
        self._due_rounds += 1
        try:
            return await run_due(self.sv, emit=emit)
        finally:
            self._due_rounds -= 1

    @property
    def due_idle(self) -> bool:
        """No due round is running here, and none is owed at once (``due_soon``): what
        this process owes an AI seat has been played."""
        return self._due_rounds == 0 and not self.sv.due_soon.is_set()
