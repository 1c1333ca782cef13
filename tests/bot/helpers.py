"""A small chat harness around ``Campfire``: users, chats, a fake clock and an inbox.

Every message the bot sends is kept: the latest one per (recipient, slot) in
``inbox``, everything in ``sent``. Tests press the buttons of those messages exactly
like a chat client would, and read the store to check what happened.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from redis.asyncio import Redis

from adapters.runtime import make_services
from adapters.store import DueJobs, GameStore, OnceFlags, Prefs, Storage
from adapters.store.stats_store import StatsStore
from adapters.telegram.render import TELEGRAM
from bot.app import Campfire
from bot.i18n import to_plain
from bot.identity import Chat, User
from bot.storage import LogEntry, TableRecord
from bot.table.thinking import Thinker
from bot.table.turns import load_state
from bot.ui.layout import Capabilities, lay_out
from bot.ui.markup import Rich
from bot.ui.message import Button, Message, Outgoing, Reply, ToChat, ToUser
from bot.ui.tokens import Token
from engine.core.prompts import Prompt
from engine.registry import get_game
from tests.conftest import TEST_AI_BUDGET_S

SECRET = b"campfire-core-tests-secret-0123456789"

ANNA = User(id="con:anna", name="Anna", lang="en")
BORIS = User(id="con:boris", name="Boris", lang="en")
CLARA = User(id="con:clara", name="Clara", lang="en")
DAN = User(id="con:dan", name="Dan", lang="en")
EVA = User(id="con:eva", name="Eva", lang="en")
FEDOR = User(id="con:fedor", name="Fedor", lang="en")
GALA = User(id="con:gala", name="Gala", lang="en")
PEOPLE = (ANNA, BORIS, CLARA, DAN, EVA, FEDOR, GALA)
USERS = {u.id: u for u in PEOPLE}

GROUP = Chat(id="con:g1", title="g1")
GROUP2 = Chat(id="con:g2", title="g2")


def storage_on(client: Redis, prefix: str, clock: Clock | None = None) -> Storage:
    """The store objects of one deployment (``prefix``) on an open client. With
    ``clock`` the game store reads the fake clock too (when follow-ups fall overdue)."""
    games = GameStore(client, prefix=prefix) if clock is None else GameStore(
        client, prefix=prefix, clock=lambda: datetime.fromtimestamp(clock(), UTC))
    return Storage(
        redis=client,
        games=games,
        jobs=DueJobs(client, prefix=prefix),
        once=OnceFlags(client, prefix=prefix),
        prefs=Prefs(client, prefix=prefix),
        stats=StatsStore(client, prefix=prefix),
        server=None,
    )


def build_app(
    storage: Storage, clock: Clock, *, pictures: bool = False, worker_id: str = "w1",
    bot_name: str | None = None, seed: int = 7,
) -> Campfire:
    """A Campfire over ``storage`` with the fake clock and a seeded random source."""
    # AI players decide in the test's own process: fast, and in step with the test.
    services = make_services(storage, SECRET, now=clock, pictures=pictures,
                             worker_id=worker_id, bot_name=bot_name,
                             thinker=Thinker(workers=0, budget_s=TEST_AI_BUDGET_S))
    services.rng = random.Random(seed)
    return Campfire(services)


def dm(user: User) -> Chat:
    """The private chat of ``user`` with the bot."""
    return Chat(id=f"con:dm:{user.id.split(':', 1)[1]}", private=True)


class Clock:
    """A fake clock: a float of unix seconds that only moves when told."""

    def __init__(self, start: float = 1_800_000_000.0) -> None:
        self.t = start

    def __call__(self) -> float:
        return self.t

    def advance(self, seconds: float) -> None:
        """Move time forward."""
        self.t += seconds


def plain(text: str | Rich | None) -> str:
    """Markup as plain text ('' for None)."""
    return to_plain(text or "")


def buttons_of(message: Message, caps: Capabilities = TELEGRAM) -> list[Button]:
    """A message's buttons in reading order, as Telegram (or ``caps``) shows them (one
    page)."""
    return lay_out(message.choices, caps).choices() if message.choices else []


def where(item: Outgoing) -> str:
    """A short address: a chat id or ``user:<id>``."""
    return item.to.chat_id if isinstance(item.to, ToChat) else f"user:{item.to.user_id}"


@dataclass
class Snapshot:
    """What a table looked like: for "nothing changed" checks."""

    version: int
    record: dict[str, Any]
    log: list[LogEntry]


@dataclass
class Harness:
    """Drives one Campfire like a chat client would, and remembers what it was sent."""

    app: Campfire
    clock: Clock
    sent: list[Outgoing] = field(default_factory=list)
    inbox: dict[tuple[str, str], Message] = field(default_factory=dict)
    # Run what a reply wakes (the autopilot's moves) as soon as it is handed over.
    auto_due: bool = True

    @property
    def sv(self) -> Any:
        """The app's services."""
        return self.app.sv

    @property
    def store(self) -> Any:
        """The game store."""
        return self.app.sv.store

    def t(self, code: str, lang: str = "en", **args: Any) -> str:
        """A catalog text as plain characters."""
        return self.sv.catalog.plain(lang, code, **args)

    def keep(self, out: list[Outgoing]) -> list[Outgoing]:
        """Remember messages as a client would show them (a slot shows its latest)."""
        for i, item in enumerate(out):
            self.sent.append(item)
            slot = item.message.slot or f"#{len(self.sent)}.{i}"
            self.inbox[(where(item), slot)] = item.message
        return out

    async def text(self, user: User, text: str, chat: Chat = GROUP) -> Reply:
        """``user`` types ``text`` in ``chat`` (the group by default)."""
        reply = await self.app.on_text(chat, user, text)
        self.keep([*mine(reply, user), *reply.out])
        await self.app.acknowledge(reply)
        await self.handed_over(reply)
        return reply

    async def press(self, user: User, token: str, chat: Chat | None = None) -> Reply:
        """``user`` presses the button with ``token`` (in their private chat by default)."""
        pressed_in = chat or dm(user)
        reply = await self.app.on_press(pressed_in, user, token)
        self.keep([*mine(reply, user), *reply.out])
        if reply.update is not None and reply.update.slot is not None:
            # The pressed message now shows the update (a client edits it in place).
            at = where(Outgoing(ToUser(user.id) if pressed_in.private
                                else ToChat(pressed_in.id), reply.update))
            self.inbox[(at, reply.update.slot)] = reply.update
        await self.app.acknowledge(reply)
        await self.handed_over(reply)
        return reply

    async def handed_over(self, reply: Reply) -> None:
        """Tell the core ``reply`` is out, and (``auto_due``) run the due rounds it wakes,
        an AI's moves, as an adapter's due loop would."""
        self.app.handed_over(reply)
        if self.auto_due and self.app.due_soon.is_set():
            await self.due()

    async def due(self) -> list[Outgoing]:
        """Run the due jobs now, round after round while a round owes another at once
        (a run of AI turns, one move a round)."""
        out: list[Outgoing] = []
        while True:
            self.app.due_soon.clear()
            out += self.keep(await self.app.on_due())
            if not self.app.due_soon.is_set():
                return out

    async def due_around(self, deadline: float, margin: float) -> list[Outgoing]:
        """Nothing is due ``margin`` seconds before ``deadline`` (from now); the jobs due
        ``margin`` seconds after it, run."""
        self.clock.advance(deadline - margin)
        assert await self.due() == []
        self.clock.advance(2 * margin)
        return await self.due()

    # --- tables ----------------------------------------------------------------------

    async def new_table(self, creator: User, *args: str, chat: Chat = GROUP,
                        game: str = "stone_age") -> str:
        """Open a table with ``/new <game> <args>``; returns its id."""
        reply = await self.text(creator, " ".join(["/new", game, *args]), chat)
        assert reply.out, plain(reply.answer)
        slot = reply.out[0].message.slot
        assert slot is not None and slot.startswith("table:")
        return slot.removeprefix("table:")

    def lobby_token(self, table_id: str, verb: str, chat: Chat = GROUP) -> str:
        """The token of a lobby button in the table's message."""
        message = self.inbox[(chat.id, f"table:{table_id}")]
        for b in buttons_of(message):
            token = self.parse(b.token)
            if token.kind == "l" and token.fields[0] == verb:
                return b.token
        raise AssertionError(f"no {verb} button in the table message")

    async def started(self, creator: User, *others: User, options: tuple[str, ...] = ("en",),
                      chat: Chat = GROUP, game: str = "stone_age") -> str:
        """A running table: opened by ``creator``, joined by ``others`` (buttons), started."""
        table_id = await self.new_table(creator, *options, chat=chat, game=game)
        for user in others:
            reply = await self.press(user, self.lobby_token(table_id, "join", chat), chat)
            assert not reply.alert, plain(reply.answer)
        reply = await self.press(creator, self.lobby_token(table_id, "start", chat), chat)
        assert not reply.alert, plain(reply.answer)
        return table_id

    async def get(self, table_id: str) -> TableRecord:
        """The stored record."""
        record: TableRecord = await self.store.get(table_id)
        return record

    async def snapshot(self, table_id: str) -> Snapshot:
        """The record and log as stored now."""
        record = await self.get(table_id)
        return Snapshot(record.version, record.model_dump(mode="json"),
                        await self.store.action_log(table_id))

    async def assert_unchanged(self, table_id: str, before: Snapshot) -> None:
        """Nothing was written to the table since ``before``."""
        after = await self.snapshot(table_id)
        assert after.version == before.version
        assert after.record == before.record
        assert after.log == before.log

    async def prompts(self, table_id: str) -> list[Prompt]:
        """The open prompts of a running table."""
        record = await self.get(table_id)
        game = get_game(record.game)
        return list(game.pending(load_state(game, record)))

    def user_at(self, record: TableRecord, seat: int) -> User:
        """The user sitting at ``seat``."""
        return USERS[record.seats[seat]]

    def dm_prompt(self, record: TableRecord, seat: int) -> Message:
        """The latest private prompt message of a seat."""
        return self.inbox[(f"user:{record.seats[seat]}", f"dm:{record.table_id}:{seat}")]

    def table_message(self, table_id: str, chat: Chat = GROUP) -> Message:
        """The table's own message as the group sees it now."""
        return self.inbox[(chat.id, f"table:{table_id}")]

    def parse(self, raw: str) -> Token:
        """A token's content (it must be authentic)."""
        token = self.sv.signer.parse(raw)
        assert token is not None, raw
        return token

    def move_tokens(self, message: Message, prompt: Prompt | None = None,
                    caps: Capabilities = TELEGRAM) -> list[str]:
        """The move buttons of a message, without page turns and (given the prompt) backs."""
        tokens = []
        for b in buttons_of(message, caps):
            token = self.parse(b.token)
            if token.kind != "m":
                continue
            if prompt is not None and prompt.options[token.int_field(3)].back:
                continue
            tokens.append(b.token)
        return tokens

    async def play_one(self, table_id: str, rnd: random.Random, *,
                       from_group: bool = False) -> tuple[User, Reply]:
        """The first open prompt's player presses a random non-back move button."""
        record = await self.get(table_id)
        prompt = (await self.prompts(table_id))[0]
        user = self.user_at(record, prompt.seat)
        if from_group:
            tokens = self.move_tokens(self.table_message(table_id), prompt)
            reply = await self.press(user, rnd.choice(tokens), GROUP)
        else:
            tokens = self.move_tokens(self.dm_prompt(record, prompt.seat), prompt)
            reply = await self.press(user, rnd.choice(tokens), dm(user))
        return user, reply


