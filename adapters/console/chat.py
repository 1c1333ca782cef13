"""The console chat: ``name: text`` lines in, neutral messages printed out.

Every input line is ``name: text`` (said in the group) or ``name dm: text`` (said in
the private chat with the bot). Text arrives as the core's markup tree and prints as
plain text. Choices are laid out with the console's capabilities (``CONSOLE``:
no limits, so one page, every option numbered) and print as ``[n] label`` cells, a few
to a line, a group under its label. Pictures are saved as files and their paths
printed. Messages kept up to date (slots) print again, since a terminal cannot edit
what it printed; so do a reply's update of the pressed message and its private part
(shown as a private message to the actor, with its note in the group when it was asked
there).

How buttons are numbered, and pressed:

- every message printed with buttons gets a number of its own, shown in its header
  (``── [group] (table:k3f) #12``; an answer with buttons ends with it). The numbers
  come from a counter in Redis and the buttons are kept under them
  (``adapters.store.console_buttons``), so they go on rising across restarts and
  consoles sharing a Redis, and a number always means the button it was printed with;
- within a message, an option of a prompt is numbered by its position in the prompt
  (``Choice.mark``): the number the picture draws on what the option points at and
  ``/move N`` takes. Other buttons (lobby, votes) count on after the marks, from 1
  when there are none;
- ``anna: 12.3`` presses button 3 of message 12; ``anna: 3`` presses button 3 of the
  newest message with buttons anna sees in this console (the group's and her private
  chat's). After a restart nothing is "newest" until something is printed again, so an
  old short number is refused, and an old long one presses what it always meant (its
  token may be out of date by then: the core refuses it as stale).
"""

from __future__ import annotations

import hashlib
import re
import time
import unicodedata
from collections.abc import Awaitable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

from adapters.delivery.handling import hand_over, handle_press
from adapters.runtime import Core
from adapters.store.console_buttons import ConsoleButtons, PrintedButton
from bot.app import Campfire
from bot.i18n import Lang, normalize_lang
from bot.identity import BIDI_CONTROLS, Chat, User, valid_unicode
from bot.input.command_schema import spec_named
from bot.storage import StoreUnavailable
from bot.storage.ports import ScriptPart
from bot.ui.choices import Choice, ChoiceBlock
from bot.ui.layout import ButtonRow, Capabilities, Layout, lay_out
from bot.ui.markup import Rich, render_plain
from bot.ui.message import Message, Outgoing, Picture, Reply, ToChat, ToUser

# The console prints a numbered list: nothing to fit.
CONSOLE = Capabilities(per_row=4, max_rows=1_000_000, max_buttons=1_000_000,
                       token_bytes=1_000, unlimited=True)

ID_SPACE = "con"  # the namespace of the console's ids (``con:anna``)
GROUP = Chat(id="con:group", title="console")
LINE = re.compile(r"^\s*(?P<name>[^:#\s][^:]*?)(?P<dm>\s+dm)?\s*:\s*(?P<text>.*)$",
                  re.IGNORECASE)
#: Longest name, in characters (Unicode code points of its normalised form): the
#: length of a Telegram username, and enough for any first name plus a surname.
MAX_NAME = 32
HINT_FORMAT = "? Write lines as `name: text` (or `name dm: text`). Example: anna: /help"
HINT_UNNUMBERED = ("? Storage is unavailable, so these buttons have no numbers to type; "
                   "/status shows them again.")
HINT_STORAGE = "? Storage is unavailable; try again in a moment."
#: A typed button: ``3`` (of the newest message) or ``12.3`` (button 3 of message 12).
BUTTON = re.compile(r"(?:(?P<message>[0-9]+)\.)?(?P<button>[0-9]+)")
_INVISIBLE = ("Cf", "Mn", "Me", "Zs", "Zl", "Zp")
_FILE_UNSAFE = re.compile(r"[^\w-]+")


@dataclass(frozen=True)
class Pressable:
    """A printed button: its token and the chat it was shown in."""

    token: str
    chat: Chat


def console_text(value: Rich) -> str:
    """The text as the console prints it: plain, and a command as typed here, in the
    language of the text around it (``/голос`` in a Russian text: the console reads
    every alias of a command)."""
    return render_plain(value, lambda command: "/" + spec_named(command.name).spoken(
        normalize_lang(command.lang, default="en")))


class RefusedName(ValueError):
    """A name the console refuses; the message is the hint to print."""


