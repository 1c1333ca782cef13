"""A table speaks its own language in every word about it, on every platform.

Random whole games of every game, in both languages, are played through the app with
the usual commands typed along the way (in the table's chat and privately), a reminder
and a clock time-out (the vote and its buttons) among them. Every reply and message is
rendered the way each platform shows it — the console's lines, Telegram's HTML and
keyboards, Discord's Markdown, embeds, buttons and menus (a picture's caption is its
message's text) — and a Russian table's words must hold no English word, an English
table's no Cyrillic letter. The players' clients speak the other language, so nothing
can pass by following them.

Every table has an AI player too (its name says so in the table's language: it is
checked like any other word).

Set aside as true names, and only these: the players' names and the table's id;
*Campfire*, the bot's own name; on Telegram, command names (Telegram takes only Latin
ones, so a Russian table says ``/vote`` there: the console and Discord say ``/голос``
and ``/стол голос``); a square's name, column letters and a row number (``D1``,
``CM91``), and on a picture's edge a column's letters alone: coordinates, not words.
Game titles need no exception: each language has its own. The console's frame (the
``── [group]`` line over each message, the ``→ Name:`` before an answer) is the
console's, not a table's. Commands about the user alone (``/settings``, ``/mygames``,
``/language``) answer in the user's own language and are not typed here.

Pictures: the words a picture draws are checked at a few moments of each game and
language (every text the renderer hands to the drawing library).
"""

from __future__ import annotations

import html as html_text
import io
import random
import re
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from PIL import ImageDraw
from redis.asyncio import Redis

from adapters.console.chat import ConsoleChat
from adapters.discord.render import markdown
from adapters.discord.render import render as discord_render
from adapters.store.console_buttons import ConsoleButtons
from adapters.telegram.render import html as telegram_html
from adapters.telegram.render import keyboard
from bot.games import manifests
from bot.i18n import Lang
from bot.identity import Chat, User
from bot.storage import TableNotFound, TableRecord
from bot.table.settings import meta_view
from bot.ui.message import Message, Reply
from engine.hunters_gatherers.coords import REACH, Naming
from engine.registry import get_game
from tests.bot.helpers import GROUP, Harness, buttons_of, dm, plain

#: Players by the language their clients speak: the other language than the table's.
NAMES: dict[Lang, tuple[str, ...]] = {
    "ru": ("Аня", "Боря", "Вера"), "en": ("Anna", "Boris", "Clara")}
#: Commands typed at a table, in its chat or privately, with arguments in the table's
#: language where they take words.
COMMANDS: dict[Lang, tuple[str, ...]] = {
    lang: ("/board", "/log", "/log 5", "/log x", "/help", "/turn", "/rules", "/status",
           "/vote", "/vote maybe", "/undo", "/move 999", "/move", "/games", "/leave",
           "/abort", "/resume", "/new", "/join", "/start", *words)
    # A rules question, a garbled setting and a command nobody knows (what the player
    # typed is quoted back as typed: in the table's language here).
    for lang, words in (("ru", ("/rules еда", "/new каверна напоминание=скоро", "/фыва")),
                        ("en", ("/rules food", "/new caverna remind=soon", "/frob")))}
PRIVATE_COMMANDS = ("/board", "/turn", "/log", "/status", "/undo")
LATIN_WORD = re.compile(r"[A-Za-z]{2,}")
CYRILLIC = re.compile(r"[А-Яа-яЁё]+")
TELEGRAM_COMMAND = re.compile(r"/[a-z]+\b")
SQUARE = re.compile(r"\b[A-Z]{1,4}[1-9][0-9]*\b")  # a square's name: CM91, D1
MAX_PRESSES = 3000
GAMES = sorted(manifests())


def leaks(text: str, lang: Lang, allowed: tuple[str, ...]) -> list[str]:
    """The words of the other language in ``text``, names set aside."""
    for name in sorted(allowed, key=len, reverse=True):
        text = text.replace(name, " ")
    text = SQUARE.sub(" ", text)
    return (LATIN_WORD if lang == "ru" else CYRILLIC).findall(text)


# --- what each platform shows --------------------------------------------------------


def _labels(message: Message) -> list[str]:
    """Every choice's label and every group's name, whichever page shows them."""
    block = message.choices
    if block is None:
        return []
    return [c.label for c in block.choices] + [g.label for g in block.groups if g.label]


