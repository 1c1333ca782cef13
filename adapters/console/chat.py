"""The console chat: ``name: text`` lines in, neutral messages printed out.

Every input line is ``name: text`` (said in the group) or ``name dm: text`` (said in
the private chat with the bot). Buttons print as ``[n] label`` with numbers unique for
the session; a user presses one by typing its number (``anna: 7``). Pictures are saved
as files and their paths printed. Messages kept up to date (slots) print again with
"updated", since a terminal cannot edit what it printed.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

from bot.app import Campfire
from bot.i18n import to_plain
from bot.identity import Chat, User
from bot.ui import Button, Message, Outgoing, Reply, ToChat

GROUP = Chat(id="con:group", title="console")
LINE = re.compile(r"^\s*([^:#\s][^:]{0,40}?)(\s+dm)?\s*:\s*(.*)$", re.IGNORECASE)


@dataclass(frozen=True)
class Pressable:
    """A printed button: its token and the chat it was shown in."""

    token: str
    chat: Chat


def console_user(name: str, lang: str | None) -> User:
    """A console user; the id is derived from the name so it stays the same on restart."""
    slug = re.sub(r"[^0-9a-zа-яё_]+", "_", name.strip().lower())
    return User(id=f"con:{slug}", name=name.strip(), lang=lang)


def private_chat(user: User) -> Chat:
    """The private chat of a console user with the bot."""
    return Chat(id=f"con:dm:{user.id[4:]}", private=True)


class ConsoleChat:
    """Drives a ``Campfire`` from text lines and prints what it answers."""

    def __init__(
        self, app: Campfire, out: TextIO, picture_dir: Path, lang: str | None = "ru"
    ) -> None:
        """Print to ``out``; save pictures under ``picture_dir``."""
        self.app = app
        self.out = out
        self.picture_dir = picture_dir
        self.lang = lang
        self.buttons: dict[int, Pressable] = {}
        self.names: dict[str, str] = {}  # user id -> name, to label private messages
        self._next = 1
        self._pictures: dict[str, str] = {}  # slot -> digest of the last picture saved

    def print(self, text: str = "") -> None:
        """Write a line."""
        self.out.write(text + "\n")
        self.out.flush()

    async def handle_line(self, line: str) -> None:
        """Handle one input line."""
        if not line.strip() or line.lstrip().startswith("#"):
            return
        match = LINE.match(line)
        if match is None:
            self.print("? Write lines as `name: text` (or `name dm: text`). Example: anna: /help")
            return
        user = console_user(match[1], self.lang)
        self.names[user.id] = user.name
        chat = private_chat(user) if match[2] else GROUP
        text = match[3].strip()
        if text.isascii() and text.isdigit():
            pressable = self.buttons.get(int(text))
            if pressable is None:
                self.print(f"? There is no button [{text}].")
                return
            reply = await self.app.on_press(pressable.chat, user, pressable.token)
        else:
            reply = await self.app.on_text(chat, user, text)
        self.show_reply(user, chat, reply)
        await self.run_due()

    async def run_due(self) -> None:
        """Send whatever reminders or time-outs are due."""
        self.show(await self.app.on_due())

    def show_reply(self, user: User, chat: Chat, reply: Reply) -> None:
        """Print the answer to the actor, then every other message."""
        if reply.answer:
            mark = "⚠ " if reply.alert else ""
            self.print(f"→ {user.name}: {mark}{to_plain(reply.answer)}")
            self._print_buttons(reply.answer_buttons, chat)
        self.show(reply.out)

    def show(self, out: Iterable[Outgoing]) -> None:
        """Print messages."""
        for item in out:
            if isinstance(item.to, ToChat):
                where = "group" if item.to.chat_id == GROUP.id else item.to.chat_id
                chat = GROUP if item.to.chat_id == GROUP.id else Chat(id=item.to.chat_id)
            else:
                # Console ids are made from names, so a restarted console can still
                # say whom a private message is for before that user typed anything.
                name = self.names.get(item.to.user_id, item.to.user_id.removeprefix("con:"))
                where = f"DM → {name}"
                chat = Chat(id=f"con:dm:{item.to.user_id[4:]}", private=True)
            self._print_message(where, chat, item.message)

    def _print_message(self, where: str, chat: Chat, message: Message) -> None:
        slot = f" ({message.slot})" if message.slot else ""
        self.print(f"── [{where}]{slot}")
        for line in to_plain(message.text).splitlines():
            self.print(f"   {line}")
        self._print_buttons(message.buttons, chat)
        if message.picture is not None:
            digest = hashlib.sha1(message.picture.png).hexdigest()
            key = f"{where}:{message.slot}"
            if self._pictures.get(key) != digest:
                self._pictures[key] = digest
                self.picture_dir.mkdir(parents=True, exist_ok=True)
                path = self.picture_dir / message.picture.name
                path.write_bytes(message.picture.png)
                self.print(f"   🖼 {path}")

    def _print_buttons(self, rows: tuple[tuple[Button, ...], ...], chat: Chat) -> None:
        for row in rows:
            cells = []
            for button in row:
                n = self._next
                self._next += 1
                self.buttons[n] = Pressable(button.token, chat)
                cells.append(f"[{n}] {button.label}")
            self.print("   " + "   ".join(cells))
