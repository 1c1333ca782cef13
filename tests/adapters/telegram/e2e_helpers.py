"""Driving our bot through FakeTelegram the way people in a chat would.

Users only type and tap what the fake shows them. The one look inside the bot is to
learn that it has finished reacting (no update waiting or in progress, every press
answered, outbox empty), so tests wait on facts instead of sleeping.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
import socket
import time
from collections import Counter
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any

import pytest

from adapters.telegram.service import RunningTelegram
from bot.i18n.catalog import default_catalog
from bot.storage import TableRecord
from tests.adapters.telegram.fake_api import (
    ApiCall,
    CallbackPress,
    FakeChat,
    FakeMessage,
    FakeTelegram,
    FakeUser,
)

BOT = "campfire_test_bot"
CATALOG = default_catalog()
#: Paging and stepping back never advance a game.
NAV_PREFIXES = ("‹", "›", "«", "↩")
#: Stone Age's tool toggles (English labels) flip a flag and can be pressed forever.
TOGGLE = re.compile(r"^(🛠 (Add tool|One-use tool) |✅ (Tool|One-use) \+)")
SEAT_LINE = re.compile(r"^(\d+)\. (.+)$", re.M)
SEND_METHODS = ("sendMessage", "sendPhoto")
#: ``start_bot(**overrides)`` (conftest): ``async with`` it to run our bot on the fake.
StartBot = Callable[..., contextlib.AbstractAsyncContextManager[RunningTelegram]]
EDIT_METHODS = ("editMessageText", "editMessageCaption", "editMessageMedia")


def en(code: str, **args: Any) -> str:
    """An English catalog text as plain text (what the fake stores)."""
    return CATALOG.plain("en", code, **args)


async def wait_until(
    predicate: Callable[[], Any], timeout: float = 10.0, what: str = "condition",
    every: float = 0.003,
) -> Any:
    """Poll ``predicate`` until it returns something truthy; return that."""
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout}s waiting for {what}")
        await asyncio.sleep(every)


class ManualClock:
    """Seconds that move only when a test says so; give the same one to the bot
    (``start_bot(clock=...)``) and to the fake (``FakeTelegram(clock=...)``) and rate
    windows, Telegram's waits and call times all follow it, whatever the machine's speed.
    Starts at the real time, so dates look real."""

    def __init__(self, start: float | None = None) -> None:
        self.now = time.time() if start is None else start

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        """Move on by ``seconds``."""
        self.now += seconds


def players(tg: FakeTelegram, *names: str, started: bool = True) -> list[FakeUser]:
    """Simulated users (English clients); ``started``: they have opened a private chat
    with the bot."""
    made = [tg.add_user(name, username=name.lower()) for name in names]
    if started:
        for user in made:
            tg.user_starts_bot(user)
    return made


def free_port() -> int:
    """A TCP port on loopback nobody listens on right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


# --------------------------------------------------------------------------- buttons


def datas(message: FakeMessage) -> list[str]:
    """The callback data of a message's buttons, in reading order."""
    return [d for _, d in FakeTelegram.keyboard(message) if d is not None]


def move_buttons(message: FakeMessage) -> list[tuple[str, str]]:
    """(label, data) of the move buttons (``m.`` tokens) on a message."""
    return [(label, d) for label, d in FakeTelegram.keyboard(message)
            if d is not None and d.startswith("m.")]


def token_field(data: str, index: int) -> str:
    """Field ``index`` of a token ``kind.table.f0.f1…mac`` (0 = kind, 1 = table)."""
    return data.split(".")[index]


def progress_button(message: FakeMessage) -> tuple[str, str] | None:
    """The first button that moves the game on: not paging, not back, not a tool toggle
    (always taking the first option would toggle a tool on and off forever)."""
    for label, data in move_buttons(message):
        if not label.startswith(NAV_PREFIXES) and not TOGGLE.match(label):
            return label, data
    return None


def all_callback_data(tg: FakeTelegram) -> list[str]:
    """Every callback_data the bot put on a keyboard, in every send and edit call."""
    found: list[str] = []
    for call in tg.calls:
        markup = call.params.get("reply_markup")
        if isinstance(markup, str):
            markup = json.loads(markup)
        if isinstance(markup, dict):
            for row in markup.get("inline_keyboard", []):
                found += [b["callback_data"] for b in row if "callback_data" in b]
    return found


# --------------------------------------------------------------------------- calls


def chat_calls(tg: FakeTelegram, methods: tuple[str, ...], chat: FakeChat | FakeUser,
               *, ok: bool = True) -> list[ApiCall]:
    """Calls of ``methods`` aimed at ``chat`` (only successful ones unless ``ok=False``)."""
    return [c for c in tg.calls if c.method in methods
            and str(c.params.get("chat_id")) == str(chat.id) and (c.ok or not ok)]


