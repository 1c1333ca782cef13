"""The neutral UI: platform-free messages that adapters translate.

A ``Message`` is text as a markup tree (``bot.ui.markup.Rich``; a catalog string given to
the constructor is parsed into one, so no adapter ever sees HTML), an optional picture,
and an optional ``bot.ui.choices.ChoiceBlock`` — the choices offered, which each adapter
lays out for its platform (``bot.ui.layout.lay_out``); tokens are opaque to adapters.
``slot`` names a message that is kept up to date: an adapter edits the message it last
sent for that slot instead of sending a new one (where the platform allows).

A ``Reply`` answers one update: a notice or answer to the actor (``answer``, with
choices of its own), messages for anyone (``out``), a ``private`` part only the actor
sees (Discord: an ephemeral message; Telegram: a private message, or an alert when
that cannot carry it), and ``update``: a new content for the message whose button was
pressed (Discord edits the interaction's message; Telegram the message the callback
came from).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from bot.storage.records import Owed
from bot.ui.choices import Button, Choice, ChoiceBlock, Group, block
from bot.ui.markup import Rich, as_rich

__all__ = [
    "Button", "Choice", "ChoiceBlock", "Group", "Message", "Outgoing", "Picture", "Private",
    "Reply", "ToChat", "ToUser", "block",
]


@dataclass(frozen=True, slots=True)
class Picture:
    """A PNG image and a file name for it."""

    png: bytes
    name: str


@dataclass(frozen=True, slots=True, init=False)
class Message:
    """Text, an optional picture, and the choices offered with it."""

    text: Rich
    choices: ChoiceBlock | None
    picture: Picture | None
    slot: str | None
    # Send as a new message (replacing the slot's old one) rather than an edit, because
    # platforms notify people of new messages, not of edits: a turn or a reminder.
    renew: bool
    # The slot's last word (a finished table's result): the older copy a renewed one
    # replaces is edited to say it too, without buttons, rather than keep what it said
    # (its last prompt).
    final: bool
    # Values derived from the fields above by whoever needs them more than once (the
    # delivery layer's digests): the message never changes, so they never go stale.
    # Not part of its equality; ``dataclasses.replace`` starts a new one.
    derived: dict[str, str] = field(init=False, repr=False, compare=False, hash=False)

    def __init__(
        self, text: Rich | str, choices: ChoiceBlock | None = None,
        picture: Picture | None = None, slot: str | None = None, renew: bool = False,
        final: bool = False,
    ) -> None:
        """``text`` as a tree, or as catalog markup (parsed here: the boundary)."""
        object.__setattr__(self, "text", as_rich(text))
        # An empty block offers nothing: the same as none, for every adapter.
        object.__setattr__(self, "choices", choices if choices and choices.choices else None)
        object.__setattr__(self, "picture", picture)
        object.__setattr__(self, "slot", slot)
        object.__setattr__(self, "renew", renew)
        object.__setattr__(self, "final", final)
        object.__setattr__(self, "derived", {})

    def all_buttons(self) -> list[Choice]:
        """Every choice in the block's order (empty without a block)."""
        return list(self.choices.choices) if self.choices else []


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
    # The user asked for this private message themselves (``/board`` or ``/turn`` from a
    # group): a delivery layer tries it even after their private chat refused messages
    # (``bot.reach``), where it drops what the bot would send them unasked.
    asked: bool = False


@dataclass(frozen=True, slots=True)
class Private:
    """A part of a reply only the actor sees: a message, and the table it is about (an
    adapter that cannot reach the user privately may ask them in the table's chat).

    ``note`` is what to say in the chat where the actor asked when the platform cannot
    show the private part there and sends it elsewhere (Telegram: a private message
    for a command typed in a group); a platform that shows it in place (Discord's
    ephemeral message) or a private chat leaves it unsaid.
    """

    message: Message
    table: str | None = None
    note: Rich | None = None


@dataclass(slots=True, init=False)
class Reply:
    """What handling one update produced.

    ``answer`` is the direct response to the actor: for a button press a short notice
    (``alert`` asks the platform to show it prominently), for a command a message in
    the same chat, with ``answer_choices`` offered under it. ``private`` is for the
    actor's eyes only; ``update`` replaces what the pressed message shows (a page of a
    long list). ``out`` holds every other message to send or update.
    """

    answer: Rich | None
    alert: bool
    out: list[Outgoing]
    answer_choices: ChoiceBlock | None
    private: Private | None
    update: Message | None
    # The table versions whose follow-ups ``out`` delivers: once the adapter has handed
    # ``out`` over, ``Campfire.acknowledge`` clears what the tables owe.
    owed: list[Owed]
    # The code of the refusal ``answer`` words (``bot.table.refusals``), counted by
    # reason for the operator; None when nothing was refused.
    refused: str | None

    def __init__(
        self, answer: Rich | str | None = None, alert: bool = False,
        out: list[Outgoing] | None = None, answer_choices: ChoiceBlock | None = None,
        private: Private | None = None, update: Message | None = None,
        owed: list[Owed] | None = None, refused: str | None = None,
    ) -> None:
        """``answer`` as a tree or catalog markup (parsed here)."""
        self.answer = None if answer is None else as_rich(answer)
        self.alert = alert
        self.out = out if out is not None else []
        self.answer_choices = answer_choices if answer_choices and answer_choices.choices \
            else None
        self.private = private
        self.update = update
        self.owed = owed if owed is not None else []
        self.refused = refused