def clean_line(line: str) -> str:
    """A typed line made safe to handle, store and print.

    Undecodable input (lone surrogates, as ``surrogateescape`` makes of bad bytes)
    becomes U+FFFD; control characters go, tabs and line separators become spaces.
    """
    out = []
    for ch in valid_unicode(line):
        kind = unicodedata.category(ch)
        if ch == "\t" or kind in ("Zl", "Zp"):
            out.append(" ")
        elif kind != "Cc":
            out.append(ch)
    return "".join(out)


def name_key(name: str) -> str:
    """What identifies a typed name: NFC-normalised, whitespace runs as one space.

    Nothing is folded: case, accents and symbols all count, so ``Zoë``, ``Zoé``,
    ``zoë`` and ``🦊`` are four people, while ``Zoë`` typed precomposed or with a
    combining diaeresis is one.
    """
    return " ".join(unicodedata.normalize("NFC", name).split())


# What a stored id may not hold (whitespace and braces: ``ExternalId``), written as
# ``%XX`` like ``%`` itself, so that two names never share an id.
_ID_ESCAPES = {ch: f"%{ord(ch):02X}" for ch in "% {}"}


def _id_part(key: str) -> str:
    return "".join(_ID_ESCAPES.get(ch, ch) for ch in key)


def console_user(name: str, lang: str | None) -> User:
    """A console user: the id is ``con:`` + the name's key (with spaces, braces and
    ``%`` escaped as ``%XX``), the display name as typed.

    The id depends on the name alone, so the same person is found again after a
    restart. Raises ``RefusedName`` (its text is the hint) for an empty or too long name.
    """
    shown = "".join(ch for ch in clean_line(name) if ch not in BIDI_CONTROLS).strip()
    key = name_key(shown)
    if not key or all(unicodedata.category(ch) in _INVISIBLE for ch in key):
        raise RefusedName(HINT_FORMAT)
    if len(key) > MAX_NAME:
        raise RefusedName(
            f"? That name is too long ({len(key)} characters); "
            f"a name has at most {MAX_NAME}. Example: anna: /help"
        )
    return User(id=f"con:{_id_part(key)}", name=shown, lang=lang)


def private_chat(user: User) -> Chat:
    """The private chat of a console user with the bot."""
    return Chat(id=f"con:dm:{user.id.removeprefix('con:')}", private=True)


def button_numbers(choices: Iterable[Choice]) -> list[int]:
    """The number each choice of one message is printed with, in order: its mark (the
    number the picture and ``/move`` give it), else the next one after every mark."""
    items = list(choices)
    following = max((c.mark for c in items if c.mark is not None), default=0)
    numbers = []
    for choice in items:
        if choice.mark is None:
            following += 1
        numbers.append(following if choice.mark is None else choice.mark)
    return numbers


def file_part(text: str) -> str:
    """A piece of a file name made of ``text``: word characters kept, the rest as ``_``.

    Text without any word character (an emoji name) becomes a short digest instead.
    """
    part = _FILE_UNSAFE.sub("_", text).strip("_")[:MAX_NAME]
    if part:
        return part
    return "u" + hashlib.sha1(text.encode("utf-8", "replace")).hexdigest()[:8]


def file_recipient(chat_id: str) -> str:
    """Who a picture was shown to, for its file name: ``group`` or ``dm-<name>``."""
    if chat_id == GROUP.id:
        return "group"
    if chat_id.startswith("con:dm:"):
        return f"dm-{file_part(chat_id.removeprefix('con:dm:'))}"
    return file_part(chat_id)


