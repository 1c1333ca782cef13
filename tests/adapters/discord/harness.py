"""Driving the real bot through simcord the way members of a server would.

simcord runs discord.py unmodified against a simulated Discord: members type slash
commands, click buttons and choose in selects; the bot answers through discord.py's
real REST and gateway code. The harness only adds what simcord does not model (see
``ru_locale`` and ``close_dms``), and finds what members see: messages, buttons, selects.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import re
from collections import Counter
from collections.abc import AsyncIterator, Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import discord
import simcord

from adapters.delivery import PlatformLimits
from adapters.discord.client import CampfireClient, DiscordOptions
from adapters.runtime import make_services, token_secret
from adapters.store import Storage, StoreSettings, open_storage
from bot.app import Campfire
from bot.table.thinking import Thinker
from tests.conftest import TEST_AI_BUDGET_S

#: Paging and stepping back never advance a game.
NAV_PREFIXES = ("‹", "›", "«", "↩")
#: Stone Age's tool toggles flip a flag and can be pressed forever.
TOGGLE = re.compile(r"^(🛠 (Add tool|One-use tool) |✅ (Tool|One-use) \+)")
SEAT_LINE = re.compile(r"^(\d+)\\?\. (.+)$", re.M)


class Clock:
    """The bot's clock, moved by tests (reminders, time-outs)."""

    def __init__(self, start: float = 1_750_000_000.0) -> None:
        self.now = start

    def __call__(self) -> float:
        return self.now


@dataclass
class Bot:
    """Our bot as a test runs it: storage, the core, the client, simcord's world."""

    storage: Storage
    app: Campfire
    client: CampfireClient
    env: simcord.Env
    settings: StoreSettings
    clock: Clock


def make_client(storage: Storage, settings: StoreSettings, secret: bytes, clock: Clock,
                seed: int | None, pictures: bool) -> CampfireClient:
    """A fresh client on the storage (a restart makes another on the same Redis)."""
    # AI players think in a real worker process, briefly (see tests/conftest.py).
    app = Campfire(make_services(storage, secret, now=clock, pictures=pictures, seed=seed,
                                 thinker=Thinker(budget_s=TEST_AI_BUDGET_S)))
    return CampfireClient(app, storage.redis, settings.key_prefix,
                          DiscordOptions(run_sender=False, limits=PlatformLimits()))


@contextlib.asynccontextmanager
async def running_bot(settings: StoreSettings, *, seed: int | None = None,
                      pictures: bool = False) -> AsyncIterator[Bot]:
    """The bot on a simcord world, ready (commands synced)."""
    clock = Clock()
    async with open_storage(settings) as storage:
        secret = await token_secret(storage, settings.key_prefix)
        client = make_client(storage, settings, secret, clock, seed, pictures)
        bot: Bot | None = None
        try:
            async with simcord.run(client, shard_count=2) as env:
                bot = Bot(storage, client.app, client, env, settings, clock)
                yield bot
        finally:
            # The AI's worker process, if an AI played (that of the last restart too).
            client.app.sv.thinker.close()
            if bot is not None:
                bot.app.sv.thinker.close()


async def settle(bot: Bot, timeout_s: float = 15.0) -> None:
    """Run the due rounds a reply woke (AI moves), and let the delivery layer's sender
    deliver everything queued. (simcord waits for a
    bot to go idle, which a polling loop never does, so tests step the real ``Sender``
    here instead of running its loop in the background.)"""
    deadline = asyncio.get_running_loop().time() + timeout_s
    while True:
        # What a reply woke (an AI's move) runs as the due loop would run it at once.
        while bot.app.due_soon.is_set():
            bot.app.due_soon.clear()
            await bot.client.run_due()
        while await bot.client.outbox.pending() > 0:
            if asyncio.get_running_loop().time() > deadline:
                raise AssertionError("the outbox did not drain")
            if not await bot.client.sender.step():
                await asyncio.sleep(0.01)
        if not bot.app.due_soon.is_set():
            return


async def restart(bot: Bot, seed: int | None = None) -> None:
    """A new client (a new process, in effect) on the same Redis and the same world."""
    secret = await token_secret(bot.storage, bot.settings.key_prefix)
    client = make_client(bot.storage, bot.settings, secret, bot.clock, seed, False)
    await bot.env.restart_bot(client)
    bot.client, bot.app = client, client.app


# --------------------------------------------------------------------------- reading


def components(message: discord.Message | Any) -> list[dict[str, Any]]:
    """Every interactive component of a message (buttons and selects), in order."""
    # discord.py's components give typed payloads; simcord's own messages hold plain dicts.
    rows: list[Mapping[str, Any]] = message.components if not isinstance(
        message, discord.Message) else [c.to_dict() for c in message.components]
    out: list[dict[str, Any]] = []
    for row in rows:
        out += [c for c in row.get("components", [])]
    return out