def on_telegram(message: Message) -> list[str]:
    """The text as Telegram shows it (its HTML read as a person reads it; a picture's
    caption is this text too) and the keyboard's buttons."""
    shown = [html_text.unescape(re.sub(r"<[^>]+>", "", telegram_html(message.text)))]
    rows = (keyboard(message) or {}).get("inline_keyboard", [])
    shown += [button["text"] for row in rows for button in row]
    return [*shown, *_labels(message)]


def on_discord(message: Message) -> list[str]:
    """The content or embed, and the components: button labels, menus' placeholders
    and options."""
    rendered = discord_render(message)
    shown = [rendered.content or "", rendered.embed.description or "" if rendered.embed
             else ""]
    for row in rendered.view.to_components() if rendered.view else []:
        for item in row["components"]:
            shown += [item.get("label") or "", item.get("placeholder") or ""]
            shown += [option["label"] for option in item.get("options", [])]
    return [*shown, *_labels(message)]


def telegram_reply(reply: Reply) -> list[str]:
    """A reply on Telegram: the answer (a message, or a press's notice), its buttons,
    the private part and its note, the pressed message's update, every other message."""
    shown: list[str] = []
    if reply.answer is not None:
        shown += on_telegram(Message(reply.answer, reply.answer_choices))
        shown.append(plain(reply.answer))  # a press's notice is plain text
    if reply.private is not None:
        shown += on_telegram(reply.private.message)
        shown += [plain(reply.private.note)] if reply.private.note is not None else []
    shown += on_telegram(reply.update) if reply.update is not None else []
    for item in reply.out:
        shown += on_telegram(item.message)
    return shown


def discord_reply(reply: Reply) -> list[str]:
    """A reply on Discord: the answer (Markdown, ephemeral), its buttons, the private
    part, the update and every other message."""
    shown: list[str] = []
    if reply.answer is not None:
        shown += on_discord(Message(reply.answer, reply.answer_choices))
        shown.append(markdown(reply.answer))
    if reply.private is not None:
        shown += on_discord(reply.private.message)
    shown += on_discord(reply.update) if reply.update is not None else []
    for item in reply.out:
        shown += on_discord(item.message)
    return shown


class ConsoleScreen:
    """The console printing replies, and what it printed since last asked."""

    def __init__(self, h: Harness, tmp: Path, buttons: ConsoleButtons) -> None:
        self.out = io.StringIO()
        self.console = ConsoleChat(h.app, buttons, self.out, tmp)

    async def reply(self, user: User, chat: Chat, reply: Reply) -> list[str]:
        """What the console prints for ``reply``, without its own frame."""
        self.out.seek(0)
        self.out.truncate()
        await self.console.show_reply(user, chat, reply)
        lines = []
        for line in self.out.getvalue().splitlines():
            if line.startswith("── ["):
                continue  # the console's frame: where a message goes
            lines.append(re.sub(r"^→ [^:]+: ", "", re.sub(r"\[\d+\] ", "", line)))
        return lines


# --- playing -------------------------------------------------------------------------