class ConsoleChat:
    """Drives a ``Campfire`` from text lines and prints what it answers."""

    def __init__(
        self, app: Campfire, buttons: ConsoleButtons, out: TextIO, picture_dir: Path,
        lang: str | None = "ru",
    ) -> None:
        """Print to ``out``; number printed buttons in ``buttons``; save pictures under
        ``picture_dir``."""
        self.app = app
        self.buttons = buttons
        self.out = out
        self.picture_dir = picture_dir
        self.lang = lang
        self.names: dict[str, str] = {}  # user id -> name, to label private messages
        # chat id -> number of the newest message with buttons printed there (0: its
        # buttons could not be numbered); what a short typed number refers to.
        self._newest: dict[str, int] = {}
        self._pictures: dict[str, str] = {}  # slot -> digest of the last picture saved
        self._saved = 0  # pictures saved by this console: the last part of each file name

    @classmethod
    def on(cls, core: Core, out: TextIO, picture_dir: Path,
           lang: str | None = "ru") -> ConsoleChat:
        """A console of ``core``'s bot, numbering buttons in its Redis."""
        buttons = ConsoleButtons(core.storage.redis, prefix=core.key_prefix)
        return cls(core.app, buttons, out, picture_dir, lang)

    def print(self, text: str = "") -> None:
        """Write a line."""
        self.out.write(text + "\n")
        self.out.flush()

    async def handle_line(self, line: str) -> None:
        """Handle one input line."""
        if not line.strip() or line.lstrip().startswith("#"):
            return
        match = LINE.match(clean_line(line))
        if match is None:
            self.print(HINT_FORMAT)
            return
        try:
            user = console_user(match["name"], self.lang)
        except RefusedName as refused:
            self.print(str(refused))
            return
        self.names[user.id] = user.name
        chat = private_chat(user) if match["dm"] else GROUP
        text = match["text"].strip()
        if text.isascii() and BUTTON.fullmatch(text):
            try:
                pressable = await self.pressable(user, text)
            except StoreUnavailable:
                self.print(HINT_STORAGE)
                return
            if pressable is None:
                self.print(f"? There is no button [{text}].")
                return
            await handle_press(self.app, _ConsoleEdge(self, user, chat), pressable.chat,
                               user, pressable.token)
        else:
            reply = await self.app.on_text(chat, user, text, sent_at=time.time())
            await hand_over(self.app, reply, _ConsoleEdge(self, user, chat).deliver)
        await self.run_due()

    async def pressable(self, user: User, typed: str) -> Pressable | None:
        """The button ``typed`` names for ``user``: ``12.3`` is button 3 of message 12,
        ``3`` button 3 of the newest message with buttons that ``user`` sees in this
        console (the group's or their private chat's); None when there is none."""
        found = BUTTON.fullmatch(typed)
        if found is None:
            return None
        if found["message"] is not None:
            message = int(found["message"])
        else:
            message = max(self._newest.get(GROUP.id, 0),
                          self._newest.get(private_chat(user).id, 0))
        if message <= 0:
            return None
        button = await self.buttons.find(message, int(found["button"]))
        if button is None:
            return None
        chat = GROUP if button.chat_id == GROUP.id else Chat(id=button.chat_id,
                                                              private=button.private)
        return Pressable(button.token, chat)

    async def run_due(self) -> None:
        """Send whatever reminders, time-outs and AI moves are due, round after round
        while a round owes another at once (a run of AI turns: one move a round)."""
        while True:
            self.app.due_soon.clear()
            await self.show(await self.app.on_due())
            if not self.app.due_soon.is_set():
                return

    async def show_reply(self, user: User, chat: Chat, reply: Reply) -> None:
        """Print the answer to the actor, then every other message."""
        if reply.answer:
            mark = "⚠ " if reply.alert else ""
            numbered = await self._numbered(reply.answer_choices, chat)
            number = numbered.suffix if numbered else ""
            self.print(f"→ {user.name}: {mark}{console_text(reply.answer)}{number}")
            self._print_choices(numbered)
        if reply.update is not None:
            # The pressed message, updated: printed again where it was.
            target: ToChat | ToUser = ToUser(user.id) if chat.private else ToChat(chat.id)
            await self.show([Outgoing(target, reply.update)])
        if reply.private is not None:
            if reply.private.note is not None and not chat.private and not reply.answer:
                # Like Telegram, a group here has no message one member alone sees: the
                # private part goes to their private chat, and the group is told so.
                self.print(f"→ {user.name}: {console_text(reply.private.note)}")
            await self.show([Outgoing(ToUser(user.id), reply.private.message,
                                      reply.private.table)])
        await self.show(reply.out)

    async def show(self, out: Iterable[Outgoing]) -> None:
        """Print messages."""
        for item in out:
            if isinstance(item.to, ToChat):
                where = "group" if item.to.chat_id == GROUP.id else item.to.chat_id
                chat = GROUP if item.to.chat_id == GROUP.id else Chat(id=item.to.chat_id)
                recipient = file_recipient(item.to.chat_id)
            else:
                # Console ids are made from names, so a restarted console can still
                # say whom a private message is for before that user typed anything.
                key = item.to.user_id.removeprefix("con:")
                name = self.names.get(item.to.user_id, key)
                where = f"DM → {name}"
                chat = Chat(id=f"con:dm:{key}", private=True)
                recipient = file_recipient(f"con:dm:{key}")
            await self._print_message(where, chat, item.message, recipient)

    async def _print_message(self, where: str, chat: Chat, message: Message,
                             recipient: str) -> None:
        slot = f" ({message.slot})" if message.slot else ""
        numbered = await self._numbered(message.choices, chat)
        self.print(f"── [{where}]{slot}{numbered.suffix if numbered else ''}")
        for line in console_text(message.text).splitlines():
            self.print(f"   {line}")
        self._print_choices(numbered)
        if message.picture is not None:
            if message.slot is not None and not message.renew:
                # A kept message edited with the same picture: nothing new to show. (A
                # renewed one is a new message further down: it shows its picture.)
                digest = hashlib.sha1(message.picture.png).hexdigest()
                key = f"{chat.id}:{message.slot}"
                if self._pictures.get(key) == digest:
                    return
                self._pictures[key] = digest
            self.print(f"   🖼 {self._save_picture(message.picture, recipient)}")

    def _save_picture(self, picture: Picture, recipient: str) -> Path:
        """Write ``picture`` to a file of its own and return its path.

        The name is ``<picture name>-<recipient>-<n>.png`` (the bot names pictures
        ``<table>-<version>``), with ``n`` counting this console's pictures; a file
        that exists already (left by an earlier run, or another console sharing the
        directory) is never overwritten: the count moves on instead.
        """
        self.picture_dir.mkdir(parents=True, exist_ok=True)
        stem = file_part(Path(picture.name).stem)
        while True:
            self._saved += 1
            path = self.picture_dir / f"{stem}-{recipient}-{self._saved}.png"
            try:
                with path.open("xb") as file:
                    file.write(picture.png)
            except FileExistsError:
                continue
            return path

    async def _numbered(self, block: ChoiceBlock | None, chat: Chat) -> _Numbered | None:
        """Lay out and number a block about to be printed in ``chat`` (its message
        number is 0 when storage could not keep it); None without choices."""
        if block is None:
            return None
        layout = lay_out(block, CONSOLE)
        choices = layout.choices()
        if not choices:
            return None
        numbers = button_numbers(choices)
        printed = {n: PrintedButton(chat.id, chat.private, c.token)
                   for n, c in zip(numbers, choices, strict=True)}
        try:
            message = await self.buttons.keep(printed)
        except StoreUnavailable:
            message = 0
        self._newest[chat.id] = message
        return _Numbered(block, layout, message, numbers)

    def _print_choices(self, numbered: _Numbered | None) -> None:
        """Print every choice with its number, a few to a line, each group under its
        label (without a message number, the numbers could not be typed: none shown)."""
        if numbered is None:
            return
        block, message = numbered.block, numbered.message
        numbers = iter(numbered.numbers)
        for row in numbered.layout.rows:
            items = row.buttons if isinstance(row, ButtonRow) else row.options
            heading = block.group_label(items[0].group) if items else None
            if heading is not None and items[0].kind == "option":
                self.print(f"   {heading}:")
            for start in range(0, len(items), CONSOLE.per_row):
                cells = []
                for choice in items[start:start + CONSOLE.per_row]:
                    n = next(numbers)
                    cells.append(f"[{n}] {choice.label}" if message else f"· {choice.label}")
                self.print("   " + "   ".join(cells))
        if not message:
            self.print(HINT_UNNUMBERED)