def buttons(message: Any) -> list[tuple[str, str]]:
    """(label, custom_id) of the buttons."""
    return [(c.get("label", ""), c["custom_id"]) for c in components(message)
            if c.get("type") == 2 and "custom_id" in c]


def selects(message: Any) -> list[tuple[str, list[tuple[str, str]]]]:
    """(custom_id, [(label, value)]) of the select menus."""
    return [(c["custom_id"], [(o["label"], o["value"]) for o in c.get("options", [])])
            for c in components(message) if c.get("type") == 3]


def choices(message: Any) -> list[tuple[str, str, str | None]]:
    """Every choice on a message: (label, token, select custom_id or None for a button)."""
    out: list[tuple[str, str, str | None]] = [
        (label, cid.removeprefix("cf:"), None) for label, cid in buttons(message)]
    for cid, options in selects(message):
        out += [(label, value, cid) for label, value in options]
    return out


def token_field(token: str, index: int) -> str:
    """Field ``index`` of a token ``kind.table.f0.f1…mac`` (0 = kind, 1 = table)."""
    return token.split(".")[index]


def progress(message: Any, rng: random.Random | None = None,
             ) -> tuple[str, str, str | None] | None:
    """A choice that moves the game on: a move, not paging, back or a tool toggle; the
    first, or a random one with ``rng``."""
    found = [c for c in choices(message) if c[1].startswith("m.")
             and not c[0].startswith(NAV_PREFIXES) and not TOGGLE.match(c[0])]
    if not found:
        return None
    return rng.choice(found) if rng else found[0]


async def act(member: simcord.MemberActor, message: Any,
              choice: tuple[str, str, str | None]) -> simcord.InteractionResult:
    """A member clicks a button or picks an option of a select (nothing is settled)."""
    _, token, select = choice
    # In a DM the member acts as a user, not as a member of the server.
    actor: simcord.MemberActor | simcord.UserHandle = (
        member.user if message.guild is None else member)
    # simcord types a user's click and select as Any; they give an InteractionResult.
    result: simcord.InteractionResult
    if select is None:
        result = await actor.click(message, custom_id="cf:" + token)
    else:
        result = await actor.select(message, [token], custom_id=select)
    return result


@dataclass
class Table:
    """A table in a channel, played by members through what they see."""

    bot: Bot
    channel: simcord.ChannelHandle
    members: list[simcord.MemberActor]
    table_id: str = ""
    message_id: int = 0
    seats: list[simcord.MemberActor] = field(default_factory=list)
    results: list[simcord.InteractionResult] = field(default_factory=list)

    def history(self, channel: simcord.ChannelHandle | None = None) -> list[discord.Message]:
        """The channel's messages, oldest first."""
        return list((channel or self.channel).history())

    def message(self, message_id: int) -> discord.Message:
        """A message of the table's channel as it is now."""
        return next(m for m in self.history() if m.id == message_id)

    @property
    def table_message(self) -> discord.Message:
        """The table's own message."""
        return self.message(self.message_id)

    def dm(self, member: simcord.MemberActor) -> list[discord.Message]:
        """The member's DMs with the bot, oldest first."""
        return list(member.user.dm_channel.history()) if _has_dm(member) else []

    def lobby_button(self, verb: str) -> str:
        """The custom_id of the lobby button for ``verb``."""
        return next(cid for _, cid in buttons(self.table_message)
                    if cid.startswith("cf:l.") and f".{verb}." in cid)

    async def slash(self, member: simcord.MemberActor, name: str,
                    **options: Any) -> simcord.InteractionResult:
        """A member runs a slash command here."""
        result = await member.slash(self.channel, name, **options)
        self.results.append(result)
        await settle(self.bot)
        return result

    async def choose(self, member: simcord.MemberActor, message: Any,
                     choice: tuple[str, str, str | None]) -> simcord.InteractionResult:
        """A member clicks a button or picks an option of a select."""
        result = await act(member, message, choice)
        self.results.append(result)
        await settle(self.bot)
        return result

    async def open(self, game: str, **options: Any) -> None:
        """The first member opens the table by slash command, the others join by button,
        the creator starts it; the seat order is read from the announcement."""
        creator, *others = self.members
        before = len(self.history())
        await self.slash(creator, "table new", game=game, **options)
        lobby = next(m for m in self.history()[before:]
                     if any(cid.startswith("cf:l.") for _, cid in buttons(m)))
        self.message_id = lobby.id
        self.table_id = token_field(buttons(lobby)[0][1].removeprefix("cf:"), 1)
        for member in others:
            result = await member.click(self.table_message, custom_id=self.lobby_button("join"))
            self.results.append(result)
            await settle(self.bot)
        before = len(self.history())
        result = await creator.click(self.table_message, custom_id=self.lobby_button("start"))
        self.results.append(result)
        await settle(self.bot)
        announce = next(m for m in self.history()[before:] if m.content.startswith("🎲"))
        by_name = {m.name: m for m in self.members}
        order = sorted((int(n), name.strip()) for n, name in SEAT_LINE.findall(announce.content))
        self.seats = [by_name[name.replace("\\", "")] for _, name in order]

    def next_choice(self, *, from_dm: bool = False, rng: random.Random | None = None,
                    ) -> tuple[simcord.MemberActor, Any, tuple[str, str, str | None]] | None:
        """Who chooses what now: from the table message, else a player's DM prompt."""
        if not from_dm:
            choice = progress(self.table_message, rng)
            if choice is not None:
                return self.seats[int(token_field(choice[1], 3))], self.table_message, choice
        for member in self.seats:
            for message in reversed(self.dm(member)):
                choice = progress(message, rng)
                if choice is not None and token_field(choice[1], 1) == self.table_id:
                    return member, message, choice
        return None