class Table:
    """One table being played through the app, every reply checked on every platform."""

    def __init__(self, h: Harness, lang: Lang, users: list[User], tmp: Path,
                 buttons: ConsoleButtons) -> None:
        self.h, self.lang, self.users = h, lang, users
        self.by_id = {u.id: u for u in users}
        self.console = ConsoleScreen(h, tmp, buttons)
        self.table_id = ""
        self.found: list[tuple[str, str, str]] = []  # (platform, word, where)
        self.checked = 0
        self.said: Counter[str] = Counter()  # what was answered with words, by kind

    def allowed(self, platform: str, text: str) -> tuple[str, ...]:
        names = (*(u.name for u in self.users), f"#{self.table_id}", self.table_id,
                 "Campfire")
        if platform == "telegram":
            names += tuple(TELEGRAM_COMMAND.findall(text))
        return names

    async def check(self, user: User, chat: Chat, reply: Reply, what: str) -> Reply:
        if reply.answer or reply.out or reply.private or reply.update:
            self.said[what] += 1
        shown = {"console": await self.console.reply(user, chat, reply),
                 "telegram": telegram_reply(reply), "discord": discord_reply(reply)}
        for platform, texts in shown.items():
            for text in texts:
                self.checked += 1
                for word in leaks(text, self.lang, self.allowed(platform, text)):
                    self.found.append((platform, word, f"{what}: {text[:160]!r}"))
        return reply

    async def text(self, user: User, line: str, chat: Chat = GROUP) -> Reply:
        return await self.check(user, chat, await self.h.text(user, line, chat), line)

    async def press(self, user: User, token: str, chat: Chat, what: str) -> Reply:
        return await self.check(user, chat, await self.h.press(user, token, chat), what)

    async def due(self) -> None:
        out = await self.h.due()
        await self.check(self.users[0], GROUP, Reply(out=out), "due")

    def user_at(self, record: TableRecord, seat: int) -> User:
        return self.by_id[record.seats[seat]]

    async def open(self, game: str, options: tuple[str, ...]) -> None:
        """The first user opens the table with one AI player at it, the others join."""
        creator, *others = self.users
        reply = await self.text(creator, " ".join(["/new", game, self.lang, *options]))
        assert not reply.alert, plain(reply.answer)
        slot = reply.out[0].message.slot
        assert slot is not None
        self.table_id = slot.removeprefix("table:")
        for user in others:
            reply = await self.press(user, self.h.lobby_token(self.table_id, "join"), GROUP,
                                     "join")
            assert not reply.alert, plain(reply.answer)
        await self.text(creator, "/board")  # a lobby is no game yet: refused, in words
        reply = await self.press(creator, self.h.lobby_token(self.table_id, "start"), GROUP,
                                 "start")
        assert not reply.alert, plain(reply.answer)

    async def vote_if_asked(self, rnd: random.Random) -> None:
        """Every player the time-out's vote asks answers it by one of its buttons."""
        record = await self.h.get(self.table_id)
        vote = meta_view(record).vote
        if vote is None:
            return
        tokens = [b.token for o in self.h.sent if o.message.choices
                  for b in buttons_of(o.message) if self.h.parse(b.token).kind == "v"
                  and self.h.parse(b.token).int_field(0) == vote.opened]
        choice = rnd.choice([t for t in tokens if self.h.parse(t).fields[1] != "abort"])
        for seat in vote.voters:
            await self.press(self.by_id[record.seats[seat]], choice, GROUP, "vote")

    async def commands(self, user: User) -> None:
        """Every command once, in the table's chat, and the private ones privately."""
        for line in COMMANDS[self.lang]:
            await self.text(user, line)
        for line in PRIVATE_COMMANDS:
            await self.text(user, line, dm(user))

    async def play(self, rnd: random.Random) -> int:
        """Random buttons until the game ends, commands and time passing in between."""
        presses = 0
        while True:
            try:
                record = await self.h.get(self.table_id)
            except TableNotFound:
                return presses
            presses += 1
            assert presses < MAX_PRESSES
            prompts = await self.h.prompts(self.table_id)
            if not prompts:
                await self.vote_if_asked(rnd)
                continue
            prompt = rnd.choice(prompts)
            user = self.user_at(record, prompt.seat)
            if presses % 37 == 0:
                await self.text(user, rnd.choice(COMMANDS[self.lang]))
                continue
            if presses % 53 == 0:
                await self.text(user, rnd.choice(PRIVATE_COMMANDS), dm(user))
                continue
            if presses == 20:
                await self.commands(user)
            if presses % 97 == 20 or (presses % 29 == 0 and not self.said["vote"]):
                # A reminder falls due, and (with a clock) a time-out with its vote: more
                # often until a vote was seen, since the strong AI thinks by the clock (the
                # game's path is the machine's) and a time-out that falls while another
                # vote is open, or once the other players are AI, opens none.
                self.h.clock.advance(13 * 3600)
                await self.due()
                await self.vote_if_asked(rnd)
                continue
            in_group = presses % 3 == 0 and len(prompts) == 1
            message = self.h.table_message(self.table_id) if in_group \
                else self.h.dm_prompt(record, prompt.seat)
            tokens = self.h.move_tokens(message, prompt)
            if not tokens:
                # Its decision came back to them (a decision taken back): they ask for it.
                await self.text(user, "/turn", dm(user))
                continue
            reply = await self.press(user, rnd.choice(tokens), GROUP if in_group else dm(user),
                                     prompt.label.code)
            assert not reply.alert, plain(reply.answer)

    async def after(self) -> None:
        """The table's log once it ended (what else is typed then is no more about it:
        the chat has no table left, and answers in its own language)."""
        await self.text(self.users[0], f"/log {self.table_id} 60")
        await self.text(self.users[1], f"/log {self.table_id} 60", dm(self.users[1]))