@dataclass(frozen=True)
class _Numbered:
    """A block laid out for printing: its message's number (0: none could be kept) and
    each choice's number, in printing order."""

    block: ChoiceBlock
    layout: Layout
    message: int
    numbers: list[int]

    @property
    def suffix(self) -> str:
        """What ends the line above the buttons: `` #12``, or nothing."""
        return f" #{self.message}" if self.message else ""


class _ConsoleEdge:
    """A typed line in the update sequence (``adapters.delivery.handling``): the
    reply is printed in one piece, its answer first, as it is handed over."""

    answer_is_call = False

    def __init__(self, console: ConsoleChat, user: User, chat: Chat) -> None:
        """``user`` pressed, typing in ``chat``."""
        self.console, self.user, self.chat = console, user, chat
        self.lang: Lang = normalize_lang(user.lang)
        self.shown = False

    async def call(self, work: Awaitable[Reply]) -> Reply:
        """The core's reply, waited for."""
        return await work

    async def deliver(self, reply: Reply, settle: ScriptPart | None) -> bool:
        """Print the reply (nothing to queue, nor to settle in the same write)."""
        del settle
        await self.console.show_reply(self.user, self.chat, reply)
        self.shown = True
        return True

    async def answer(self, reply: Reply) -> None:
        """Print the answer of a press that was not delivered (a failure's notice);
        a delivered one printed its answer already."""
        if not self.shown:
            await self.console.show_reply(self.user, self.chat, reply)