async def play_choice(table: Table, member: simcord.MemberActor, message: Any,
                      choice: tuple[str, str, str | None], how: Counter[str], *,
                      typed: bool = False) -> None:
    """``member`` makes the move ``choice`` of ``message``: typed as ``/table move`` when
    ``typed`` and the message is the channel's, else by its button or select. Counts the
    way in ``how`` (``typed``, ``channel:button``, ``dm:select``, ...) and fails on a
    refusal."""
    where = "dm" if message.guild is None else "channel"
    if typed and where == "channel":
        number = int(token_field(choice[1], 5)) + 1
        result = await table.slash(member, "table move", choice=str(number),
                                   table=table.table_id)
        how["typed"] += 1
    else:
        result = await table.choose(member, message, choice)
        how[f"{where}:{'select' if choice[2] else 'button'}"] += 1
    assert result.acknowledged
    shown = result.response
    # A move is answered by the table's message changing; a typed one also by a quiet
    # tick only its author sees. Anything else ephemeral is a refusal.
    if shown is not None and shown.ephemeral and shown.content != "✓":
        raise AssertionError(f"refused: {shown.content}")


def _has_dm(member: simcord.MemberActor) -> bool:
    """Whether the bot has opened a DM channel with the member (simcord raises if not)."""
    try:
        return member.user.dm_channel is not None
    except Exception:
        return False


def answered_in_time(results: list[simcord.InteractionResult]) -> bool:
    """Every interaction got its first response (simcord refuses one after 3 s)."""
    return all(r.acknowledged for r in results)


def ru_locale(env: simcord.Env, members: list[simcord.MemberActor]) -> Callable[[], None]:
    """simcord sends every interaction with the locale ``en-US``; this thin layer over its
    gateway emitter gives ``members``' interactions Russian clients (``ru``). Returns how
    to undo it."""
    backend = env.backend
    original = backend.emit
    ids = {str(m.id) for m in members}

    def emit(event: str, payload: Any, *args: Any, **kwargs: Any) -> Any:
        if event == "INTERACTION_CREATE" and isinstance(payload, dict):
            who = (payload.get("member") or {}).get("user") or payload.get("user") or {}
            if str(who.get("id")) in ids:
                payload["locale"] = "ru"
        return original(event, payload, *args, **kwargs)

    # An instance attribute shadows the method for this backend only, as undo expects.
    setattr(backend, "emit", emit)  # noqa: B010 - mypy refuses assigning to a method
    return lambda: setattr(backend, "emit", original)


def close_dms(env: simcord.Env, member: simcord.MemberActor) -> None:
    """The member allows no DMs from the server: every message the bot sends to their
    DM channel fails as Discord's does (403, code 50007), through simcord's fault hook."""
    channel = member.user.dm_channel
    env.inject_error("POST", f"/channels/{channel.id}/messages", status=403, code=50007,
                     message="Cannot send messages to this user", times=None)


async def forged_click(member: simcord.MemberActor | simcord.UserHandle, message: Any,
                       custom_id: str) -> simcord.InteractionResult:
    """A click carrying ``custom_id`` on ``message`` whether or not the message shows it:
    what a tampered client sends, or one still showing an older version of the message.
    simcord's ``click`` only presses components the message has, so this goes through
    its component-interaction builder directly (a thin layer, test-only)."""
    from simcord.actors import _component_interaction

    stored = member._env.backend.get_message(message.channel.id, message.id)
    return await _component_interaction(member, stored,
                                        {"custom_id": custom_id, "component_type": 2})


async def opened_table(bot: Bot, game: str, guild: str, channel: str, names: tuple[str, ...],
                       options: str = "") -> Table:
    """A new guild ``guild`` whose members ``names`` open ``game`` (with ``options``) in
    its text channel ``channel``; the first of them is the table's creator."""
    where = bot.env.create_guild(name=guild)
    members = [where.add_member(bot.env.create_user(n)) for n in names]
    table = Table(bot, where.create_text_channel(channel), members)
    await table.open(game, options=options)
    return table