# --------------------------------------------------------------------------- waiting


def updates_handled(running: RunningTelegram, tg: FakeTelegram) -> bool:
    """No update waiting at the fake or in PTB, none in progress, every press answered."""
    application = running.application
    return (
        not tg.pending_updates
        and application.update_queue.empty()
        and application.update_processor.current_concurrent_updates == 0
        and not tg.unanswered_callbacks
    )


async def bot_is_idle(running: RunningTelegram, tg: FakeTelegram) -> bool:
    """Every update handled, no due round running or owed (an AI's move), nothing left
    in the outbox."""
    return updates_handled(running, tg) and running.app.due_idle \
        and await running.outbox.pending() == 0


async def settle(running: RunningTelegram, tg: FakeTelegram, timeout: float = 10.0) -> None:
    """Wait until the bot is idle twice in a row, a few milliseconds apart."""
    deadline = time.monotonic() + timeout
    streak = 0
    while streak < 2:
        if time.monotonic() > deadline:
            raise AssertionError(
                f"the bot did not settle in {timeout}s: pending={tg.pending_updates!r} "
                f"unanswered={[p.data for p in tg.unanswered_callbacks]} "
                f"outbox={await running.outbox.pending()}")
        streak = streak + 1 if await bot_is_idle(running, tg) else 0
        await asyncio.sleep(0.002)


async def drain(running: RunningTelegram, tg: FakeTelegram, clock: ManualClock, step: float,
                timeout: float = 10.0) -> None:
    """``settle`` for a bot on a ``ManualClock``: whenever all the bot has left to send
    waits for a time to come (every update handled, nothing in flight or ready, every
    queued item put aside until later), move ``clock`` on by ``step``; return once the
    bot is idle. ``timeout`` (real seconds) only guards against a hang."""
    async def only_time_helps() -> bool:
        pending = await running.outbox.pending()
        if not (updates_handled(running, tg) and pending > 0
                and await running.outbox.waiting() == pending):
            return False
        # Put aside, and not yet due: an item whose time has come waits for the sender,
        # and moving the clock on before it took the item would send it late.
        wake = await running.outbox.next_wake()
        return wake is not None and wake > clock()

    deadline = time.monotonic() + timeout
    streak = 0  # like ``settle``: a fact seen twice, a few milliseconds apart
    while not await bot_is_idle(running, tg):
        if time.monotonic() > deadline:
            raise AssertionError(
                f"the bot did not drain in {timeout}s: pending={tg.pending_updates!r} "
                f"outbox={await running.outbox.pending()}")
        streak = streak + 1 if await only_time_helps() else 0
        if streak == 2:
            clock.advance(step)
            streak = 0
        await asyncio.sleep(0.002)
    await settle(running, tg, timeout)


async def press(
    running: RunningTelegram, tg: FakeTelegram, user: FakeUser, message: FakeMessage,
    data: str, *, strict: bool = True, timeout: float = 10.0,
) -> CallbackPress:
    """A user taps a button; returns once the press was answered and the bot settled."""
    query = tg.user_presses(user, message, data, strict=strict)
    await wait_until(lambda: query.answered, timeout, f"an answer to {data!r}")
    await settle(running, tg, timeout)
    return query


# --------------------------------------------------------------------------- a table