def mine(reply: Reply, user: User) -> list[Outgoing]:
    """A reply's private part as the message ``user`` gets (kept with their private
    messages, as Telegram delivers it; Discord shows it in place to them alone)."""
    if reply.private is None:
        return []
    return [Outgoing(ToUser(user.id), reply.private.message, reply.private.table)]


def texts_to(out: list[Outgoing], user: User) -> list[str]:
    """Plain texts of the messages addressed privately to ``user``."""
    return [plain(o.message.text) for o in out
            if isinstance(o.to, ToUser) and o.to.user_id == user.id]


def texts_in(out: list[Outgoing], chat: Chat = GROUP) -> list[str]:
    """Plain texts of the messages sent into ``chat``."""
    return [plain(o.message.text) for o in out
            if isinstance(o.to, ToChat) and o.to.chat_id == chat.id]


def plan_until(
    seats: int, seed: int, goal: Callable[[list[Prompt]], bool], *, policy_seed: int = 0,
    limit: int = 3000,
) -> list[tuple[int, str]]:
    """Moves (seat, key) that bring a fresh game of ``seed`` to a position ``goal`` likes.

    The moves are random non-back options of the first open prompt, from a generator of
    its own; the engine is deterministic, so the bot reaches the same position.
    """
    game = get_game("stone_age")
    state = game.new(seats, seed)
    rnd = random.Random(policy_seed)
    moves: list[tuple[int, str]] = []
    while not goal(game.pending(state)):
        prompts = game.pending(state)
        assert prompts and len(moves) < limit, "goal not reached"
        prompt = prompts[0]
        key = rnd.choice([o for o in prompt.options if not o.back]).key
        game.apply(state, prompt.seat, key)
        moves.append((prompt.seat, key))
    return moves


