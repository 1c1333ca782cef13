"""The neutral UI: platform-free messages that adapters translate.

A ``Message`` is text in the catalog's small HTML subset, an optional picture, and rows
of buttons whose tokens are opaque to the adapters. ``slot`` names a message that is
kept up to date: an adapter edits the message it last sent for that slot instead of
sending a new one (where the platform allows).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from bot.i18n import Markup


@dataclass(frozen=True, slots=True)
class Button:
    """One tappable choice: what it says and the opaque token it sends back."""

    label: str
    token: str


@dataclass(frozen=True, slots=True)
class Picture:
    """A PNG image and a file name for it."""

    png: bytes
    name: str


@dataclass(frozen=True, slots=True)
class Message:
    """Text, an optional picture, and rows of buttons."""

    text: Markup
    buttons: tuple[tuple[Button, ...], ...] = ()
    picture: Picture | None = None
    slot: str | None = None
    # Send as a new message (replacing the slot's old one) rather than an edit, because
    # platforms notify people of new messages, not of edits: a turn or a reminder.
    renew: bool = False

    def all_buttons(self) -> list[Button]:
        """The buttons in reading order."""
        return [b for row in self.buttons for b in row]


@dataclass(frozen=True, slots=True)
class ToChat:
    """Deliver into a chat (a group, a channel, a forum topic)."""

    chat_id: str


@dataclass(frozen=True, slots=True)
class ToUser:
    """Deliver privately to a user."""

    user_id: str


@dataclass(frozen=True, slots=True)
class Outgoing:
    """A message and where it goes."""

    to: ToChat | ToUser
    message: Message
    # The table a private message is about: lets an adapter that cannot reach the
    # user privately ask them, in the table's chat, to open a chat with the bot.
    table: str | None = None
    # The table version the message shows (0: none). A kept message must never go back
    # to an older version: two updates racing through different workers can be queued
    # in either order, and an adapter that queues drops the older one.
    version: int = 0
    # What makes two deliveries of this message one (an idempotency key), when the core
    # can say better than its content: a turn's prompt, a reminder. A repair after a
    # crash re-derives the same key, so a delivery layer can tell it already went out.
    key: str | None = None


@dataclass(slots=True)
class Reply:
    """What handling one update produced.

    ``answer`` is the direct response to the actor: for a button press a short notice
    (``alert`` asks the platform to show it prominently), for a command a message in
    the same chat. ``out`` holds every other message to send or update.
    """

    answer: Markup | None = None
    alert: bool = False
    out: list[Outgoing] = field(default_factory=list)
    answer_buttons: tuple[tuple[Button, ...], ...] = ()
    # (table, version) pairs whose follow-ups ``out`` delivers: once the adapter has
    # handed ``out`` over, ``Campfire.acknowledge`` clears what the tables owe.
    owed: list[tuple[str, int]] = field(default_factory=list)
