"""Everything a handler needs, passed explicitly: ports, texts, clock and randomness."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any, Protocol

from pydantic import BaseModel

from bot.i18n import Lang, Markup, normalize_lang
from bot.i18n.catalog import Catalog
from bot.identity import Chat, User
from bot.metrics import Metrics, NoMetrics
from bot.rules import RulesLibrary
from bot.storage import (
    GameStorePort,
    JobQueuePort,
    OncePort,
    PrefsPort,
    ScriptPart,
    StatsPort,
    TableNotFound,
    TableRecord,
)
from bot.table.access import AdminPort, ReportedAdmins
from bot.table.settings import options_of
from bot.table.thinking import Thinker
from bot.table.turns import load_state
from bot.ui.present import Presenter
from bot.ui.tokens import TokenSigner
from engine.core.prompts import Prompt
from engine.registry import get_game


class PageLinks(Protocol):
    """Makes a user's own link to a table's page (``adapters.web``): signed for them,
    expiring."""

    def link(self, user_id: str, name: str, table_id: str) -> str:
        """The address of ``table_id``'s page that proves ``user_id`` (called ``name``)."""
        ...


CACHE_ENTRIES = 256  # only the versions in play right now; more just slows the GC


@dataclass
class Services:
    """The bot's collaborators. ``now`` returns unix seconds; tests pass a fake clock."""

    store: GameStorePort
    jobs: JobQueuePort
    once: OncePort
    prefs: PrefsPort
    stats: StatsPort
    signer: TokenSigner
    catalog: Catalog
    presenter: Presenter
    rules: RulesLibrary
    now: Callable[[], float]
    rng: random.Random = field(default_factory=random.SystemRandom)
    # Who administers a chat (asked only when an action needs it: see ``bot.table.access``).
    admins: AdminPort = field(default_factory=ReportedAdmins)
    pictures: bool = True
    worker_id: str = "worker"
    bot_name: str | None = None
    # Called at named points of the work a move owes ("after_commit", "before_archive",
    # "mid_reminder"); crash-injection tests make it raise there. Does nothing otherwise.
    fault: Callable[[str], None] = field(default=lambda point: None)
    # Where AI players decide (a process pool, started on first use).
    thinker: Thinker = field(default_factory=Thinker)
    # Set when a job is due at once (the autopilot's next move): the adapter's due loop
    # runs its next round now instead of on its beat (``Campfire.due_soon``).
    due_soon: asyncio.Event = field(default_factory=asyncio.Event)
    # Where a user's link to a table's page comes from, while the pages are served
    # (``serve_pages``); None: no page, and no button to open one.
    pages: PageLinks | None = None
    # Where the operator's figures go (``adapters.ops`` keeps them); by default nowhere.
    # The presenter times its pictures into its own reference to the same port.
    metrics: Metrics = field(default_factory=NoMetrics)
    # Per committed (table, version): its prompts and a read-only state. A version is
    # written once, so these never go stale; they only save repeated work in a press.
    _prompts: dict[tuple[str, int], list[Prompt]] = field(default_factory=dict)
    _states: dict[tuple[str, int], BaseModel] = field(default_factory=dict)

    def _bounded(self, table: dict[tuple[str, int], Any]) -> None:
        if len(table) >= CACHE_ENTRIES:
            table.clear()

    def serve_pages(self, links: PageLinks) -> None:
        """The tables have pages from now on: their messages offer a button to open
        them, and a press of it answers with the presser's link."""
        self.pages = links
        self.presenter.pages = True

    def view_state(self, record: TableRecord) -> BaseModel:
        """The record's game state for reading only (never apply moves to it)."""
        key = (record.table_id, record.version)
        state = self._states.get(key)
        if state is None:
            self._bounded(self._states)
            state = self._states[key] = load_state(get_game(record.game), record)
        return state

    def prompts(self, record: TableRecord) -> list[Prompt]:
        """The open prompts of a stored record."""
        key = (record.table_id, record.version)
        found = self._prompts.get(key)
        if found is None:
            self._bounded(self._prompts)
            found = self._prompts[key] = get_game(record.game).pending(self.view_state(record))
        return found

    def remember(self, record: TableRecord, prompts: list[Prompt], state: BaseModel) -> None:
        """Note the prompts and the state of a record just committed (``state``: parsed
        from ``record.state`` or equal to it, and held by nobody who changes it)."""
        self._bounded(self._prompts)
        self._bounded(self._states)
        self._prompts[(record.table_id, record.version)] = prompts
        self._states[(record.table_id, record.version)] = state

    def wake_if_due(self, schedule: Iterable[tuple[str, datetime, Any]]) -> None:
        """Set ``due_soon`` if a job in ``schedule`` is due already (an AI's move)."""
        now = self.now()
        if any(due.timestamp() <= now for _, due, _ in schedule):
            self.due_soon.set()

    def t(self, lang: Lang, code: str, **args: Any) -> Markup:
        """A catalog text."""
        return self.catalog.t(lang, code, **args)

    async def user_lang(self, user: User) -> Lang:
        """A user's language: their own setting, else what their client reports."""
        chosen = await self.prefs.get_pref(f"user:{user.id}:lang")
        return normalize_lang(chosen or user.lang)

    async def chat_lang(self, chat: Chat, user: User) -> Lang:
        """A chat's language, falling back to the user's."""
        chosen = await self.prefs.get_pref(f"chat:{chat.id}:lang")
        if chosen:
            return normalize_lang(chosen)
        return await self.user_lang(user)

    async def seat_lang(self, record: TableRecord, seat: int) -> Lang:
        """The language for private messages to a seat's player."""
        chosen = await self.prefs.get_pref(f"user:{record.seats[seat]}:lang")
        return normalize_lang(chosen, default=options_of(record).lang)

    def table_lang(self, record: TableRecord) -> Lang:
        """The language of a table's own messages (chosen when it was opened)."""
        return options_of(record).lang

    async def about(self, ctx: Ctx, record: TableRecord) -> Ctx:
        """``ctx`` for words about ``record``: a table speaks its own language in its
        chat; in a private chat, the user's own choice of language if they made one
        (as their private prompts do), else the table's."""
        lang = self.table_lang(record)
        if ctx.chat.private:
            chosen = await self.prefs.get_pref(f"user:{ctx.user.id}:lang")
            lang = normalize_lang(chosen, default=lang)
        return replace(ctx, lang=lang) if lang != ctx.lang else ctx

    async def about_chat(self, ctx: Ctx) -> Ctx:
        """``ctx`` for words about the games of a group chat (its commands, its rules,
        its list of tables): the language its active tables speak, when they all speak
        one; else ``ctx`` as it is (and always in a private chat: the user's own)."""
        if ctx.chat.private:
            return ctx
        langs = {self.table_lang(t) for t in await self.store.tables_in_chat(ctx.chat.id)
                 if not t.status.is_over}
        return replace(ctx, lang=langs.pop()) if len(langs) == 1 else ctx

    async def seen_table(self, table_id: str) -> TableRecord | None:
        """The table ``table_id`` as last seen here, else as read (None: it is gone);
        for what never changes in a table (its language, its game, its chat's platform)."""
        record = self.store.last_seen(table_id)
        if record is None:
            try:
                record = await self.store.get(table_id)
            except TableNotFound:
                return None
        return record


@dataclass(frozen=True)
class Ctx:
    """Who acts, where, and in which language to answer them."""

    chat: Chat
    user: User
    lang: Lang
    # When the platform says the user sent this (unix seconds), if it says: a typed move
    # sent before the seat's last move was saved was made against an older table.
    sent_at: float | None = None
    # What the platform adapter wants checked in the same step as the move's commit
    # (``GameStorePort.commit``'s guard: a platform may claim the press's update there).
    guard: ScriptPart | None = None