def feeding_goal(count: int) -> Callable[[list[Prompt]], bool]:
    """Exactly ``count`` players must decide how to feed their tribe at once."""
    def goal(prompts: list[Prompt]) -> bool:
        return sum(p.label.code == "sa.prompt.pay_feed" for p in prompts) == count
    return goal


async def type_moves(h: Harness, table_id: str, moves: list[tuple[int, str]]) -> Reply:
    """Play ``moves`` with typed ``/move <table> <key>`` commands; the last reply."""
    record = await h.get(table_id)
    reply = Reply()
    for seat, key in moves:
        reply = await h.text(h.user_at(record, seat), f"/move {table_id} {key}")
        assert not reply.alert, (seat, key, plain(reply.answer))
    return reply


async def reach(h: Harness, table_id: str, goal: Callable[[list[Prompt]], bool],
                *, policy_seed: int = 0, limit: int = 400) -> list[Prompt]:
    """Play the running table (typed moves) to a position ``goal`` likes; its prompts.

    Tries random policies from ``policy_seed`` on until one gets there within ``limit``.
    """
    record = await h.get(table_id)
    assert record.seed is not None
    for attempt in range(policy_seed, policy_seed + 100):
        try:
            moves = plan_until(len(record.seats), record.seed, goal, policy_seed=attempt,
                               limit=limit)
        except AssertionError:
            continue
        break
    else:
        raise AssertionError("no policy reaches the goal")
    await type_moves(h, table_id, moves)
    prompts = await h.prompts(table_id)
    assert goal(prompts)
    return prompts


async def until_turn_of(h: Harness, table_id: str, user: User, rnd: random.Random) -> None:
    """Others press random buttons until ``user`` has an open prompt."""
    for _ in range(200):
        record = await h.get(table_id)
        prompts = await h.prompts(table_id)
        if any(record.seats[p.seat] == user.id for p in prompts):
            return
        _, reply = await h.play_one(table_id, rnd)
        assert not reply.alert, plain(reply.answer)
    raise AssertionError("the turn never came")


async def is_asked(h: Harness, table_id: str, user: User) -> bool:
    """Does ``user`` have an open prompt at the table?"""
    record = await h.get(table_id)
    return any(record.seats[p.seat] == user.id for p in await h.prompts(table_id))