def people(lang: Lang, count: int) -> list[User]:
    """Players whose clients speak the other language than the table's."""
    other = "en" if lang == "ru" else "ru"
    return [User(id=f"con:p{i}", name=NAMES[other][i], lang=other) for i in range(count)]


@pytest.mark.parametrize("lang", ["ru", "en"])
@pytest.mark.parametrize("game", GAMES)
async def test_a_table_speaks_its_language_on_every_platform(
        h: Harness, game: str, lang: Lang, tmp_path: Path, raw_redis: Redis,
        key_prefix: str) -> None:
    entry = manifests()[game]
    # The fewest players the game takes at a Russian table, three (where it allows) at
    # an English one; clocked, so that time runs out and the others vote.
    count = max(entry.min_players, 2) if lang == "ru" else min(3, entry.max_players)
    table = Table(h, lang, people(lang, count), tmp_path,
                  ConsoleButtons(raw_redis, prefix=key_prefix))
    ai = {"ru": "ии=1 уровень=сильный", "en": "ai=1 level=strong"}[lang].split()
    await table.open(game, (str(count + 1), *ai, "clock=2h/1h/4h"))
    await table.play(random.Random(f"{game}{lang}"))
    await table.after()
    assert table.checked > 1000
    # What was looked at: every command, reminders, a time-out's vote, the result.
    assert {*COMMANDS[lang], *PRIVATE_COMMANDS, "due", "vote", "start"} <= set(table.said), \
        set(table.said)
    assert not table.found, "\n".join(f"{p}: {w!r} in {where}"
                                       for p, w, where in table.found[:60])


# --- pictures ------------------------------------------------------------------------


@contextmanager
def drawn_words() -> Iterator[list[str]]:
    """Every text a picture hands to the drawing library while the block runs."""
    words: list[str] = []
    original = ImageDraw.ImageDraw.text

    def text(self: ImageDraw.ImageDraw, xy: Any, text: Any, *args: Any, **kwargs: Any) -> Any:
        words.append(str(text))
        return original(self, xy, text, *args, **kwargs)

    ImageDraw.ImageDraw.text = text  # type: ignore[method-assign]
    try:
        yield words
    finally:
        ImageDraw.ImageDraw.text = original  # type: ignore[method-assign]


def moments(game: str, count: int, seed: int) -> Iterator[tuple[Any, Any]]:
    """A few states of a random game (its start, twice on the way, its end), each with
    the prompt open then."""
    engine = get_game(game)
    state = engine.new(count, seed)
    rnd = random.Random(seed)
    steps = 0
    while True:
        prompts = engine.pending(state)
        if steps in (0, 40, 160) or not prompts:
            yield state, (prompts[0] if prompts else None)
        if not prompts:
            return
        prompt = rnd.choice(prompts)
        engine.apply(state, prompt.seat, rnd.choice([o for o in prompt.options
                                                     if not o.back]).key)
        steps += 1


def column_names(view: Any) -> set[str]:
    """The letters a map's edge may name a column by, for a view whose game names its
    squares that way (Hunters and Gatherers); none for another."""
    names = getattr(view, "names", None)
    if not isinstance(names, Naming):
        return set()
    return {names.column_name(x) for x in range(-REACH, REACH + 1)}


@pytest.mark.parametrize("lang", ["ru", "en"])
@pytest.mark.parametrize("game", GAMES)
def test_a_pictures_words_are_in_the_tables_language(game: str, lang: Lang) -> None:
    entry = manifests()[game]
    if entry.picture is None:
        pytest.skip("no picture")
    engine = get_game(game)
    count = max(entry.min_players, 2)
    names = list(NAMES["en" if lang == "ru" else "ru"][:count])
    found = []
    for state, prompt in moments(game, count, seed=3):
        with drawn_words() as words:
            entry.picture(engine.view(state, None), names, lang, None)
            seat = prompt.seat if prompt is not None else 0
            entry.picture(engine.view(state, seat), names, lang, prompt)
        assert words
        edges = column_names(engine.view(state, None))
        found += [(w, t) for t in words if len(t) > 1 and t not in edges
                  for w in leaks(t, lang, tuple(names))]
    assert not found, found[:40]