@dataclass
class GroupTable:
    """A table opened in a group (or a forum topic), driven through what users see."""

    tg: FakeTelegram
    running: RunningTelegram
    group: FakeChat
    players: list[FakeUser]
    thread: int | None = None
    table_id: str = ""
    message_id: int = 0
    seats: list[FakeUser] = field(default_factory=list)

    async def say(self, user: FakeUser, text: str) -> FakeMessage:
        """A user writes in the group (in the topic, if any); waits until the bot settled."""
        message = self.tg.user_says(user, self.group, text, thread_id=self.thread)
        await settle(self.running, self.tg)
        return message

    async def press(self, user: FakeUser, message: FakeMessage, data: str,
                    **kwargs: Any) -> CallbackPress:
        """``press`` on this table's bot."""
        return await press(self.running, self.tg, user, message, data, **kwargs)

    def new_messages(self, chat: FakeChat | FakeUser, before: int) -> list[FakeMessage]:
        """The bot's messages in ``chat`` after the first ``before``."""
        return self.tg.messages_in(chat)[before:]

    async def open_lobby(self, command: str = "/new stone_age") -> FakeMessage:
        """The first player opens the table; the others join by button."""
        creator, *others = self.players
        before = len(self.tg.messages_in(self.group))
        await self.say(creator, command)
        lobby = next(m for m in self.new_messages(self.group, before)
                     if any(d.startswith("l.") for d in datas(m)))
        self.message_id = lobby.message_id
        self.table_id = token_field(datas(lobby)[0], 1)
        for user in others:
            query = await self.press(user, lobby, self.button(lobby, "join"))
            assert query.answer is not None and not query.answer.show_alert
        return lobby

    async def play_through(self, max_presses: int, dm_after: str | None = None
                           ) -> Counter[str]:
        """Press the next button until none is left, every other press made from the
        player's private prompt where they have one (counted over all presses, or over
        those made in ``dm_after``); each press must be answered without an alert.
        The presses by where they were made ("group", "dm")."""
        where: Counter[str] = Counter()
        while (choice := ((where[dm_after] if dm_after else where.total()) % 2
                          and self.next_press(from_dm=True))
               or self.next_press()) is not None:
            assert where.total() < max_presses, "the game did not end"
            user, message, data = choice
            query = await self.press(user, message, data)
            assert query.answer is not None and not query.answer.show_alert, query.answer
            where["group" if message.chat is self.group else "dm"] += 1
        return where

    async def open(self, command: str = "/new stone_age") -> str:
        """Lobby by buttons, then the creator presses Start; learns the seat order from
        the announcement."""
        lobby = await self.open_lobby(command)
        before = len(self.tg.messages_in(self.group))
        query = await self.press(self.players[0], lobby, self.button(lobby, "start"))
        assert query.answer is not None and not query.answer.show_alert
        announce = next(m for m in self.new_messages(self.group, before)
                        if m.text and m.text.startswith("🎲"))
        by_name = {u.first_name: u for u in self.players}
        order = sorted((int(n), name.strip()) for n, name in SEAT_LINE.findall(announce.text or ""))
        self.seats = [by_name[name] for _, name in order]
        assert sorted(u.id for u in self.seats) == sorted(u.id for u in self.players)
        return self.table_id

    @staticmethod
    def button(message: FakeMessage, verb: str) -> str:
        """The lobby button for ``verb`` (join, leave, start, cancel)."""
        return next(d for d in datas(message) if d.startswith("l.") and f".{verb}." in d)

    @property
    def table_message(self) -> FakeMessage:
        """The table's own message as the group sees it now."""
        return self.tg.message(self.group, self.message_id)

    async def record(self) -> TableRecord:
        """The table as stored (the core's truth)."""
        return await self.running.app.sv.store.get(self.table_id)

    def dm_prompt(self, user: FakeUser) -> FakeMessage | None:
        """The user's newest private message with live move buttons for this table."""
        # Newest first straight from the chat (``messages_in`` would copy it all first:
        # the bench's load asks this before every press).
        for message in reversed(self.tg.chat(user).messages):
            if not message.from_bot or message.deleted:
                continue
            buttons = move_buttons(message)
            if buttons and token_field(buttons[0][1], 1) == self.table_id:
                return message
        return None

    def next_press(self, *, from_dm: bool = False) -> tuple[FakeUser, FakeMessage, str] | None:
        """Who presses what now: the table message's buttons if it has any (they belong to
        the one player asked), else (or with ``from_dm``) a player's private prompt."""
        if not from_dm:
            table = self.table_message
            choice = progress_button(table)
            if choice is not None:
                return self.seats[int(token_field(choice[1], 3))], table, choice[1]
        for user in self.seats:
            message = self.dm_prompt(user)
            if message is not None and (choice := progress_button(message)) is not None:
                return user, message, choice[1]
        return None

    async def play(self, moves: int, *, from_dm: bool = False) -> int:
        """Make ``moves`` moves (fewer if nobody can move); returns how many were made."""
        for made in range(moves):
            choice = self.next_press(from_dm=from_dm)
            if choice is None:
                return made
            query = await self.press(*choice)
            assert query.answer is not None and not query.answer.show_alert, query.answer
        return moves


@asynccontextmanager
async def two_player_table(tg: FakeTelegram, start_bot: StartBot, started: bool = False,
                           options: str = "", **bot: Any) -> AsyncIterator[GroupTable]:
    """Anna and Boris in "Game night" (``started``: with the bot opened), a running bot
    (``bot``: its settings), and a two-player Stone Age table they opened (with
    ``options``) and started."""
    anna, boris = players(tg, "Anna", "Boris", started=started)
    group = tg.add_group("Game night", members=[anna, boris])
    async with start_bot(**bot) as running:
        table = GroupTable(tg, running, group, [anna, boris])
        await table.open(f"/new stone_age 2-2 {options}".strip())
        yield table


def fail_first(monkeypatch: pytest.MonkeyPatch, owner: object, method: str,
               failures: list[Exception]) -> None:
    """``owner.method`` (a coroutine) raises each of ``failures`` in turn (taking it
    off the list), then works again."""
    original = getattr(owner, method)

    async def failing(*args: Any) -> Any:
        if failures:
            raise failures.pop()
        return await original(*args)

    monkeypatch.setattr(owner, method, failing)
